import { BOOKING_TIME_ZONE_META, DEFAULT_BOOKING_TIME_ZONE, isValidTimeZone } from '../../domain/booking.js';

/**
 * The booking zone comes from the server: the prerendered HTML carries
 * `<meta name="booking-time-zone" content="Europe/Berlin">` (the default at build time), and the server
 * writes its configured BOOKING_TIME_ZONE into it when it serves the page. The calendar reads it once.
 */

/** The head tag the prerender writes; the server rewrites its content. */
export function bookingTimeZoneMeta(zone: string): string {
  return `<meta name="${BOOKING_TIME_ZONE_META}" content="${zone}">`;
}

interface MetaSource {
  querySelector(selectors: string): { getAttribute(name: string): string | null } | null;
}

/** The zone the page names, or the default when the tag is missing, empty or not a zone the browser knows. */
export function readBookingTimeZone(source: MetaSource | undefined = globalThis.document): string {
  const content = source?.querySelector(`meta[name="${BOOKING_TIME_ZONE_META}"]`)?.getAttribute('content')?.trim();
  return content && isValidTimeZone(content) ? content : DEFAULT_BOOKING_TIME_ZONE;
}
