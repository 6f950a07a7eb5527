import { BOOKING_TIME_ZONE_META } from '../../domain/booking.js';

/**
 * The booking zone comes from the server: the prerendered HTML carries
 * `<meta name="booking-time-zone" content="Europe/Berlin">` (the default at build time), and the server
 * writes its configured BOOKING_TIME_ZONE into it when it serves the page. The calendar reads it once
 * (see web/features/demo-request/booking-zone.ts).
 */

/** The head tag the prerender writes; the server rewrites its content. */
export function bookingTimeZoneMeta(zone: string): string {
  return `<meta name="${BOOKING_TIME_ZONE_META}" content="${zone}">`;
}
