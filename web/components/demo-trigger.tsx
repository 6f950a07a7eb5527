import type { ReactNode } from 'react';
import { Button } from './button.js';
import { DEMO_TRIGGER_ATTRIBUTE } from './demo-trigger-attribute.js';

interface DemoTriggerProps {
  children: ReactNode;
  variant?: 'primary' | 'secondary' | 'onNight';
  size?: 'md' | 'lg';
  className?: string;
}

/** Every button that opens the Request Demo dialog; they all open the same form (demo-launcher.ts wires them). */
export function DemoTrigger({ children, variant = 'primary', size = 'md', className }: DemoTriggerProps) {
  return (
    <Button
      type="button"
      className={className}
      $variant={variant}
      $size={size}
      aria-haspopup="dialog"
      {...{ [DEMO_TRIGGER_ATTRIBUTE]: '' }}
    >
      {children}
    </Button>
  );
}
