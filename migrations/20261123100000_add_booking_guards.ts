import type { Knex } from 'knex';

/**
 * What the booking guards read: the first answer to each Idempotency-Key, and indexes for counting bookings per
 * slot, per recipient and per recipient domain (all inside the booking's transaction).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('idempotency_keys', (table) => {
    table.text('key').primary();
    // sha256 of the request as validated: the same key with another body is refused.
    table.text('request_hash').notNullable();
    table.integer('status_code').notNullable();
    table.jsonb('response').notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.index(['created_at'], 'idempotency_keys_created_at_idx');
  });
  await knex.raw('CREATE INDEX demo_requests_time_slot_idx ON demo_requests (time_slot)');
  await knex.raw('CREATE INDEX demo_requests_recipient_idx ON demo_requests (lower(email), created_at)');
  await knex.raw(
    "CREATE INDEX demo_requests_recipient_domain_idx ON demo_requests (lower(substring(email from '[^@]*$')), created_at)",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX demo_requests_recipient_domain_idx');
  await knex.raw('DROP INDEX demo_requests_recipient_idx');
  await knex.raw('DROP INDEX demo_requests_time_slot_idx');
  await knex.schema.dropTable('idempotency_keys');
}
