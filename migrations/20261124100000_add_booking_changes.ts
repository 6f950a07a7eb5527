import type { Knex } from 'knex';

/**
 * A booking can be moved and cancelled through its link: its status, and a sequence that rises with each change
 * (the calendar event's SEQUENCE). Every e-mail other than the confirmation (an update, a cancellation, a reminder,
 * the sales desk's notice) is a row of booking_emails, the outbox those kinds share: stored in the transaction
 * that made the change, claimed and marked by the worker like the confirmation, enqueued again by the sweep.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('demo_requests', (table) => {
    table.text('status').notNullable().defaultTo('booked');
    table.integer('sequence').notNullable().defaultTo(0);
    table.timestamp('cancelled_at', { useTz: true }).nullable();
  });
  await knex.raw(
    "ALTER TABLE demo_requests ADD CONSTRAINT demo_requests_status_known CHECK (status IN ('booked', 'cancelled'))",
  );
  // A slot's capacity counts only the bookings that still hold it.
  await knex.raw('DROP INDEX demo_requests_time_slot_idx');
  await knex.raw(
    "CREATE INDEX demo_requests_booked_time_slot_idx ON demo_requests (time_slot) WHERE status = 'booked'",
  );

  await knex.schema.createTable('booking_emails', (table) => {
    table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    table.uuid('demo_request_id').notNullable().references('id').inTable('demo_requests').onDelete('CASCADE');
    table.text('kind').notNullable();
    // The booking as this e-mail tells it: its slot and sequence when the change was made.
    table.timestamp('time_slot', { useTz: true }).notNullable();
    table.integer('sequence').notNullable();
    // Who it goes to when not the prospect (the sales desk's address at the time).
    table.text('recipient').nullable();
    // For the sales desk: what happened (booked, rescheduled, cancelled).
    table.text('change').nullable();
    // Not before this time (a reminder's); an e-mail about a change is due at once.
    table.timestamp('due_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('sent_at', { useTz: true }).nullable();
    table.timestamp('claimed_until', { useTz: true }).nullable();
    table.integer('attempts').notNullable().defaultTo(0);
    table.text('last_error').nullable();
    table.timestamp('failed_at', { useTz: true }).nullable();
    // No longer to send: a reminder for a slot that was moved or cancelled.
    table.timestamp('dropped_at', { useTz: true }).nullable();
    table.index(['demo_request_id'], 'booking_emails_demo_request_idx');
  });
  await knex.raw(
    "ALTER TABLE booking_emails ADD CONSTRAINT booking_emails_kind_known CHECK (kind IN ('update', 'cancellation', 'reminder', 'sales-notice'))",
  );
  // The sweep reads only what is still to send, by due time.
  await knex.raw(
    'CREATE INDEX booking_emails_open_idx ON booking_emails (kind, due_at) WHERE sent_at IS NULL AND failed_at IS NULL AND dropped_at IS NULL',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('booking_emails');
  await knex.raw('DROP INDEX demo_requests_booked_time_slot_idx');
  await knex.raw('CREATE INDEX demo_requests_time_slot_idx ON demo_requests (time_slot)');
  await knex.raw('ALTER TABLE demo_requests DROP CONSTRAINT demo_requests_status_known');
  await knex.schema.alterTable('demo_requests', (table) => {
    table.dropColumn('cancelled_at');
    table.dropColumn('sequence');
    table.dropColumn('status');
  });
}
