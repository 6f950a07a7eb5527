import type { Knex } from 'knex';

/**
 * What keeps the cost flat as the tables grow, and what retention needs (BENCHMARKS.md, "Cost as the data grows"):
 *
 * - bookings.anonymised_at: when retention (worker/retention.ts) removed the booking's personal data;
 * - bookings_newest_idx: the operations list, newest first, read by keyset (created_at, id) from any depth;
 * - bookings_retention_idx: the bookings retention has still to visit, by slot (partial: anonymised rows leave it);
 * - idempotency_keys_created_at_idx: the hourly purge of expired keys, in batches, without reading the table.
 *
 * The indexes are built CONCURRENTLY, outside a transaction, so that a deploy on a table of millions of rows never
 * stops bookings while they are built.
 */
export const config = { transaction: false };

const INDEXES = [
  ['bookings_newest_idx', 'bookings (created_at DESC, id DESC)'],
  ['bookings_retention_idx', 'bookings (time_slot) WHERE anonymised_at IS NULL'],
  ['idempotency_keys_created_at_idx', 'idempotency_keys (created_at)'],
] as const;

export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE bookings ADD COLUMN IF NOT EXISTS anonymised_at timestamptz');
  for (const [name, on] of INDEXES) {
    // A build interrupted half-way leaves an invalid index of that name: it is made again.
    await knex.raw(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
    await knex.raw(`CREATE INDEX CONCURRENTLY ${name} ON ${on}`);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const [name] of [...INDEXES].reverse()) await knex.raw(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
  await knex.raw('ALTER TABLE bookings DROP COLUMN IF EXISTS anonymised_at');
}
