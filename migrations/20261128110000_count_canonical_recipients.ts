import { domainToASCII } from 'node:url';
import type { Knex } from 'knex';
import { up as restoreOwnBookingsFirstVersion } from './20261127100000_book_demo_own_bookings_first.js';

/**
 * The ceilings count recipients, not spellings, and e-mails, not bookings.
 *
 * Each booking stores its recipient in one canonical form (the API's canonicalRecipient in
 * server-shared/email-rules.ts): the domain in ASCII (punycode) and lower case, the local part in lower case
 * without a `+tag`, so `Victim+1@Dùp-Test.com` and `victim@xn--dp-test-y1a.com` are one recipient. The per-address
 * and per-domain ceilings and "one person holds a slot once" read these columns through their own indexes instead
 * of lowering the typed address on every check; existing rows are filled in here.
 *
 * recipient_email_ceiling() counts the e-mails that went or will go to one recipient in the last 24 hours, each from
 * when it was stored: the confirmation of every booking made, and every update, cancellation and reminder stored for
 * their bookings, except those dropped unsent (a reminder whose slot moved or was cancelled, a confirmation or update
 * that a later change made untrue). The sales desk's
 * notices go to the desk and are not counted. book_demo refuses a booking whose e-mails (its confirmation and its
 * reminder, when one will go) would pass the ceiling; the API asks the same of a move or a cancellation.
 */

/**
 * The canonical form as this migration fills it in, kept here rather than imported so that the migration stays what
 * it was when it ran; the API's canonicalRecipient writes the same for every new booking.
 */
function canonicalRecipientOf(email: string): { recipient: string; recipient_domain: string } {
  const trimmed = email.trim();
  const at = trimmed.lastIndexOf('@');
  const local = trimmed.slice(0, at).toLowerCase();
  const plus = local.indexOf('+');
  const mailbox = plus > 0 ? local.slice(0, plus) : local;
  const typedDomain = trimmed.slice(at + 1);
  const domain = (domainToASCII(typedDomain) || typedDomain).toLowerCase();
  return { recipient: `${mailbox}@${domain}`, recipient_domain: domain };
}

const BACKFILL_BATCH = 1000;

async function fillInRecipients(knex: Knex): Promise<void> {
  for (;;) {
    const rows: { email: string }[] = await knex('demo_requests')
      .distinct('email')
      .whereNull('recipient')
      .limit(BACKFILL_BATCH);
    if (rows.length === 0) return;
    const recipients = rows.map((row) => ({ email: row.email, ...canonicalRecipientOf(row.email) }));
    await knex.raw(
      `UPDATE demo_requests d SET recipient = r.recipient, recipient_domain = r.recipient_domain
         FROM jsonb_to_recordset(?::jsonb) AS r(email text, recipient text, recipient_domain text)
        WHERE d.email = r.email AND d.recipient IS NULL`,
      [JSON.stringify(recipients)],
    );
  }
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('demo_requests', (table) => {
    // Written by book_demo with every booking; null only for a row stored some other way (a test's fixture).
    table.text('recipient').nullable();
    table.text('recipient_domain').nullable();
  });
  await fillInRecipients(knex);
  await knex.raw('CREATE INDEX demo_requests_canonical_recipient_idx ON demo_requests (recipient, created_at)');
  await knex.raw(
    'CREATE INDEX demo_requests_canonical_recipient_domain_idx ON demo_requests (recipient_domain, created_at)',
  );
  // Nothing reads the typed address in lower case any more.
  await knex.raw('DROP INDEX demo_requests_recipient_idx');
  await knex.raw('DROP INDEX demo_requests_recipient_domain_idx');

  await knex.raw(`
    CREATE FUNCTION recipient_email_ceiling(p_recipient text, p_adding integer, p_ceiling integer)
    RETURNS TABLE (counted integer, refused boolean, free_at timestamptz)
    LANGUAGE plpgsql STABLE AS $fn$
    DECLARE
      v_stored timestamptz[];
    BEGIN
      SELECT coalesce(array_agg(e.stored_at ORDER BY e.stored_at), '{}') INTO v_stored FROM (
        SELECT d.created_at AS stored_at FROM demo_requests d
          WHERE d.recipient = p_recipient AND d.confirmation_dropped_at IS NULL AND d.created_at > now() - interval '24 hours'
        UNION ALL
        SELECT b.created_at FROM demo_requests d JOIN booking_emails b ON b.demo_request_id = d.id
          WHERE d.recipient = p_recipient AND b.kind <> 'sales-notice' AND b.dropped_at IS NULL
            AND b.created_at > now() - interval '24 hours'
      ) AS e;
      counted := cardinality(v_stored);
      refused := counted + p_adding > p_ceiling;
      -- Room for p_adding more once the oldest e-mails beyond the ceiling are a day old (null: never, the
      -- e-mails asked for alone pass it).
      free_at := CASE WHEN refused THEN v_stored[counted + p_adding - p_ceiling] + interval '24 hours' END;
      RETURN NEXT;
    END;
    $fn$
  `);

  // A new parameter list makes a new function: the previous one goes, so that only this one can be called.
  await knex.raw(
    'DROP FUNCTION book_demo(uuid, text, text, text, text, text, timestamptz, jsonb, text, text, integer, integer, integer, jsonb, text, text, text)',
  );
  await knex.raw(`
    CREATE FUNCTION book_demo(
      p_id uuid,
      p_name text,
      p_email text,
      p_recipient text,
      p_recipient_domain text,
      p_company text,
      p_phone text,
      p_message text,
      p_time_slot timestamptz,
      p_attribution jsonb,
      p_slot_key text,
      p_per_email integer,
      p_per_domain integer,
      p_emails_per_recipient integer,
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
      v_mailed record;
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

      PERFORM pg_advisory_xact_lock(hashtextextended('recipient-domain:' || p_recipient_domain, 0));
      PERFORM pg_advisory_xact_lock(hashtextextended('slot:' || p_slot_key, 0));

      IF p_per_email > 0 THEN
        SELECT count(*)::int, min(d.created_at) INTO v_by_email, v_oldest_by_email FROM demo_requests d
          WHERE d.recipient = p_recipient AND d.created_at > now() - interval '24 hours';
        IF v_by_email >= p_per_email THEN
          RAISE EXCEPTION USING MESSAGE = 'booking refused', DETAIL = json_build_object(
            'reason', 'email-ceiling', 'count', v_by_email,
            'oldest', extract(epoch FROM v_oldest_by_email) * 1000, 'now', extract(epoch FROM now()) * 1000)::text;
        END IF;
      END IF;
      IF p_per_domain > 0 THEN
        SELECT count(*)::int, min(d.created_at) INTO v_by_domain, v_oldest_by_domain FROM demo_requests d
          WHERE d.recipient_domain = p_recipient_domain AND d.created_at > now() - interval '24 hours';
        IF v_by_domain >= p_per_domain THEN
          RAISE EXCEPTION USING MESSAGE = 'booking refused', DETAIL = json_build_object(
            'reason', 'domain-ceiling', 'count', v_by_domain,
            'oldest', extract(epoch FROM v_oldest_by_domain) * 1000, 'now', extract(epoch FROM now()) * 1000)::text;
        END IF;
      END IF;
      IF p_emails_per_recipient > 0 THEN
        -- This booking's own e-mails to the prospect: its confirmation, and its reminder when one is stored.
        SELECT * INTO v_mailed FROM recipient_email_ceiling(p_recipient,
          1 + (SELECT count(*)::int FROM jsonb_to_recordset(p_follow_ups) AS f(kind text) WHERE f.kind <> 'sales-notice'),
          p_emails_per_recipient);
        IF v_mailed.refused THEN
          RAISE EXCEPTION USING MESSAGE = 'booking refused', DETAIL = json_build_object(
            'reason', 'recipient-emails', 'count', v_mailed.counted,
            'freeAt', extract(epoch FROM v_mailed.free_at) * 1000, 'now', extract(epoch FROM now()) * 1000)::text;
        END IF;
      END IF;
      -- The person's own bookings (a few, by the recipient index, whatever the table's statistics say), then the
      -- slot's holders up to its capacity.
      WITH theirs AS MATERIALIZED (SELECT d.time_slot, d.status FROM demo_requests d WHERE d.recipient = p_recipient)
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
      INSERT INTO demo_requests (id, name, email, recipient, recipient_domain, company, phone, message, time_slot, attribution)
        VALUES (p_id, p_name, p_email, p_recipient, p_recipient_domain, p_company, p_phone, p_message, p_time_slot, p_attribution)
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
  await knex.raw(
    'DROP FUNCTION book_demo(uuid, text, text, text, text, text, text, text, timestamptz, jsonb, text, integer, integer, integer, integer, jsonb, text, text, text)',
  );
  await knex.raw('DROP FUNCTION recipient_email_ceiling(text, integer, integer)');
  await restoreOwnBookingsFirstVersion(knex);
  await knex.raw('CREATE INDEX demo_requests_recipient_idx ON demo_requests (lower(email), created_at)');
  await knex.raw(
    "CREATE INDEX demo_requests_recipient_domain_idx ON demo_requests (lower(substring(email from '[^@]*$')), created_at)",
  );
  await knex.raw('DROP INDEX demo_requests_canonical_recipient_domain_idx');
  await knex.raw('DROP INDEX demo_requests_canonical_recipient_idx');
  await knex.schema.alterTable('demo_requests', (table) => {
    table.dropColumn('recipient_domain');
    table.dropColumn('recipient');
  });
}
