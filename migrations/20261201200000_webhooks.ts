import type { Knex } from 'knex';

/**
 * Webhooks (Standard Webhooks): the endpoints operators configure, one event per change of a booking (its id is the
 * `webhook-id` every try sends), one delivery per endpoint and event (the outbox row the worker claims with a lease,
 * as it claims an e-mail's), and the log of every try. `book` returns the new booking's deliveries under a new
 * signature: the old one is dropped here, and the functions files (db/functions/) make the new one after the
 * migrations, with webhook_raise (db/functions/webhooks.sql) that the booking's changes call.
 */
const OLD_BOOK =
  'book(uuid, text, text, text, text, text, text, text, timestamptz, jsonb, integer, integer, integer, integer, jsonb, jsonb, text, text, text, text)';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`DROP FUNCTION IF EXISTS ${OLD_BOOK}`);
  await knex.schema.createTable('webhook_endpoints', (table) => {
    table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    table.text('url').notNullable();
    // The signing key as the specification writes it (whsec_ and base64): the worker signs with it.
    table.text('secret').notNullable();
    table.text('description').nullable();
    // The one endpoint of WEBHOOK_URL; the API writes it at start (and marks it removed once the setting goes).
    table.boolean('from_environment').notNullable().defaultTo(false);
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('removed_at', { useTz: true }).nullable();
    // A delivery that failed for its whole retry window: the endpoint's events wait until a replay.
    table.timestamp('failing_since', { useTz: true }).nullable();
    table.text('failing_reason').nullable();
    // The receiver answered 410 Gone: nothing more goes to it.
    table.timestamp('stopped_at', { useTz: true }).nullable();
  });
  await knex.raw(
    'CREATE UNIQUE INDEX webhook_endpoints_one_from_environment ON webhook_endpoints (from_environment) WHERE from_environment',
  );
  await knex.schema.createTable('webhook_events', (table) => {
    table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    // The order of the events: a booking's events are delivered to each endpoint in this order.
    table.bigIncrements('position', { primaryKey: false });
    table.uuid('booking_id').notNullable().references('bookings.id').onDelete('CASCADE');
    table.text('type').notNullable();
    // The body every try sends, built at the change from the booking as it then stood.
    table.jsonb('payload').notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.index(['created_at']);
    table.index(['booking_id', 'position']);
  });
  await knex.schema.createTable('webhook_deliveries', (table) => {
    table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    table.uuid('event_id').notNullable().references('webhook_events.id').onDelete('CASCADE');
    table.uuid('endpoint_id').notNullable().references('webhook_endpoints.id').onDelete('CASCADE');
    // Copies of the event's, for the order's question (an earlier event of this booking to this endpoint undelivered).
    table.uuid('booking_id').notNullable();
    table.bigInteger('position').notNullable();
    table.integer('attempts').notNullable().defaultTo(0);
    // When the next try is due (to the millisecond: the job that makes it carries it).
    table
      .timestamp('next_attempt_at', { useTz: true })
      .notNullable()
      .defaultTo(knex.raw("date_trunc('milliseconds', now())"));
    // When the current run of failed tries began (the retry window counts from it); a replay starts a new run.
    table.timestamp('failing_since', { useTz: true }).nullable();
    table.timestamp('claimed_until', { useTz: true }).nullable();
    table.timestamp('delivered_at', { useTz: true }).nullable();
    // Tried for the whole retry window: it waits (and its endpoint is failing) until a replay.
    table.timestamp('exhausted_at', { useTz: true }).nullable();
    table.integer('last_status').nullable();
    table.text('last_error').nullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.unique(['event_id', 'endpoint_id']);
    table.index(['endpoint_id', 'booking_id', 'position']);
  });
  await knex.raw(
    'CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (next_attempt_at) WHERE delivered_at IS NULL AND exhausted_at IS NULL',
  );
  await knex.schema.createTable('webhook_attempts', (table) => {
    table.bigIncrements('id');
    table.uuid('delivery_id').notNullable().references('webhook_deliveries.id').onDelete('CASCADE');
    table.timestamp('attempted_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // The receiver's status; null when no answer came (refused address, timeout, connection error).
    table.integer('status').nullable();
    table.integer('duration_ms').notNullable();
    // The first bytes of the answer's body, as text.
    table.text('response_excerpt').nullable();
    table.text('error').nullable();
    table.index(['delivery_id', 'attempted_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP FUNCTION IF EXISTS webhook_raise(uuid, text, timestamptz)');
  await knex.schema.dropTable('webhook_attempts');
  await knex.schema.dropTable('webhook_deliveries');
  await knex.schema.dropTable('webhook_events');
  await knex.schema.dropTable('webhook_endpoints');
}
