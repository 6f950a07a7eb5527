import type { Knex } from 'knex';

/**
 * The texts (issue 40): a booking whose prospect ticked "Text me a confirmation and a reminder" keeps the number it
 * may text (E.164), the words the prospect consented to and when; a text's outbox row keeps the SMSC's message id and
 * what its delivery receipt said; a number that answered STOP is kept, and texted no more. `book` takes the consent, and the outbox's line functions a channel (the texts to
 * one phone): their old signatures are dropped here, and the functions files (db/functions/) make the new ones after
 * the migrations.
 */
const OLD_BOOK =
  'book(uuid, text, text, text, text, text, text, text, timestamptz, jsonb, text, integer, integer, integer, integer, jsonb, jsonb, text, text, text, text, jsonb, jsonb, text)';
const OLD_LINES = [
  'deliveries_settle_before(uuid, integer, text, text)',
  'deliveries_unsettled_before(uuid, bigint, text, text, uuid)',
];
const NEW_LINES = [
  'deliveries_settle_before(uuid, integer, text, text, text)',
  'deliveries_unsettled_before(uuid, bigint, text, text, uuid, text)',
  'sms_reminder_due(timestamptz, text)',
];
const NEW_BOOK =
  'book(uuid, text, text, text, text, text, text, text, timestamptz, jsonb, text, integer, integer, integer, integer, jsonb, jsonb, text, text, text, text, jsonb, jsonb, text, jsonb)';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`DROP FUNCTION IF EXISTS ${OLD_BOOK}`);
  for (const fn of OLD_LINES) await knex.raw(`DROP FUNCTION IF EXISTS ${fn}`);
  await knex.schema.alterTable('deliveries', (table) => {
    table.text('sms_message_id').nullable();
    table.text('sms_state').nullable();
    table.timestamp('sms_state_at', { useTz: true }).nullable();
  });
  // The numbers that answered STOP: no text goes to them again, whichever booking it is about.
  await knex.schema.createTable('sms_opt_outs', (table) => {
    table.text('phone').primary();
    table.timestamp('opted_out_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  // A receipt names the message by the SMSC's id alone.
  await knex.raw(
    'CREATE INDEX deliveries_sms_message_id ON deliveries (sms_message_id) WHERE sms_message_id IS NOT NULL',
  );
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
  for (const fn of NEW_LINES) await knex.raw(`DROP FUNCTION IF EXISTS ${fn}`);
  await knex.schema.dropTable('sms_opt_outs');
  await knex.schema.alterTable('deliveries', (table) => {
    table.dropIndex([], 'deliveries_sms_message_id');
    table.dropColumn('sms_message_id');
    table.dropColumn('sms_state');
    table.dropColumn('sms_state_at');
  });
  await knex.raw('ALTER TABLE bookings DROP CONSTRAINT bookings_sms_consent');
  await knex.schema.alterTable('bookings', (table) => {
    table.dropColumn('sms_phone');
    table.dropColumn('sms_consent_text');
    table.dropColumn('sms_consent_at');
  });
}
