import { DEFAULT_BOOKING_TIME_ZONE } from '../../domain/booking.js';
import type { BookingView } from '../../domain/demo-request.js';
import { bookingDataBlock } from '../features/manage-booking/booking-page-data.js';
import { BookingRoot } from './booking-root.js';
import { renderWithStyles, staticPage, type RenderedPage } from './render-with-styles.js';
import { api } from '../store/api.js';
import { makeStore } from '../store/store.js';

/**
 * The booking page's server renders, a bundle of its own (see prerender.tsx): styled-components numbers components in
 * the order they are defined, and here, as in the page's browser entry, the booking page's are the only ones.
 */

/** The page's loading state, written at build time: the build cannot know the booking, and it needs no zone either. */
export function renderBookingPage(): RenderedPage {
  return renderWithStyles(
    <BookingRoot
      store={makeStore()}
      token={null}
      zone={DEFAULT_BOOKING_TIME_ZONE}
      visitorZone={DEFAULT_BOOKING_TIME_ZONE}
    />,
  );
}

/**
 * The page the API sends, with status 503, for a booking it cannot read (the database out of reach; api/web.ts):
 * written at build time like the 404 page, the booking page's top bar, card and footer saying to try again shortly.
 * Never hydrated, so it keeps only what it draws with (staticPage), and carries no script.
 */
export function renderBookingUnavailablePage(): RenderedPage {
  return staticPage(
    renderWithStyles(
      <BookingRoot
        store={makeStore()}
        token={null}
        zone={DEFAULT_BOOKING_TIME_ZONE}
        visitorZone={DEFAULT_BOOKING_TIME_ZONE}
        unavailable
      />,
    ),
  );
}

export interface BookingPageRender extends RenderedPage {
  /** The data block the page's scripts read the booking from (booking-page-data.ts), to write after the root. */
  data: string;
}

/**
 * The page of one booking, rendered by the API when it serves /booking/{token} (api/web.ts): the booking's details
 * (or "This link does not open a booking" for null) in the markup, and the booking in a data block for the page's
 * React code to start from. The visitor's zone is not known here: the time is given in the booking zone, and the
 * page's first script adds the visitor's own.
 */
export function renderBookingFor(token: string, booking: BookingView | null, zone: string): BookingPageRender {
  const store = makeStore();
  if (booking) store.dispatch(api.util.upsertQueryEntries([{ endpointName: 'booking', arg: token, value: booking }]));
  const page = renderWithStyles(
    <BookingRoot store={store} token={token} zone={zone} visitorZone={zone} opensNothing={booking === null} />,
  );
  return { ...page, data: bookingDataBlock({ booking }) };
}
