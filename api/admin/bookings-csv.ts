/** The bookings the sales page lists, as the CSV it exports: its columns, a row each, read a keyset page at a time. */
import { zonedIsoString } from '../../domain/booking.js';
import type { BookingSummary } from '../../domain/sales.js';
import { listBookings, type BookingFilters, type BookingPage } from './bookings-list.js';
import type { Db } from '../db.js';
import { csvLine } from './csv.js';

/** Bookings read per statement while exporting: each page costs what the list's first does. */
export const EXPORT_PAGE = 1000;

const CSV_COLUMNS = [
  'id',
  'created_at',
  'time_slot',
  'status',
  'attendance',
  'name',
  'email',
  'company',
  'phone',
  'message',
  'host_name',
  'host_email',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
  'referrer',
  'confirmation_sent_at',
] as const;

/** Times as the sales page shows them, in the booking zone, with the offset that makes each one exact. */
function csvRow(booking: BookingSummary, timeZone: string): string {
  const attribution = booking.attribution ?? {};
  const zoned = (iso: string | null) => (iso === null ? null : zonedIsoString(new Date(iso), timeZone));
  return csvLine([
    booking.id,
    zoned(booking.createdAt),
    zoned(booking.timeSlot),
    booking.status,
    booking.attendance,
    booking.name,
    booking.email,
    booking.company,
    booking.phone,
    booking.message,
    booking.host?.name,
    booking.host?.email,
    attribution.utm_source,
    attribution.utm_medium,
    attribution.utm_campaign,
    attribution.utm_term,
    attribution.utm_content,
    attribution.referrer,
    zoned(booking.confirmation.sentAt),
  ]);
}

/**
 * Every booking the filters select, newest first, as CSV lines: the first page (read already), then one keyset page
 * at a time while the client reads.
 */
export async function* bookingsCsv(
  db: Db,
  filters: BookingFilters,
  first: BookingPage,
  timeZone: string,
): AsyncGenerator<string> {
  yield csvLine(CSV_COLUMNS);
  let page = first;
  for (;;) {
    yield page.bookings.map((booking) => csvRow(booking, timeZone)).join('');
    if (!page.next) return;
    page = await listBookings(db, EXPORT_PAGE, page.next, filters);
  }
}
