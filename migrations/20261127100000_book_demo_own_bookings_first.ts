import type { Knex } from 'knex';
import { up as restoreBoundedVersion } from './20261126100000_bound_book_demo_checks.js';

/**
 * book_demo looks up the person's own hold on the slot among their own bookings, as the previous version meant to:
 * there, the planner was free to answer the EXISTS from the slot's index instead (the time_slot index also matches
 * it), and it did whenever the table had no statistics yet (a new database, or a server whose autovacuum has not
 * analysed it), reading every holder of the slot and lowering each address, so a booking cost more the fuller its
 * slot. Read first into a materialised set, the person's bookings can only come from the recipient index. The
 * answers, the locks and their order are unchanged.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE OR REPLACE FUNCTION book_demo(
      p_id uuid,
      p_name text,
      p_email text,
      p_company text,
      p_phone text,
      p_message text,
      p_time_slot timestamptz,
      p_attribution jsonb,
      p_domain text,
      p_slot_key text,
      p_per_email integer,
      p_per_domain integer,
      p_capacity integer,
      p_follow_ups jsonb,
      p_key text,
      p_hash text,
      p_invite_path text
    ) RETURNS TABLE (outcome text, created_at timestamptz, emails jsonb, replay_status integer, replay_body jsonb)
    LANGUAGE plpgsql VOLATILE AS $fn$
    DECLARE
      v_earlier record;
      v_by_email integer;
      v_oldest_by_email timestamptz;
      v_by_domain integer;
      v_oldest_by_domain timestamptz;
      v_in_slot integer;
      v_mine boolean;
      v_created timestamptz;
      v_emails jsonb;
    BEGIN
      IF p_key IS NOT NULL THEN
        DELETE FROM idempotency_keys k WHERE k.key = p_key AND k.created_at < now() - interval '24 hours';
        INSERT INTO idempotency_keys (key, request_hash, status_code, response) VALUES (p_key, p_hash, 0, 'null'::jsonb)
          ON CONFLICT (key) DO NOTHING;
        IF NOT FOUND THEN
          SELECT k.request_hash, k.status_code, k.response INTO v_earlier FROM idempotency_keys k WHERE k.key = p_key;
          IF NOT FOUND THEN
            RAISE EXCEPTION 'idempotency key neither claimed nor found';
          END IF;
          IF v_earlier.request_hash <> p_hash THEN
            RAISE EXCEPTION USING MESSAGE = 'booking refused', DETAIL = json_build_object('reason', 'key-reused')::text;
          END IF;
          RETURN QUERY SELECT 'replayed'::text, NULL::timestamptz, NULL::jsonb, v_earlier.status_code, v_earlier.response;
          RETURN;
        END IF;
      END IF;

      PERFORM pg_advisory_xact_lock(hashtextextended('recipient-domain:' || p_domain, 0));
      PERFORM pg_advisory_xact_lock(hashtextextended('slot:' || p_slot_key, 0));

      IF p_per_email > 0 THEN
        SELECT count(*)::int, min(d.created_at) INTO v_by_email, v_oldest_by_email FROM demo_requests d
          WHERE lower(d.email) = lower(p_email) AND d.created_at > now() - interval '24 hours';
        IF v_by_email >= p_per_email THEN
          RAISE EXCEPTION USING MESSAGE = 'booking refused', DETAIL = json_build_object(
            'reason', 'email-ceiling', 'count', v_by_email,
            'oldest', extract(epoch FROM v_oldest_by_email) * 1000, 'now', extract(epoch FROM now()) * 1000)::text;
        END IF;
      END IF;
      IF p_per_domain > 0 THEN
        SELECT count(*)::int, min(d.created_at) INTO v_by_domain, v_oldest_by_domain FROM demo_requests d
          WHERE lower(substring(d.email from '[^@]*$')) = p_domain AND d.created_at > now() - interval '24 hours';
        IF v_by_domain >= p_per_domain THEN
          RAISE EXCEPTION USING MESSAGE = 'booking refused', DETAIL = json_build_object(
            'reason', 'domain-ceiling', 'count', v_by_domain,
            'oldest', extract(epoch FROM v_oldest_by_domain) * 1000, 'now', extract(epoch FROM now()) * 1000)::text;
        END IF;
      END IF;
      -- The person's own bookings (a few, by the recipient index, whatever the table's statistics say), then the
      -- slot's holders up to its capacity.
      WITH theirs AS MATERIALIZED (SELECT d.time_slot, d.status FROM demo_requests d WHERE lower(d.email) = lower(p_email))
      SELECT EXISTS (SELECT 1 FROM theirs WHERE theirs.time_slot = p_time_slot AND theirs.status = 'booked') INTO v_mine;
      IF v_mine THEN
        RAISE EXCEPTION USING MESSAGE = 'booking refused', DETAIL = json_build_object('reason', 'already-booked')::text;
      END IF;
      SELECT count(*)::int INTO v_in_slot FROM (
        SELECT 1 FROM demo_requests d WHERE d.time_slot = p_time_slot AND d.status = 'booked' LIMIT p_capacity
      ) AS holders;
      IF v_in_slot >= p_capacity THEN
        RAISE EXCEPTION USING MESSAGE = 'booking refused', DETAIL = json_build_object('reason', 'slot-taken')::text;
      END IF;

      -- The row carries its pending confirmation (confirmation_sent_at null): the outbox and the request land together.
      INSERT INTO demo_requests (id, name, email, company, phone, message, time_slot, attribution)
        VALUES (p_id, p_name, p_email, p_company, p_phone, p_message, p_time_slot, p_attribution)
        RETURNING demo_requests.created_at INTO v_created;
      WITH stored AS (
        INSERT INTO booking_emails (demo_request_id, kind, time_slot, sequence, recipient, change, due_at)
          SELECT p_id, f.kind, p_time_slot, 0, f.recipient, f.change, coalesce(f.due_at, now())
            FROM jsonb_to_recordset(p_follow_ups) AS f(kind text, recipient text, change text, due_at timestamptz)
          RETURNING booking_emails.id, booking_emails.kind
      )
      SELECT coalesce(jsonb_agg(jsonb_build_object('id', stored.id, 'kind', stored.kind)), '[]'::jsonb) INTO v_emails FROM stored;

      IF p_key IS NOT NULL THEN
        -- The answer as the API sends it (createdAnswer): instants to the millisecond, as JavaScript writes them.
        UPDATE idempotency_keys k SET status_code = 201, response = jsonb_build_object(
            'id', p_id,
            'createdAt', to_char(v_created AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
            'timeSlot', to_char(p_time_slot AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
            'invitePath', p_invite_path)
          WHERE k.key = p_key;
      END IF;
      RETURN QUERY SELECT 'stored'::text, v_created, v_emails, NULL::integer, NULL::jsonb;
    END;
    $fn$
  `);
}

export async function down(knex: Knex): Promise<void> {
  await restoreBoundedVersion(knex);
}
