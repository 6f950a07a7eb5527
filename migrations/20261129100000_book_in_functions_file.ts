import type { Knex } from 'knex';

/**
 * From here on, the booking's SQL functions live in one file, db/functions/bookings.sql, which the migration step
 * applies after the migrations with CREATE OR REPLACE (migrateSchema in api/db.ts): `book` there takes the place of
 * book_demo, whose last version (20261128110000) goes. Migrations stay what they were when they ran.
 */
const BOOK_DEMO_PARAMETERS =
  'uuid, text, text, text, text, text, text, text, timestamptz, jsonb, text, integer, integer, integer, integer, jsonb, text, text, text';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`DROP FUNCTION book_demo(${BOOK_DEMO_PARAMETERS})`);
}

/**
 * Puts book_demo back for the code before this migration, answering as it did, by way of the file's `book` (which a
 * rollback leaves in place); the migration before this one drops it when rolled back in turn.
 */
export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION book_demo(
      p_id uuid, p_name text, p_email text, p_recipient text, p_recipient_domain text, p_company text, p_phone text,
      p_message text, p_time_slot timestamptz, p_attribution jsonb, p_slot_key text, p_per_email integer,
      p_per_domain integer, p_emails_per_recipient integer, p_capacity integer, p_follow_ups jsonb, p_key text,
      p_hash text, p_invite_path text
    ) RETURNS TABLE (outcome text, created_at timestamptz, emails jsonb, replay_status integer, replay_body jsonb)
    LANGUAGE plpgsql VOLATILE AS $fn$
    DECLARE
      r record;
    BEGIN
      SELECT * INTO r FROM book(p_id, p_name, p_email, p_recipient, p_recipient_domain, p_company, p_phone, p_message,
        p_time_slot, p_attribution, p_per_email, p_per_domain, p_emails_per_recipient, p_capacity, p_follow_ups, p_key,
        p_hash, p_invite_path);
      IF r.outcome = 'replayed' THEN
        RETURN QUERY SELECT 'replayed'::text, NULL::timestamptz, NULL::jsonb, r.replay_status, r.answer;
      ELSE
        RETURN QUERY SELECT 'stored'::text, (r.answer->>'createdAt')::timestamptz, r.emails, NULL::integer, NULL::jsonb;
      END IF;
    END;
    $fn$
  `);
}
