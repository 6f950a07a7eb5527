import type { Knex } from 'knex';

/**
 * The booking path routes (issue 38): `book` keeps the prospect's answers and the routing record and prefers the
 * account's owner, the honeypot's look-alike and a move prefer the owner too, and the choice of host tells each
 * candidate's outcome; the funnel's daily counts keep the prospects the routes turned away ('disqualified'). New
 * signatures: the old ones are dropped here, and the functions file
 * (db/functions/bookings.sql) makes the new ones after the migrations.
 */
const OLD_FUNCTIONS = [
  'book(uuid, text, text, text, text, text, text, text, timestamptz, jsonb, text, integer, integer, integer, integer, jsonb, jsonb, text, text, text, text)',
  'book_trapped(uuid, text, text, text, text, timestamptz, integer, jsonb, text, text, text)',
  'booking_choose_host(timestamptz, jsonb, uuid, text, boolean)',
  'booking_slot_host(text, timestamptz, integer, jsonb, uuid, text, boolean)',
  'booking_move(uuid, timestamptz, timestamptz, integer, jsonb, integer, jsonb)',
];
const NEW_FUNCTIONS = [
  'book(uuid, text, text, text, text, text, text, text, timestamptz, jsonb, text, integer, integer, integer, integer, jsonb, jsonb, text, text, text, text, jsonb, jsonb, text)',
  'book_trapped(uuid, text, text, text, text, timestamptz, integer, jsonb, text, text, text, text)',
  'booking_choose_host(timestamptz, jsonb, uuid, text, boolean, text)',
  'booking_slot_host(text, timestamptz, integer, jsonb, uuid, text, boolean, text)',
  'booking_move(uuid, timestamptz, timestamptz, integer, jsonb, integer, jsonb, text, jsonb)',
  'booking_routing_record(jsonb, jsonb)',
];

const stepsCheck = (steps: string[]) =>
  `ALTER TABLE funnel_daily_counts ADD CONSTRAINT funnel_daily_counts_step_known CHECK (step IN (${steps.map((step) => `'${step}'`).join(', ')}))`;
const BEACON_STEPS = ['dialogOpened', 'emailAccepted', 'slotChosen', 'booked'];

export async function up(knex: Knex): Promise<void> {
  for (const fn of OLD_FUNCTIONS) await knex.raw(`DROP FUNCTION IF EXISTS ${fn}`);
  await knex.raw('ALTER TABLE funnel_daily_counts DROP CONSTRAINT funnel_daily_counts_step_known');
  await knex.raw(stepsCheck([...BEACON_STEPS, 'disqualified']));
}

export async function down(knex: Knex): Promise<void> {
  // The functions file of before makes the old signatures again when it is applied.
  for (const fn of NEW_FUNCTIONS) await knex.raw(`DROP FUNCTION IF EXISTS ${fn}`);
  await knex('funnel_daily_counts').where({ step: 'disqualified' }).del();
  await knex.raw('ALTER TABLE funnel_daily_counts DROP CONSTRAINT funnel_daily_counts_step_known');
  await knex.raw(stepsCheck(BEACON_STEPS));
}
