import type { Knex } from 'knex';

/** When the SMTP server refused a confirmation for good (a 5xx reply such as "no such mailbox"): no more tries. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('demo_requests', (table) => {
    table.timestamp('confirmation_failed_at', { useTz: true }).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('demo_requests', (table) => {
    table.dropColumn('confirmation_failed_at');
  });
}
