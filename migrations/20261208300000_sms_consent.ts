import type { Knex } from 'knex';

/**
 * The texts' consent (issue 40): a booking whose prospect ticked "Text me a confirmation and a reminder" keeps the
 * number it may text (E.164), the words the prospect consented to and when. `book` takes the consent: its old
 * signature is dropped here, and the functions file (db/functions/bookings.sql) makes the new one after the migrations.
 */
const OLD_BOOK =
  'book(uuid, text, text, text, text, text, text, text, timestamptz, jsonb, text, integer, integer, integer, integer, jsonb, jsonb, text, text, text, text, jsonb, jsonb, text)';
const NEW_BOOK =
  'book(uuid, text, text, text, text, text, text, text, timestamptz, jsonb, text, integer, integer, integer, integer, jsonb, jsonb, text, text, text, text, jsonb, jsonb, text, jsonb)';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`DROP FUNCTION IF EXISTS ${OLD_BOOK}`);
  await knex.schema.alterTable('bookings', (table) => {
    table.text('sms_phone').nullable();
    table.text('sms_consent_text').nullable();
    table.timestamp('sms_consent_at', { useTz: true }).nullable();
  });
  await knex.raw(
    'ALTER TABLE bookings ADD CONSTRAINT bookings_sms_consent CHECK ((sms_phone IS NULL) = (sms_consent_at IS NULL) AND (sms_phone IS NULL) = (sms_consent_text IS NULL))',
  );
}

export async function down(knex: Knex): Promise<void> {
  // The functions file of before makes the old signature again when it is applied.
  await knex.raw(`DROP FUNCTION IF EXISTS ${NEW_BOOK}`);
  await knex.raw('ALTER TABLE bookings DROP CONSTRAINT bookings_sms_consent');
  await knex.schema.alterTable('bookings', (table) => {
    table.dropColumn('sms_phone');
    table.dropColumn('sms_consent_text');
    table.dropColumn('sms_consent_at');
  });
}
