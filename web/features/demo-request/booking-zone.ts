import { BOOKING_TIME_ZONE_META, DEFAULT_BOOKING_TIME_ZONE, isValidTimeZone } from '../../../domain/booking.js';

interface MetaSource {
  querySelector(selectors: string): { getAttribute(name: string): string | null } | null;
}

/**
 * The booking zone the served page names in `<meta name="booking-time-zone">` (written by the prerender, see
 * web/app/booking-zone.ts, and rewritten by the server with its BOOKING_TIME_ZONE), or the default when the tag
 * is missing, empty or not a zone the browser knows.
 */
export function readBookingTimeZone(source: MetaSource | undefined = globalThis.document): string {
  const content = source?.querySelector(`meta[name="${BOOKING_TIME_ZONE_META}"]`)?.getAttribute('content')?.trim();
  return content && isValidTimeZone(content) ? content : DEFAULT_BOOKING_TIME_ZONE;
}
