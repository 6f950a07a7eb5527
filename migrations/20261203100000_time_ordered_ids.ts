import type { Knex } from 'knex';

/**
 * The rows that grow with the bookings get time-ordered ids (UUID version 7, RFC 9562: the first 48 bits are the
 * Unix time in milliseconds, then 74 random bits), so that a new row's id goes to the end of its primary key's index,
 * where the rows of the last minutes already are. With random ids, each new row and each claim of an e-mail due now
 * touched a page of its own somewhere in indexes of tens of millions of entries: read from disk, and written whole
 * to the WAL once after each checkpoint. The API makes a booking's id itself (the `uuid` package's v7); rows
 * inserted in SQL take time_ordered_uuid() by default. Rows of before keep their ids. PostgreSQL 18 has uuidv7();
 * this function gives the same layout on the versions before it, and takes a time and random bits when given them
 * (the bench's history is made with it).
 */
const GROWING = ['bookings', 'booking_emails', 'webhook_events', 'webhook_deliveries'];

export async function up(knex: Knex): Promise<void> {
  // The random bits of p_random (a version 4 UUID by default) with the time written over its first six bytes, its
  // version bits made 0111 (bits 55 to 52, which set_bit counts from the low bit of the first byte) and its variant
  // bits 10 (bits 71 and 70). Each argument's default is evaluated at each call, so every row gets its own.
  await knex.raw(`
    CREATE OR REPLACE FUNCTION time_ordered_uuid(p_at timestamptz DEFAULT clock_timestamp(), p_random uuid DEFAULT gen_random_uuid())
    RETURNS uuid LANGUAGE sql VOLATILE PARALLEL SAFE AS $fn$
      SELECT encode(set_bit(set_bit(set_bit(set_bit(set_bit(set_bit(
        overlay(uuid_send(p_random) PLACING substring(int8send(floor(extract(epoch FROM p_at) * 1000)::bigint) FROM 3) FROM 1 FOR 6),
        55, 0), 54, 1), 53, 1), 52, 1), 71, 1), 70, 0), 'hex')::uuid
    $fn$`);
  for (const table of GROWING)
    await knex.raw('ALTER TABLE ?? ALTER COLUMN id SET DEFAULT time_ordered_uuid()', [table]);
}

export async function down(knex: Knex): Promise<void> {
  for (const table of GROWING) await knex.raw('ALTER TABLE ?? ALTER COLUMN id SET DEFAULT gen_random_uuid()', [table]);
  // No default names it now. webhook_raise (db/functions/webhooks.sql) still calls it: this down is for rolling back
  // past the webhooks' migration too, which drops webhook_raise; stopped here, raising an event would fail.
  await knex.raw('DROP FUNCTION IF EXISTS time_ordered_uuid(timestamptz, uuid)');
}
