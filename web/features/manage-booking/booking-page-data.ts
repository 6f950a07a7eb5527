import type { BookingView } from '../../../domain/demo-request.js';

/**
 * What the server writes into a booking's manage page besides its markup, for the page's scripts to read: the booking
 * it rendered (null: the link opens none), as JSON in a data block (`<script type="application/json">`, which the
 * browser never runs, so the page's CSP needs no hash for it). The token is not in it: the scripts read it from the
 * address, as before. A page without the block (the prerendered loading state) asks the API itself.
 */
export const BOOKING_DATA_ID = 'booking-data';

/** The meta tag naming the page's React code, which its first small script fetches on a visitor's first intent. */
export const BOOKING_APP_META = 'booking-app-code';

/** The buttons whose press the first small script remembers until React has taken the page over. */
export const BOOKING_ACTION_ATTRIBUTE = 'data-booking-action';
export type BookingAction = 'reschedule' | 'cancel';

/** The element that shows the booking's time on the visitor's clock, filled in before React runs. */
export const LOCAL_TIME_ATTRIBUTE = 'data-local-time';

export interface BookingPageData {
  booking: BookingView | null;
}

/** The data block, its JSON safe inside HTML: no `<` (so no `</script>`), nor the line separators old parsers trip on. */
export function bookingDataBlock(data: BookingPageData): string {
  const json = JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return `<script type="application/json" id="${BOOKING_DATA_ID}">${json}</script>`;
}

interface DataSource {
  getElementById(id: string): { textContent: string | null } | null;
}

/** What the server wrote into the page, or undefined when it wrote nothing (or nothing readable). */
export function readBookingPageData(source: DataSource = document): BookingPageData | undefined {
  const text = source.getElementById(BOOKING_DATA_ID)?.textContent;
  if (!text) return undefined;
  try {
    const data = JSON.parse(text) as unknown;
    return typeof data === 'object' && data !== null && 'booking' in data ? (data as BookingPageData) : undefined;
  } catch {
    return undefined;
  }
}

declare global {
  interface Window {
    /**
     * Between the page's two scripts: the action a visitor pressed before React ran (the first script writes it), and
     * whether React has started (the React entry sets it, after which React replays presses itself).
     */
    convergeBookingPage?: { pressed?: BookingAction; started?: boolean };
  }
}
