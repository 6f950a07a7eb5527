import type { Knex } from 'knex';

/**
 * One outbox for every e-mail: a booking's confirmation becomes a booking_emails row of kind 'confirmation' (sequence
 * 0, to the prospect), carrying the state its columns on bookings held, and those columns go. The kinds are no longer
 * listed by a CHECK: the worker's registry of e-mail kinds is the one list, and a row of a kind it does not know is
 * left unsent for operations to see. `book` takes its e-mails under a new parameter name, which CREATE OR REPLACE
 * cannot rename: it is dropped here, and the functions file (db/functions/bookings.sql) makes it again after the
 * migrations, in either direction.
 */
const DROP_BOOK =
  'DROP FUNCTION IF EXISTS book(uuid, text, text, text, text, text, text, text, timestamptz, jsonb, integer, integer, integer, integer, jsonb, text, text, text)';
const STATE = [
  ['sent_at', 'confirmation_sent_at'],
  ['claimed_until', 'confirmation_claimed_until'],
  ['attempts', 'confirmation_attempts'],
  ['last_error', 'confirmation_last_error'],
  ['failed_at', 'confirmation_failed_at'],
  ['dropped_at', 'confirmation_dropped_at'],
] as const;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(DROP_BOOK);
  await knex.raw('ALTER TABLE booking_emails DROP CONSTRAINT booking_emails_kind_known');
  await knex.raw(
    `INSERT INTO booking_emails (booking_id, kind, time_slot, sequence, due_at, created_at, ${STATE.map(([row]) => row).join(', ')})
     SELECT id, 'confirmation', time_slot, 0, created_at, created_at, ${STATE.map(([, column]) => column).join(', ')} FROM bookings`,
  );
  await knex.raw('DROP INDEX bookings_pending_confirmation_idx');
  await knex.schema.alterTable('bookings', (table) => {
    for (const [, column] of STATE) table.dropColumn(column);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(DROP_BOOK);
  await knex.schema.alterTable('bookings', (table) => {
    table.timestamp('confirmation_sent_at', { useTz: true }).nullable();
    table.timestamp('confirmation_claimed_until', { useTz: true }).nullable();
    table.integer('confirmation_attempts').notNullable().defaultTo(0);
    table.text('confirmation_last_error').nullable();
    table.timestamp('confirmation_failed_at', { useTz: true }).nullable();
    table.timestamp('confirmation_dropped_at', { useTz: true }).nullable();
  });
  await knex.raw(
    `UPDATE bookings b SET ${STATE.map(([row, column]) => `${column} = e.${row}`).join(', ')}
     FROM booking_emails e WHERE e.booking_id = b.id AND e.kind = 'confirmation'`,
  );
  await knex.raw("DELETE FROM booking_emails WHERE kind = 'confirmation'");
  await knex.raw(
    'CREATE INDEX bookings_pending_confirmation_idx ON bookings (created_at) WHERE confirmation_sent_at IS NULL',
  );
  await knex.raw(
    "ALTER TABLE booking_emails ADD CONSTRAINT booking_emails_kind_known CHECK (kind IN ('update', 'cancellation', 'reminder', 'sales-notice'))",
  );
}
