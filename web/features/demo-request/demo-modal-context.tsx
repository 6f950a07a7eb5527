import { createContext, useContext } from 'react';

export interface DemoModalControls {
  isOpen: boolean;
  /** Opens the Request Demo dialog; focus goes back to `trigger` when it closes. */
  open: (trigger: HTMLElement | null) => void;
  close: () => void;
  /** Starts loading the dialog's code early (pointer over or focus on a trigger). */
  preload: () => void;
}

const noop = () => undefined;

export const DemoModalContext = createContext<DemoModalControls>({
  isOpen: false,
  open: noop,
  close: noop,
  preload: noop,
});

export function useDemoModal(): DemoModalControls {
  return useContext(DemoModalContext);
}
