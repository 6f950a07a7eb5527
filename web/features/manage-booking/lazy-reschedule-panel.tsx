import { Spinner } from '../../components/icons.js';
import { CALENDAR_LOADING, CALENDAR_LOAD_PROBLEM, LazyCalendar } from '../date-time-picker/lazy-calendar.js';
import { LoadingLine, Problem } from './parts.js';
import type { ReschedulePanelProps } from './reschedule-panel.js';

// The calendar (react-calendar and the slot picker) is most of the page's code, and only a reschedule needs it: its
// chunk is fetched when the browser is idle (webpackPrefetch), and run when Reschedule is pressed.
const loadReschedulePanel = () =>
  import(/* webpackChunkName: "booking-reschedule", webpackPrefetch: true */ './reschedule-panel.js');

/** The reschedule panel, its code fetched on first use; a failed fetch can be tried again. */
export function LazyReschedulePanel(props: ReschedulePanelProps) {
  return (
    <LazyCalendar
      load={loadReschedulePanel}
      props={props}
      fallback={
        <LoadingLine role="status">
          <Spinner />
          {CALENDAR_LOADING}
        </LoadingLine>
      }
      problem={<Problem text={CALENDAR_LOAD_PROBLEM} />}
    />
  );
}
