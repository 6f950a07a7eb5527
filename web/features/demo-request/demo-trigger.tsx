import type { ReactNode } from 'react';
import { Button } from '../../components/button.js';
import { useDemoModal } from './demo-modal-context.js';

interface DemoTriggerProps {
  children: ReactNode;
  variant?: 'primary' | 'secondary' | 'onNight';
  size?: 'md' | 'lg';
  className?: string;
}

/** Every button that opens the Request Demo dialog; they all open the same form. */
export function DemoTrigger({ children, variant = 'primary', size = 'md', className }: DemoTriggerProps) {
  const { open, preload } = useDemoModal();
  return (
    <Button
      type="button"
      className={className}
      $variant={variant}
      $size={size}
      aria-haspopup="dialog"
      onClick={(event) => open(event.currentTarget)}
      onPointerEnter={preload}
      onFocus={preload}
    >
      {children}
    </Button>
  );
}
