import {
  BOOKING_MIN_NOTICE_META,
  BOOKING_TIME_ZONE_META,
  DEFAULT_BOOKING_TIME_ZONE,
  DEFAULT_MIN_NOTICE_MINUTES,
  isValidTimeZone,
} from '../../../domain/booking.js';

interface MetaSource {
  querySelector(selectors: string): { getAttribute(name: string): string | null } | null;
}

/**
 * The booking rules travel in the page's head: the prerender writes `<meta name="booking-time-zone">` (the default
 * zone at build time) and `<meta name="booking-min-notice">`, the server rewrites their content with its
 * BOOKING_TIME_ZONE and MIN_NOTICE_MINUTES when it serves the page, and the calendar reads them once.
 */

/** The head tags the prerender writes: the zone, and the notice bookings need; the server rewrites their content. */
export function bookingRulesMeta(zone: string): string[] {
  return [
    `<meta name="${BOOKING_TIME_ZONE_META}" content="${zone}">`,
    `<meta name="${BOOKING_MIN_NOTICE_META}" content="${DEFAULT_MIN_NOTICE_MINUTES}">`,
  ];
}

/**
 * The booking zone the served page names in `<meta name="booking-time-zone">`, or the default when the tag
 * is missing, empty or not a zone the browser knows.
 */
export function readBookingTimeZone(source: MetaSource | undefined = globalThis.document): string {
  const content = source?.querySelector(`meta[name="${BOOKING_TIME_ZONE_META}"]`)?.getAttribute('content')?.trim();
  return content && isValidTimeZone(content) ? content : DEFAULT_BOOKING_TIME_ZONE;
}

/** The notice bookings need (minutes), as the served page names it in `<meta name="booking-min-notice">`. */
export function readMinNotice(source: MetaSource | undefined = globalThis.document): number {
  const content = source?.querySelector(`meta[name="${BOOKING_MIN_NOTICE_META}"]`)?.getAttribute('content')?.trim();
  const minutes = content ? Number(content) : Number.NaN;
  return Number.isInteger(minutes) && minutes >= 0 ? minutes : DEFAULT_MIN_NOTICE_MINUTES;
}

/** The page's notice, read once when the calendar's code first runs: the server's MIN_NOTICE_MINUTES. */
export const PAGE_MIN_NOTICE = readMinNotice();
