/**
 * The first script of a booking's manage page (/booking/{token}), small and without React, written into the end of
 * the page (so the first paint waits on no second request; the CSP allows it by its hash). The server renders the
 * booking into the page (api/web.ts), so what a visitor came to see needs no script at all: this one only writes the
 * booking's time on the visitor's own clock, and fetches the page's React code (web/app/booking-app.tsx: the
 * buttons' panels, the store, the calendar on demand) on the visitor's first sign of intent: a pointer over a button,
 * a touch, a key, a focus. A Reschedule or Cancel press that comes before React has taken over is remembered, and
 * React opens that panel once it has. A page the server could not fill (the prerendered loading state) gets its React
 * code at once, which asks the API for the booking itself.
 */
import { loadFontAfterFirstPaint } from '../components/font-loading.js';
import { readBookingTimeZone } from '../features/date-time-picker/booking-rules-meta.js';
import { visitorTimeZone } from '../features/date-time-picker/booking-calendar.js';
import {
  BOOKING_ACTION_ATTRIBUTE,
  BOOKING_APP_META,
  LOCAL_TIME_ATTRIBUTE,
  readBookingPageData,
  type BookingAction,
} from '../features/manage-booking/booking-page-data.js';
import { describeBookingTime } from '../features/date-time-picker/booking-time.js';

loadFontAfterFirstPaint(document);

const state = (window.convergeBookingPage ??= {});
const data = readBookingPageData();

const booking = data?.booking;
const localTime = document.querySelector(`[${LOCAL_TIME_ATTRIBUTE}]`);
if (booking && localTime) {
  const { local } = describeBookingTime(booking.timeSlot, readBookingTimeZone(), visitorTimeZone());
  if (local) localTime.textContent = `${local} your time`;
}

let loading: Promise<void> | undefined;

/** Runs the React code the page names, in order; a failure lets the next intent try again. */
function loadApp(): Promise<void> {
  loading ??= new Promise<void>((resolve, reject) => {
    const sources =
      document.querySelector<HTMLMetaElement>(`meta[name="${BOOKING_APP_META}"]`)?.content.split(' ').filter(Boolean) ??
      [];
    let waiting = sources.length;
    for (const src of sources) {
      const script = Object.assign(document.createElement('script'), { src, async: false });
      script.onload = () => {
        waiting -= 1;
        if (waiting === 0) resolve();
      };
      script.onerror = () => {
        script.remove();
        loading = undefined;
        reject(new Error(`${src} could not be loaded`));
      };
      document.head.append(script);
    }
  }).catch(() => undefined);
  return loading;
}

if (!data) void loadApp();
else {
  const intents = ['pointerdown', 'touchstart', 'keydown', 'focusin'] as const;
  const onIntent = () => void loadApp();
  for (const type of intents) document.addEventListener(type, onIntent, { capture: true, passive: true });
  document.addEventListener('pointerover', (event) => {
    if (event.target instanceof Element && event.target.closest(`[${BOOKING_ACTION_ATTRIBUTE}]`)) onIntent();
  });
  // Until React runs, a press is kept for it; after, React replays presses itself. Either way the press opens its
  // panel on this page, not the page its button's form asks for (the step's own page, for a browser without script).
  document.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest(`[${BOOKING_ACTION_ATTRIBUTE}]`) : null;
    if (!button) return;
    event.preventDefault();
    if (state.started) return;
    state.pressed = button.getAttribute(BOOKING_ACTION_ATTRIBUTE) as BookingAction;
    onIntent();
  });
}
