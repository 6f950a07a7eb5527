import type { Knex } from 'knex';

/**
 * A confirmation can be settled without being sent: a booking moved or cancelled before its confirmation went out
 * drops it (in the change's own transaction, or when the change's e-mail is about to be sent), so that the prospect
 * never receives "Your demo is booked" after the booking has moved on. booking_emails has had dropped_at from the start.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('demo_requests', (table) => {
    table.timestamp('confirmation_dropped_at', { useTz: true }).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('demo_requests', (table) => {
    table.dropColumn('confirmation_dropped_at');
  });
}
