import { Component, lazy, Suspense, useMemo, useState, type ComponentType, type ReactNode } from 'react';
import { Button } from '../../components/button.js';
import { useHydrated } from '../../components/use-hydrated.js';

export const CALENDAR_LOADING = 'Loading the calendar…';
export const CALENDAR_LOAD_PROBLEM = 'The calendar could not be loaded. Please check your connection and try again.';

/** Keeps the page working when the calendar's code cannot be fetched (offline, say), and offers another try. */
class CalendarBoundary extends Component<
  { problem: ReactNode; onRetry: () => void; children: ReactNode },
  { failed: boolean }
> {
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
        {this.props.problem}
        <Button type="button" $variant="secondary" onClick={this.props.onRetry}>
          Try again
        </Button>
      </>
    );
  }
}

interface LazyCalendarProps<P> {
  /** Fetches and runs the component's code: the calendar (react-calendar) and what renders it. */
  load: () => Promise<{ default: ComponentType<P> }>;
  props: P;
  /** Shown while the code is on its way. */
  fallback: ReactNode;
  /** Shown, above a "Try again" button, when it could not be fetched. */
  problem: ReactNode;
}

/**
 * A part holding the calendar, its code fetched when it is first rendered in the browser, so what is around it renders
 * without waiting for react-calendar; a failed fetch can be tried again. Prerendered (the landing page's dialog), it
 * is its fallback, and stays so through hydration.
 */
export function LazyCalendar<P extends object>({ load, props, fallback, problem }: LazyCalendarProps<P>) {
  // lazy() remembers a failed load, so each try needs its own.
  const [attempt, setAttempt] = useState(0);
  const Loaded = useMemo(() => lazy(load), [load, attempt]);
  const hydrated = useHydrated();
  if (!hydrated) return fallback;
  return (
    <CalendarBoundary key={attempt} problem={problem} onRetry={() => setAttempt((count) => count + 1)}>
      <Suspense fallback={fallback}>
        <Loaded {...props} />
      </Suspense>
    </CalendarBoundary>
  );
}
