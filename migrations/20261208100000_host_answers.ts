import type { Knex } from 'knex';

/**
 * The host's answers (issue 39): a booking whose host deleted or declined its event and that no other host could
 * take is marked as needing a new time (when, and the host's reason), and each slot a host gave up that way is kept,
 * so that the same host is not offered or given it again.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('bookings', (table) => {
    table.timestamp('needs_new_time_at', { useTz: true }).nullable();
    table.text('needs_new_time_reason').nullable();
  });
  await knex.raw(
    "ALTER TABLE bookings ADD CONSTRAINT bookings_needs_new_time_reason CHECK ((needs_new_time_at IS NULL) = (needs_new_time_reason IS NULL) AND needs_new_time_reason IN ('host-deleted', 'host-declined'))",
  );
  await knex.schema.createTable('host_freed_slots', (table) => {
    table.text('host_email').notNullable();
    table.timestamp('time_slot', { useTz: true }).notNullable();
    table.uuid('booking_id').notNullable();
    table.text('reason').notNullable();
    table.timestamp('freed_at', { useTz: true }).notNullable();
    table.primary(['host_email', 'time_slot']);
  });
  await knex.raw(
    "ALTER TABLE host_freed_slots ADD CONSTRAINT host_freed_slots_reason CHECK (reason IN ('host-deleted', 'host-declined'))",
  );
  await knex.raw('CREATE INDEX host_freed_slots_time_slot ON host_freed_slots (time_slot)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(
    'DROP FUNCTION IF EXISTS booking_host_answer(uuid, text, timestamptz, text, jsonb, timestamptz, jsonb, jsonb)',
  );
  await knex.schema.dropTable('host_freed_slots');
  await knex.raw('ALTER TABLE bookings DROP CONSTRAINT bookings_needs_new_time_reason');
  await knex.schema.alterTable('bookings', (table) => {
    table.dropColumn('needs_new_time_at');
    table.dropColumn('needs_new_time_reason');
  });
}
