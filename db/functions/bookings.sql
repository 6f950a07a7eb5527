-- A new booking and the honeypot's look-alike, each one statement (applied after the migrations; the rules they ask
-- are booking-rules.sql's, the rows they store booking-deliveries.sql's).

-- A new booking, in one statement: the idempotency key, the locks, the 24-hour ceilings (bookings per recipient and
-- per domain, e-mails per recipient), the slot, then the row, its e-mails in the outbox (p_emails: the confirmation,
-- the reminder, the sales desk's notice), its webhook event with a delivery per endpoint (webhook_raise,
-- db/functions/webhooks.sql) and the answer kept for the key, all or nothing. A refusal is raised as 'booking refused' with its reason as JSON.
-- With a team, the prospect's answers (p_answers) are kept, and the routing record (p_routing, completed with the
-- database's outcome for each host it chose among: booking_routing_record); p_owner, the account's owner among
-- p_hosts, is chosen when free. p_sms, the texts' consent ({ phone: E.164, text: the words ticked, linkDigest: the
-- digest of the texts' short link code }), is kept with the time of the booking; null: none given.
CREATE OR REPLACE FUNCTION book(
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
  p_visitor_time_zone text,
  p_per_email integer,
  p_per_domain integer,
  p_emails_per_recipient integer,
  p_capacity integer,
  p_emails jsonb,
  p_hosts jsonb,
  p_meeting_url text,
  p_key text,
  p_hash text,
  p_invite_path text,
  p_answers jsonb,
  p_routing jsonb,
  p_owner text,
  p_sms jsonb
) RETURNS TABLE (outcome text, answer jsonb, emails jsonb, webhooks jsonb, replay_status integer)
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  v_earlier record;
  v_by_email integer;
  v_oldest_by_email timestamptz;
  v_by_domain integer;
  v_oldest_by_domain timestamptz;
  v_mailed record;
  v_created timestamptz;
  v_answer jsonb;
  v_emails jsonb;
  v_host jsonb;
  v_webhooks jsonb;
BEGIN
  IF p_key IS NOT NULL THEN
    DELETE FROM idempotency_keys k WHERE k.key = p_key AND k.created_at < now() - idempotency_key_lifetime();
    INSERT INTO idempotency_keys (key, request_hash, status_code, response) VALUES (p_key, p_hash, 0, 'null'::jsonb)
      ON CONFLICT (key) DO NOTHING;
    IF NOT FOUND THEN
      SELECT k.request_hash, k.status_code, k.response INTO v_earlier FROM idempotency_keys k WHERE k.key = p_key;
      IF NOT FOUND THEN
        RAISE EXCEPTION 'idempotency key neither claimed nor found';
      END IF;
      IF v_earlier.request_hash <> p_hash THEN
        PERFORM booking_refuse(jsonb_build_object('reason', 'key-reused'));
      END IF;
      RETURN QUERY SELECT 'replayed'::text, v_earlier.response, NULL::jsonb, NULL::jsonb, v_earlier.status_code;
      RETURN;
    END IF;
  END IF;

  PERFORM booking_lock_recipient_domain(p_recipient_domain);
  PERFORM booking_lock_slot(p_time_slot);
  IF p_hosts IS NOT NULL THEN
    PERFORM booking_lock_hosts(p_hosts);
  END IF;

  IF p_per_email > 0 THEN
    SELECT count(*)::int, min(d.created_at) INTO v_by_email, v_oldest_by_email FROM bookings d
      WHERE d.recipient = p_recipient AND d.created_at > now() - booking_ceiling_window();
    IF v_by_email >= p_per_email THEN
      PERFORM booking_refuse(jsonb_build_object(
        'reason', 'email-ceiling', 'count', v_by_email,
        'freeAt', extract(epoch FROM v_oldest_by_email + booking_ceiling_window()) * 1000,
        'now', extract(epoch FROM now()) * 1000));
    END IF;
  END IF;
  IF p_per_domain > 0 THEN
    SELECT count(*)::int, min(d.created_at) INTO v_by_domain, v_oldest_by_domain FROM bookings d
      WHERE d.recipient_domain = p_recipient_domain AND d.created_at > now() - booking_ceiling_window();
    IF v_by_domain >= p_per_domain THEN
      PERFORM booking_refuse(jsonb_build_object(
        'reason', 'domain-ceiling', 'count', v_by_domain,
        'freeAt', extract(epoch FROM v_oldest_by_domain + booking_ceiling_window()) * 1000,
        'now', extract(epoch FROM now()) * 1000));
    END IF;
  END IF;
  IF p_emails_per_recipient > 0 THEN
    -- This booking's own e-mails to the prospect (those with no recipient of their own, nor to its host).
    SELECT * INTO v_mailed FROM recipient_email_ceiling(p_recipient,
      (SELECT count(*)::int FROM jsonb_to_recordset(p_emails) AS f(channel text, recipient text, to_host boolean, to_previous_host boolean)
        WHERE f.channel = 'email' AND f.recipient IS NULL AND NOT coalesce(f.to_host, false) AND NOT coalesce(f.to_previous_host, false)),
      p_emails_per_recipient);
    IF v_mailed.refused THEN
      PERFORM booking_refuse(jsonb_build_object(
        'reason', 'recipient-emails', 'count', v_mailed.counted,
        'freeAt', extract(epoch FROM v_mailed.free_at) * 1000, 'now', extract(epoch FROM now()) * 1000));
    END IF;
  END IF;
  v_host := booking_slot_host(p_recipient, p_time_slot, p_capacity, p_hosts, NULL, NULL, false, p_owner);

  -- The booking and its e-mails land together: the outbox holds them before any queue hears of them.
  INSERT INTO bookings (id, name, email, recipient, recipient_domain, company, phone, message, time_slot, attribution,
      visitor_time_zone, meeting_url, host_email, host_name, host_title, host_choice, answers, routing,
      sms_phone, sms_consent_text, sms_consent_at)
    VALUES (p_id, p_name, p_email, p_recipient, p_recipient_domain, p_company, p_phone, p_message, p_time_slot, p_attribution,
      p_visitor_time_zone, p_meeting_url, v_host->>'email', v_host->>'name', v_host->>'title', v_host->'why', p_answers,
      booking_routing_record(p_routing, v_host->'outcomes'),
      p_sms->>'phone', p_sms->>'text', CASE WHEN p_sms IS NOT NULL THEN now() END)
    RETURNING bookings.created_at INTO v_created;
  -- The texts' short link, known by its digest: every booking with a consented number has one from the start.
  IF p_sms IS NOT NULL THEN
    INSERT INTO sms_links (digest, booking_id) VALUES (p_sms->>'linkDigest', p_id);
  END IF;
  v_emails := booking_store_deliveries(p_id, p_time_slot, 0, NULL, v_host->>'email', NULL, p_emails);
  -- Its webhook event (db/functions/webhooks.sql), in the same transaction as the booking and its e-mails.
  v_webhooks := webhook_raise(p_id, 'booking.created');

  v_answer := booking_answer(p_id, v_created, p_time_slot, p_invite_path, p_meeting_url, v_host);
  IF p_key IS NOT NULL THEN
    UPDATE idempotency_keys k SET status_code = 201, response = v_answer WHERE k.key = p_key;
  END IF;
  RETURN QUERY SELECT 'stored'::text, v_answer, v_emails, v_webhooks, 201;
END;
$fn$;

-- A request the honeypot caught (api/bookings/honeypot.ts), in one statement: answered as `book` would answer it
-- on the slot's capacity, the person's own bookings and, with a team, the choice of host, counting the bookings and
-- the trap's own catches (so a second catch of a full slot is refused as a second booking is), then stored in
-- trapped_bookings, never in bookings: it takes no real place, and no booking ever counts it. Its locks are the
-- trap's own, of the slot and then of the hosts in the addresses' order, so that two catches never both take a last
-- place while a bot never waits on a booking nor a booking on a bot. No ceilings, e-mails nor idempotency key: a
-- refusal is raised as `book` raises it. With routing, p_hosts are the route's and p_owner the account's owner, as
-- `book` is given them; neither answers nor routing record are kept.
CREATE OR REPLACE FUNCTION book_trapped(
  p_id uuid,
  p_name text,
  p_email text,
  p_recipient text,
  p_company text,
  p_time_slot timestamptz,
  p_capacity integer,
  p_hosts jsonb,
  p_meeting_url text,
  p_invite_path text,
  p_client_network text,
  p_owner text
) RETURNS jsonb LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  v_host jsonb;
  v_created timestamptz;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('trapped-slot:' || extract(epoch FROM p_time_slot)::text, 0));
  IF p_hosts IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock(hashtextextended('trapped-host:' || h.email, 0))
      FROM (SELECT DISTINCT f.email FROM jsonb_to_recordset(p_hosts) AS f(email text) ORDER BY f.email) AS h;
  END IF;
  v_host := booking_slot_host(p_recipient, p_time_slot, p_capacity, p_hosts, NULL, NULL, true, p_owner);
  INSERT INTO trapped_bookings (id, name, email, recipient, company, time_slot, meeting_url, host_email, host_name, host_title, client_network)
    VALUES (p_id, p_name, p_email, p_recipient, p_company, p_time_slot, p_meeting_url, v_host->>'email', v_host->>'name', v_host->>'title',
      p_client_network)
    RETURNING trapped_bookings.created_at INTO v_created;
  RETURN booking_answer(p_id, v_created, p_time_slot, p_invite_path, p_meeting_url, v_host);
END;
$fn$;
