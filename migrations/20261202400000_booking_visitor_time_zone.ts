import type { Knex } from 'knex';

/**
 * A booking keeps the visitor's own time zone when the page sent it (the browser's IANA zone), so that the
 * prospect's e-mails show the slot in it beside the booking zone. `book` takes it under a new signature: the old one
 * is dropped here, and the functions file (db/functions/bookings.sql) makes the new one after the migrations.
 */
const OLD_BOOK =
  'book(uuid, text, text, text, text, text, text, text, timestamptz, jsonb, integer, integer, integer, integer, jsonb, jsonb, text, text, text, text)';
const NEW_BOOK =
  'book(uuid, text, text, text, text, text, text, text, timestamptz, jsonb, text, integer, integer, integer, integer, jsonb, jsonb, text, text, text, text)';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`DROP FUNCTION IF EXISTS ${OLD_BOOK}`);
  await knex.schema.alterTable('bookings', (table) => {
    table.text('visitor_time_zone').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DROP FUNCTION IF EXISTS ${NEW_BOOK}`);
  await knex.schema.alterTable('bookings', (table) => {
    table.dropColumn('visitor_time_zone');
  });
}
