import type { Knex } from 'knex';

/**
 * A worker claims a confirmation on its row until this time before it talks to the SMTP server, and marks it sent
 * right after the server accepts: no row lock is held during the send, and a claim whose worker died runs out.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('demo_requests', (table) => {
    table.timestamp('confirmation_claimed_until', { useTz: true }).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('demo_requests', (table) => {
    table.dropColumn('confirmation_claimed_until');
  });
}
