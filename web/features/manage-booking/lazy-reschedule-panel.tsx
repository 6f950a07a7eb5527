import { Component, lazy, Suspense, useMemo, useState, type ReactNode } from 'react';
import { Button } from '../../components/button.js';
import { Spinner } from '../../components/icons.js';
import { LoadingLine, Problem } from './parts.js';
import type { ReschedulePanelProps } from './reschedule-panel.js';

// The calendar (react-calendar and the slot picker) is most of the page's code, and only a reschedule needs it: its
// chunk is fetched when the browser is idle (webpackPrefetch), and run when Reschedule is pressed.
const loadReschedulePanel = () => import(/* webpackChunkName: "booking-reschedule", webpackPrefetch: true */ './reschedule-panel.js');

/** Keeps the page working when the calendar's code cannot be fetched (offline, say), and offers another try. */
class CalendarBoundary extends Component<{ onRetry: () => void; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    console.error('The calendar could not be loaded.', error);
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <>
        <Problem text="The calendar could not be loaded. Please check your connection and try again." />
        <Button type="button" $variant="secondary" onClick={this.props.onRetry}>
          Try again
        </Button>
      </>
    );
  }
}

/** The reschedule panel, its code fetched on first use; a failed fetch can be tried again. */
export function LazyReschedulePanel(props: ReschedulePanelProps) {
  // lazy() remembers a failed load, so each try needs its own.
  const [attempt, setAttempt] = useState(0);
  const Panel = useMemo(() => lazy(loadReschedulePanel), [attempt]);
  return (
    <CalendarBoundary key={attempt} onRetry={() => setAttempt((count) => count + 1)}>
      <Suspense
        fallback={
          <LoadingLine role="status">
            <Spinner />
            Loading the calendar…
          </LoadingLine>
        }
      >
        <Panel {...props} />
      </Suspense>
    </CalendarBoundary>
  );
}
