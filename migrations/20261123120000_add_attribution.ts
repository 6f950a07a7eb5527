import type { Knex } from 'knex';

/** Where the visit that booked came from (UTM parameters and referrer), as the page sent it; null when it sent none. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('demo_requests', (table) => {
    table.jsonb('attribution').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('demo_requests', (table) => {
    table.dropColumn('attribution');
  });
}
