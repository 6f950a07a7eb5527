import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { DemoModalContext, type DemoModalControls } from './demo-modal-context.js';

// The dialog, the calendar, the store and the toasts are one separate chunk: the page paints and hydrates
// without them. The browser prefetches it when idle (webpackPrefetch adds a low-priority <link rel=prefetch>
// once the page's own code has run); it is run when a visitor points at or focuses a trigger, or opens the dialog.
const loadRuntime = () => import(/* webpackChunkName: "demo", webpackPrefetch: true */ './demo-runtime.js');
const DemoRuntime = lazy(loadRuntime);

interface DemoHostProps {
  /** Renders the page; `inert` is true while the dialog is open, so nothing behind it is reachable. */
  children: (inert: boolean) => ReactNode;
}

export function DemoHost({ children }: DemoHostProps) {
  const [isOpen, setOpen] = useState(false);
  const [runtimeWanted, setRuntimeWanted] = useState(false);
  const trigger = useRef<HTMLElement | null>(null);
  const wasOpen = useRef(false);

  const preload = useCallback(() => {
    void loadRuntime();
  }, []);

  const open = useCallback((from: HTMLElement | null) => {
    trigger.current = from;
    setRuntimeWanted(true);
    setOpen(true);
  }, []);

  const close = useCallback(() => setOpen(false), []);

  // Focus goes back to the button that opened the dialog once the page is no longer inert.
  useEffect(() => {
    if (wasOpen.current && !isOpen) trigger.current?.focus();
    wasOpen.current = isOpen;
  }, [isOpen]);

  const controls = useMemo<DemoModalControls>(() => ({ isOpen, open, close, preload }), [isOpen, open, close, preload]);

  return (
    <DemoModalContext.Provider value={controls}>
      {children(isOpen)}
      {runtimeWanted ? (
        <Suspense fallback={null}>
          <DemoRuntime isOpen={isOpen} onClose={close} />
        </Suspense>
      ) : null}
    </DemoModalContext.Provider>
  );
}
