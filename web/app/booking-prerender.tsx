import { DEFAULT_BOOKING_TIME_ZONE } from '../../domain/booking.js';
import { BookingRoot } from './booking-root.js';
import { renderWithStyles, type RenderedPage } from './render-with-styles.js';
import { makeStore } from '../store/store.js';

/**
 * The booking page's prerender, a bundle of its own (see prerender.tsx): styled-components numbers components in the
 * order they are defined, and here, as in the page's browser entry, the booking page's are the only ones.
 */
export function renderBookingPage(): RenderedPage {
  // No token: the build cannot know the booking, so the page is its loading state, which needs no zone either.
  return renderWithStyles(
    <BookingRoot store={makeStore()} token={null} zone={DEFAULT_BOOKING_TIME_ZONE} visitorZone={DEFAULT_BOOKING_TIME_ZONE} />,
  );
}
