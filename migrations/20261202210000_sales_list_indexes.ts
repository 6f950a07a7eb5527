import type { Knex } from 'knex';

/**
 * What keeps the sales page's list fast at a million bookings (docs/sales-page.md): its search is a case-insensitive
 * prefix of the name, the company, the e-mail address or its domain (one index each, text_pattern_ops so that LIKE
 * 'prefix%' uses it whatever the collation), and its filters by source (attribution's utm_source) and host are read
 * in the list's own order (newest first, by keyset), and so are the marked (attended, no-show); by slot through an
 * index of the slot; a booking's page
 * reads its webhook deliveries by booking.
 *
 * Built CONCURRENTLY, outside a transaction, as bookings_newest_idx was: a deploy never stops bookings.
 */
export const config = { transaction: false };

const INDEXES = [
  ['bookings_name_prefix_idx', 'bookings (lower(name) text_pattern_ops)'],
  ['bookings_company_prefix_idx', 'bookings (lower(company) text_pattern_ops)'],
  ['bookings_email_prefix_idx', 'bookings (lower(email) text_pattern_ops)'],
  ['bookings_email_domain_prefix_idx', "bookings (split_part(lower(email), '@', 2) text_pattern_ops)"],
  ['bookings_source_newest_idx', "bookings ((attribution ->> 'utm_source'), created_at DESC, id DESC)"],
  ['bookings_host_newest_idx', 'bookings (host_email, created_at DESC, id DESC)'],
  ['bookings_time_slot_idx', 'bookings (time_slot)'],
  ['bookings_attendance_newest_idx', 'bookings (attendance, created_at DESC, id DESC) WHERE attendance IS NOT NULL'],
  // A booking's own webhook deliveries, for its page (the older index leads with the endpoint).
  ['webhook_deliveries_booking_idx', 'webhook_deliveries (booking_id)'],
] as const;

export async function up(knex: Knex): Promise<void> {
  for (const [name, on] of INDEXES) {
    await knex.raw(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
    await knex.raw(`CREATE INDEX CONCURRENTLY ${name} ON ${on}`);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const [name] of [...INDEXES].reverse()) await knex.raw(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
}
