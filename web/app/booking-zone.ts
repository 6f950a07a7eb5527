import { BOOKING_MIN_NOTICE_META, BOOKING_TIME_ZONE_META, DEFAULT_MIN_NOTICE_MINUTES } from '../../domain/booking.js';

/**
 * The booking zone comes from the server: the prerendered HTML carries
 * `<meta name="booking-time-zone" content="Europe/Berlin">` (the default at build time), and the server
 * writes its configured BOOKING_TIME_ZONE into it when it serves the page. The calendar reads it once
 * (see web/features/demo-request/booking-zone.ts).
 */

/** The head tags the prerender writes: the zone, and the notice bookings need; the server rewrites their content. */
export function bookingRulesMeta(zone: string): string[] {
  return [`<meta name="${BOOKING_TIME_ZONE_META}" content="${zone}">`, `<meta name="${BOOKING_MIN_NOTICE_META}" content="${DEFAULT_MIN_NOTICE_MINUTES}">`];
}
