import type { Knex } from 'knex';

/**
 * A request the honeypot caught now meets its slot as a booking does, within the trap's own rows: it keeps the
 * canonical recipient (a second catch of the same person at that slot is "already booked"), its host's address (the
 * host's daily limit and fair choice count it, and its invitation names the organiser in full) and the client's
 * network (the slot list read from that network shows the slot as taken for the next hour; the hourly purge forgets
 * it after that). The slot's question and the host's choice take a flag for the trap's rows under new signatures:
 * the old ones are dropped here, and the functions file (db/functions/bookings.sql) makes the new ones, and
 * book_trapped, after the migrations.
 */
const OLD_FUNCTIONS = [
  'booking_slot_refusal(text, timestamptz, integer)',
  'booking_choose_host(timestamptz, jsonb, uuid, text)',
];
const NEW_FUNCTIONS = [
  'book_trapped(uuid, text, text, text, text, timestamptz, integer, jsonb, text, text, text)',
  'booking_slot_refusal(text, timestamptz, integer, boolean)',
  'booking_choose_host(timestamptz, jsonb, uuid, text, boolean)',
];

export async function up(knex: Knex): Promise<void> {
  for (const fn of OLD_FUNCTIONS) await knex.raw(`DROP FUNCTION IF EXISTS ${fn}`);
  await knex.schema.alterTable('trapped_bookings', (table) => {
    table.text('recipient').nullable();
    table.text('host_email').nullable();
    table.text('client_network').nullable();
  });
  // A host's catches around a slot, counted with their bookings for the trap's choice of host.
  await knex.raw(
    'CREATE INDEX trapped_bookings_host_slot_idx ON trapped_bookings (host_email, time_slot) WHERE host_email IS NOT NULL',
  );
  // The slot list: which networks were caught in the last hour, and what one of them took.
  await knex.raw('CREATE INDEX trapped_bookings_recent_idx ON trapped_bookings (created_at, client_network)');
  await knex.raw('CREATE INDEX trapped_bookings_network_idx ON trapped_bookings (client_network, created_at)');
}

export async function down(knex: Knex): Promise<void> {
  // The functions file of before makes the old signatures again when it is applied.
  for (const fn of NEW_FUNCTIONS) await knex.raw(`DROP FUNCTION IF EXISTS ${fn}`);
  await knex.raw('DROP INDEX trapped_bookings_network_idx');
  await knex.raw('DROP INDEX trapped_bookings_recent_idx');
  await knex.raw('DROP INDEX trapped_bookings_host_slot_idx');
  await knex.schema.alterTable('trapped_bookings', (table) => {
    table.dropColumn('client_network');
    table.dropColumn('host_email');
    table.dropColumn('recipient');
  });
}
