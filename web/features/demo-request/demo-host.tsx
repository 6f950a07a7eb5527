import { Component, lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { styled } from 'styled-components';
import { Spinner } from '../../components/icons.js';
import { DemoModalContext, type DemoModalControls } from './demo-modal-context.js';

// The dialog, the calendar, the store and the toasts are one separate chunk: the page paints and hydrates
// without them. The browser prefetches it when idle (webpackPrefetch adds a low-priority <link rel=prefetch>
// once the page's own code has run); it is run when a visitor points at or focuses a trigger, or opens the dialog.
const loadRuntime = () => import(/* webpackChunkName: "demo", webpackPrefetch: true */ './demo-runtime.js');

interface BoundaryProps {
  onError: () => void;
  children: ReactNode;
}

/** Keeps the page on screen when the dialog's code cannot be fetched (offline, say). */
class RuntimeBoundary extends Component<BoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    console.error('The Request Demo form could not be loaded.', error);
    this.props.onError();
  }

  override render(): ReactNode {
    return this.state.failed ? null : this.props.children;
  }
}

const LoadingBackdrop = styled.div`
  position: fixed;
  inset: 0;
  z-index: 50;
  display: grid;
  place-items: center;
  background: rgba(11, 21, 48, 0.6);
  /* Shown only if loading takes a while, so a quick open does not flash it. */
  animation: demo-loading-appear 0.2s 0.3s both;
  @keyframes demo-loading-appear {
    from {
      opacity: 0;
    }
    to {
      opacity: 1;
    }
  }
`;

const LoadingPanel = styled.div`
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space[4]};
  padding: ${({ theme }) => theme.space[6]};
  border-radius: ${({ theme }) => theme.radius.lg};
  background: #fff;
  box-shadow: ${({ theme }) => theme.shadow.raised};
  button {
    border: 1px solid ${({ theme }) => theme.colors.borderStrong};
    border-radius: ${({ theme }) => theme.radius.pill};
    background: none;
    padding: ${({ theme }) => `${theme.space[2]} ${theme.space[4]}`};
    cursor: pointer;
  }
`;

/** Stands in for the dialog while its code arrives; the page behind is already inert, so it offers a way out. */
function LoadingDialog({ onCancel }: { onCancel: () => void }) {
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  return (
    <LoadingBackdrop>
      <LoadingPanel role="dialog" aria-modal="true" aria-label="Request Demo" aria-busy="true">
        <Spinner />
        <p role="status">Loading the form…</p>
        <button ref={cancel} type="button" onClick={onCancel} onKeyDown={(event) => event.key === 'Escape' && onCancel()}>
          Cancel
        </button>
      </LoadingPanel>
    </LoadingBackdrop>
  );
}

const LoadProblem = styled.p`
  position: fixed;
  left: 50%;
  bottom: ${({ theme }) => theme.space[6]};
  transform: translateX(-50%);
  z-index: 60;
  width: min(30rem, calc(100% - 2rem));
  padding: ${({ theme }) => `${theme.space[3]} ${theme.space[4]}`};
  border-left: 6px solid ${({ theme }) => theme.colors.danger};
  border-radius: ${({ theme }) => theme.radius.md};
  background: #fff;
  box-shadow: ${({ theme }) => theme.shadow.raised};
`;

interface DemoHostProps {
  /** Renders the page; `inert` is true while the dialog is open, so nothing behind it is reachable. */
  children: (inert: boolean) => ReactNode;
}

export function DemoHost({ children }: DemoHostProps) {
  const [isOpen, setOpen] = useState(false);
  const [runtimeWanted, setRuntimeWanted] = useState(false);
  // A failed load is tried again on the next open; lazy() remembers a failure, so each try needs its own.
  const [attempt, setAttempt] = useState(0);
  const [loadFailed, setLoadFailed] = useState(false);
  const DemoRuntime = useMemo(() => lazy(loadRuntime), [attempt]);
  const trigger = useRef<HTMLElement | null>(null);
  const wasOpen = useRef(false);

  const preload = useCallback(() => {
    void loadRuntime();
  }, []);

  const open = useCallback((from: HTMLElement | null) => {
    trigger.current = from;
    setLoadFailed(false);
    setRuntimeWanted(true);
    setOpen(true);
  }, []);

  const onLoadError = useCallback(() => {
    setOpen(false);
    setRuntimeWanted(false);
    setLoadFailed(true);
    setAttempt((count) => count + 1);
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
        <RuntimeBoundary key={attempt} onError={onLoadError}>
          <Suspense fallback={isOpen ? <LoadingDialog onCancel={close} /> : null}>
            <DemoRuntime isOpen={isOpen} onClose={close} />
          </Suspense>
        </RuntimeBoundary>
      ) : null}
      {loadFailed ? (
        <LoadProblem role="alert">The demo request form could not be loaded. Please check your connection and try again.</LoadProblem>
      ) : null}
    </DemoModalContext.Provider>
  );
}
