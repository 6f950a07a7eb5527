import type { Knex } from 'knex';

/**
 * The texts' limits and outcomes (issue 40): a text a booking's change would have sent but a limit held back (the
 * number's texts of a day, the booking's own, or a number another prospect's booking was texted at first that day) is
 * kept in sms_withheld with why, for sales and operations to see; booking_change_store takes a change's extra event
 * data (a reassignment's previous host), so its old signature is dropped here and db/functions/ makes the new one.
 * The texts to a number are indexed by it, as the limits count them under the number's lock.
 */
const OLD_CHANGE_STORE = 'booking_change_store(uuid, text, timestamptz, text, jsonb, integer)';
const NEW_FUNCTIONS = [
  'booking_change_store(uuid, text, timestamptz, text, jsonb, integer, jsonb)',
  'sms_text_limits(uuid, text)',
  'sms_outcome_event(text)',
  'sms_text_event(uuid, text)',
  'sms_receipt_record(text, text)',
  'sms_text_refused(uuid)',
];

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`DROP FUNCTION IF EXISTS ${OLD_CHANGE_STORE}`);
  // No number here: the booking names it, and retention takes it from there.
  await knex.schema.createTable('sms_withheld', (table) => {
    table.bigIncrements('id');
    table.uuid('booking_id').notNullable().references('bookings.id').onDelete('CASCADE');
    table.text('kind').notNullable();
    table.text('reason').notNullable();
    table.timestamp('at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.index(['booking_id']);
  });
  // The texts to one number of the last 24 hours, which every change texting it counts (sms_text_limits): found
  // among the texts alone, not the whole outbox.
  await knex.raw("CREATE INDEX deliveries_sms_recipient ON deliveries (recipient, created_at) WHERE channel = 'sms'");
  await knex.raw(
    "ALTER TABLE sms_withheld ADD CONSTRAINT sms_withheld_reason CHECK (reason IN ('number-per-day', 'booking-limit', 'number-of-another-prospect'))",
  );
}

export async function down(knex: Knex): Promise<void> {
  // The functions file of before makes the old signature again when it is applied.
  for (const fn of NEW_FUNCTIONS) await knex.raw(`DROP FUNCTION IF EXISTS ${fn}`);
  await knex.schema.dropTable('sms_withheld');
  await knex.raw('DROP INDEX deliveries_sms_recipient');
}
