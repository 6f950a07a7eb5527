import type { Knex } from 'knex';

/**
 * booking_change_store takes a change's extra event data (a reassignment's previous host), so that a handover and a
 * host's withdrawal store their change through it: its old signature is dropped here and db/functions/ makes the new
 * one.
 */
const OLD_CHANGE_STORE = 'booking_change_store(uuid, text, timestamptz, text, jsonb, integer)';
const NEW_FUNCTIONS = ['booking_change_store(uuid, text, timestamptz, text, jsonb, integer, jsonb)'];

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`DROP FUNCTION IF EXISTS ${OLD_CHANGE_STORE}`);
}

export async function down(knex: Knex): Promise<void> {
  // The functions file of before makes the old signature again when it is applied.
  for (const fn of NEW_FUNCTIONS) await knex.raw(`DROP FUNCTION IF EXISTS ${fn}`);
}
