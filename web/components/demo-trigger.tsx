import type { ReactNode } from 'react';
import { Button } from './button.js';
import { BOOK_PAGE_PATH, DEMO_TRIGGER_ATTRIBUTE } from './demo-trigger-attribute.js';

interface DemoTriggerProps {
  children: ReactNode;
  variant?: 'primary' | 'secondary' | 'onNight';
  size?: 'md' | 'lg';
  className?: string;
}

/**
 * Every link that opens the Request Demo dialog; they all open the same form (dialog-opener.ts, written into the
 * page, opens it). Without script a link is followed: the server's booking page takes the booking instead.
 */
export function DemoTrigger({ children, variant = 'primary', size = 'md', className }: DemoTriggerProps) {
  return (
    <Button
      as="a"
      href={BOOK_PAGE_PATH}
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
