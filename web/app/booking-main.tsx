import { hydrateRoot } from 'react-dom/client';
import { readBookingTimeZone } from '../features/demo-request/booking-zone.js';
import { visitorTimeZone } from '../features/demo-request/booking-calendar.js';
import { tokenFromPath } from '../features/manage-booking/booking-link.js';
import { BookingRoot } from './booking-root.js';
import { makeStore } from './store.js';

/**
 * The browser entry of the booking manage page. It shares only React's chunk with the landing page, so a visitor
 * from an e-mail loads neither the landing page's sections nor the demo dialog's code.
 */
const container = document.getElementById('root');
if (container) {
  hydrateRoot(
    container,
    <BookingRoot
      store={makeStore()}
      token={tokenFromPath(window.location.pathname)}
      zone={readBookingTimeZone()}
      visitorZone={visitorTimeZone()}
    />,
  );
}
