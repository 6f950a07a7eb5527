import type { Knex } from 'knex';

/**
 * A booking keeps the answers its prospect gave to the team file's questions, and how its host was chosen (the
 * route, the account's owner, each candidate and what became of them: RoutingRecord in domain/routing.ts), for
 * sales ("Why Dana?"), the admin API and the webhooks. Both null for a booking made without a team.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('bookings', (table) => {
    table.jsonb('answers').nullable();
    table.jsonb('routing').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('bookings', (table) => {
    table.dropColumn('answers');
    table.dropColumn('routing');
  });
}
