import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { DemoModalContext, type DemoModalControls } from './demo-modal-context.js';

// The dialog, the calendar, the store and the toasts are one separate chunk: the page paints and
// hydrates without them, and they arrive on first open or once the browser is idle.
const loadRuntime = () => import(/* webpackChunkName: "demo" */ './demo-runtime.js');
const DemoRuntime = lazy(loadRuntime);

const IDLE_PRELOAD_DELAY_MS = 2000;

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

  useEffect(() => {
    let idleHandle: number | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const mountWhenIdle = () => {
      timer = setTimeout(() => {
        // Only fetched and evaluated here; it renders on first open, so an idle visitor pays no render.
        const fetchCode = () => void loadRuntime();
        if ('requestIdleCallback' in window) idleHandle = window.requestIdleCallback(fetchCode, { timeout: 4000 });
        else fetchCode();
      }, IDLE_PRELOAD_DELAY_MS);
    };
    if (document.readyState === 'complete') mountWhenIdle();
    else window.addEventListener('load', mountWhenIdle, { once: true });
    return () => {
      window.removeEventListener('load', mountWhenIdle);
      if (timer !== undefined) clearTimeout(timer);
      if (idleHandle !== undefined) window.cancelIdleCallback(idleHandle);
    };
  }, []);

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
