import { hydrateRoot } from 'react-dom/client';
import { readBookingTimeZone } from '../features/date-time-picker/booking-rules-meta.js';
import { visitorTimeZone } from '../features/date-time-picker/booking-calendar.js';
import { readBookingPageData } from '../features/manage-booking/booking-page-data.js';
import { tokenFromPath } from '../features/manage-booking/token-from-path.js';
import { BookingRoot } from './booking-root.js';
import { api } from '../store/api.js';
import { makeStore } from '../store/store.js';

/**
 * The React code of the booking manage page, fetched by its first script (booking-main.ts) on a visitor's first intent.
 * It takes over the markup the server rendered, with the booking the server wrote beside it in the store, so nothing
 * is asked for again; a press its first script kept opens its panel. It shares no code with the landing page.
 */
const container = document.getElementById('root');
if (container) {
  const state = (window.convergeBookingPage ??= {});
  const token = tokenFromPath(window.location.pathname);
  const data = readBookingPageData();
  const store = makeStore();
  if (data?.booking)
    store.dispatch(api.util.upsertQueryEntries([{ endpointName: 'booking', arg: token, value: data.booking }]));
  const pressed = state.pressed;
  state.started = true;
  hydrateRoot(
    container,
    <BookingRoot
      store={store}
      token={token}
      zone={readBookingTimeZone()}
      visitorZone={visitorTimeZone()}
      opensNothing={data?.booking === null}
      pressed={pressed}
    />,
  );
}
