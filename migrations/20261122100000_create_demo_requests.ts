import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('demo_requests', (table) => {
    table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    table.text('name').notNullable();
    table.text('email').notNullable();
    table.text('company').notNullable();
    table.text('phone').nullable();
    table.text('message').nullable();
    table.timestamp('time_slot', { useTz: true }).notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // The outbox: a row is stored with its confirmation pending, and the worker records each try.
    table.timestamp('confirmation_sent_at', { useTz: true }).nullable();
    table.integer('confirmation_attempts').notNullable().defaultTo(0);
    table.text('confirmation_last_error').nullable();
  });
  // The sweep reads only pending rows, oldest first.
  await knex.raw(
    'CREATE INDEX demo_requests_pending_confirmation_idx ON demo_requests (created_at) WHERE confirmation_sent_at IS NULL',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('demo_requests');
}
