import type { Knex } from 'knex';

/**
 * Every booking has a meeting link (its video room), kept across moves. A booking with a team (TEAM_FILE) has a host:
 * who gives the demo (their address, name and title as they stood when chosen) and why they were chosen. The database makes two bookings of one host at overlapping times impossible,
 * whatever number of API processes book at once: an exclusion constraint over the host and the slot's span (the
 * demo's hour). Bookings without a host (no TEAM_FILE) are left to the slot's capacity, as before. `book` and
 * `booking_answer` take the host and the link under new signatures: the old ones are dropped here, and the functions
 * file (db/functions/bookings.sql) makes the new ones after the migrations.
 */
const OLD_FUNCTIONS = [
  'book(uuid, text, text, text, text, text, text, text, timestamptz, jsonb, integer, integer, integer, integer, jsonb, text, text, text)',
  'booking_answer(uuid, timestamptz, timestamptz, text)',
];
const NEW_FUNCTIONS = [
  'book(uuid, text, text, text, text, text, text, text, timestamptz, jsonb, integer, integer, integer, integer, jsonb, jsonb, text, text, text, text)',
  'booking_answer(uuid, timestamptz, timestamptz, text, text, jsonb)',
  'booking_choose_host(timestamptz, jsonb, uuid, text)',
];
export async function up(knex: Knex): Promise<void> {
  // Equality on text inside a GiST index (trusted since PostgreSQL 13: a database owner may create it).
  await knex.raw('CREATE EXTENSION IF NOT EXISTS btree_gist');
  for (const fn of OLD_FUNCTIONS) await knex.raw(`DROP FUNCTION IF EXISTS ${fn}`);
  await knex.schema.alterTable('bookings', (table) => {
    table.text('meeting_url').nullable();
    table.text('host_email').nullable();
    table.text('host_name').nullable();
    table.text('host_title').nullable();
    table.jsonb('host_choice').nullable();
  });
  // The span a booking holds: its slot's hour (domain/booking.ts, SLOT_DURATION_MINUTES). Adding a fixed number of
  // hours does not depend on the session's time zone, so the function may be IMMUTABLE, as an index requires.
  await knex.raw(`
    CREATE FUNCTION booking_span(p_time_slot timestamptz) RETURNS tstzrange
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$ SELECT tstzrange(p_time_slot, p_time_slot + interval '60 minutes') $fn$`);
  await knex.raw(`
    ALTER TABLE bookings ADD CONSTRAINT bookings_host_once_at_a_time
      EXCLUDE USING gist (host_email WITH =, booking_span(time_slot) WITH &&)
      WHERE (status = 'booked' AND host_email IS NOT NULL)`);
  // A host's demos around a slot, counted for the fair choice and the daily limit.
  await knex.raw(
    "CREATE INDEX bookings_host_slot_idx ON bookings (host_email, time_slot) WHERE status = 'booked' AND host_email IS NOT NULL",
  );
  // What a honeypot's catch shows on its page: the host a real booking would have named.
  await knex.schema.alterTable('trapped_bookings', (table) => {
    table.text('meeting_url').nullable();
    table.text('host_name').nullable();
    table.text('host_title').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const fn of NEW_FUNCTIONS) await knex.raw(`DROP FUNCTION IF EXISTS ${fn}`);
  await knex.schema.alterTable('trapped_bookings', (table) => {
    table.dropColumn('host_title');
    table.dropColumn('host_name');
    table.dropColumn('meeting_url');
  });
  await knex.raw('DROP INDEX bookings_host_slot_idx');
  await knex.raw('ALTER TABLE bookings DROP CONSTRAINT bookings_host_once_at_a_time');
  await knex.raw('DROP FUNCTION booking_span(timestamptz)');
  await knex.schema.alterTable('bookings', (table) => {
    table.dropColumn('host_choice');
    table.dropColumn('host_title');
    table.dropColumn('host_name');
    table.dropColumn('host_email');
    table.dropColumn('meeting_url');
  });
}
