import type { Knex } from 'knex';

/**
 * A move's e-mails say where the demo was before (the prospect's update, the sales desk's notice): each such outbox
 * row keeps the slot the booking left, stored with the move in the same transaction.
 * Null on every other row.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('booking_emails', (table) => {
    table.timestamp('previous_time_slot', { useTz: true }).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('booking_emails', (table) => {
    table.dropColumn('previous_time_slot');
  });
}
