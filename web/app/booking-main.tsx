import { hydrateRoot } from 'react-dom/client';
import { readBookingTimeZone } from '../features/date-time-picker/booking-rules-meta.js';
import { visitorTimeZone } from '../features/date-time-picker/booking-calendar.js';
import { tokenFromPath } from '../features/manage-booking/token-from-path.js';
import { BookingRoot } from './booking-root.js';
import { makeStore } from '../store/store.js';

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
