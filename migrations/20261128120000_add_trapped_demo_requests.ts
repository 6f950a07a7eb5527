import type { Knex } from 'knex';

/**
 * Requests that filled the form's honeypot: kept only so that their invitation link and booking page answer as a
 * real booking's do (what those show: name, company, the address the event names, the slot). They take no slot and
 * nothing is sent; the API deletes each a week after its slot.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('trapped_demo_requests', (table) => {
    table.uuid('id').primary();
    table.text('name').notNullable();
    table.text('email').notNullable();
    table.text('company').notNullable();
    table.timestamp('time_slot', { useTz: true }).notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.index(['time_slot'], 'trapped_demo_requests_time_slot_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('trapped_demo_requests');
}
