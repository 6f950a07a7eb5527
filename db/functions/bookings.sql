-- The booking's rules as they run today: one file, applied after the migrations by the migration step
-- (migrateSchema in api/db.ts) with CREATE OR REPLACE, so a reader opens this file and not the newest of several
-- migrations. Booking, moving, cancelling and marking are each one statement here (book, booking_move,
-- booking_cancel, booking_mark), and the honeypot's look-alike too (book_trapped); the API calls them and queues the
-- jobs they return after the commit (docs/architecture.md, "The booking's rules").
--
-- The order every writer takes the locks in: a change's booking row first (two changes of one booking take turns),
-- then the recipient's domain (what the ceilings count), then the slot, then the hosts in their addresses' order.

-- Raises a refusal as every rule here raises it: 'booking refused', its reason and figures as JSON in the detail
-- (the API reads it with refusalOf, api/bookings/repository.ts, and answers it in api/bookings/refusals.ts).
CREATE OR REPLACE FUNCTION booking_refuse(p_detail jsonb)
RETURNS void LANGUAGE plpgsql VOLATILE AS $fn$
BEGIN
  RAISE EXCEPTION USING MESSAGE = 'booking refused', DETAIL = p_detail::text;
END;
$fn$;

-- How long an idempotency key keeps the first answer given to it (book, and the purge in api/idempotency.ts).
CREATE OR REPLACE FUNCTION idempotency_key_lifetime()
RETURNS interval LANGUAGE sql IMMUTABLE AS $fn$
  SELECT interval '24 hours'
$fn$;

-- The window the ceilings count in: bookings per address and per domain (book), e-mails per recipient
-- (recipient_email_ceiling). A refusal says when the window frees a place (freeAt), so the API's Retry-After needs
-- no window of its own.
CREATE OR REPLACE FUNCTION booking_ceiling_window()
RETURNS interval LANGUAGE sql IMMUTABLE AS $fn$
  SELECT interval '24 hours'
$fn$;

-- Whether a demo of p_time_slot has begun at p_now: a begun demo is changed no more through its link, and only a
-- begun one is marked attended or no-show. p_now is the API's clock, which the tests may hold.
CREATE OR REPLACE FUNCTION booking_started(p_time_slot timestamptz, p_now timestamptz)
RETURNS boolean LANGUAGE sql IMMUTABLE AS $fn$
  SELECT p_time_slot <= p_now
$fn$;

-- The 201 answer to a booking, the one place it is built: the API sends it, an Idempotency-Key keeps it, the
-- honeypot gives the same. Instants to the millisecond, as JavaScript writes them. The host ({ name, title }) only
-- with a team.
CREATE OR REPLACE FUNCTION booking_answer(p_id uuid, p_created_at timestamptz, p_time_slot timestamptz, p_invite_path text,
  p_meeting_url text, p_host jsonb)
RETURNS jsonb LANGUAGE sql IMMUTABLE AS $fn$
  SELECT jsonb_build_object(
    'id', p_id,
    'createdAt', to_char(p_created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'timeSlot', to_char(p_time_slot AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'invitePath', p_invite_path,
    'meetingUrl', p_meeting_url)
  || CASE WHEN p_host IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('host', jsonb_build_object('name', p_host->>'name', 'title', p_host->>'title')) END
$fn$;

-- Serialises, until the transaction ends, everything counted per recipient domain (the ceilings).
CREATE OR REPLACE FUNCTION booking_lock_recipient_domain(p_recipient_domain text)
RETURNS void LANGUAGE sql VOLATILE AS $fn$
  SELECT pg_advisory_xact_lock(hashtextextended('recipient-domain:' || p_recipient_domain, 0))
$fn$;

-- Serialises, until the transaction ends, the bookings of one slot, so two never both take its last place.
CREATE OR REPLACE FUNCTION booking_lock_slot(p_time_slot timestamptz)
RETURNS void LANGUAGE sql VOLATILE AS $fn$
  SELECT pg_advisory_xact_lock(hashtextextended('slot:' || extract(epoch FROM p_time_slot)::text, 0))
$fn$;

-- Why the recipient (canonical form) cannot have the slot, or null: they hold it already, or it is full. The
-- person's own bookings are read first (a few, by the recipient index, whatever the table's statistics say), then
-- the slot's holders, at most p_capacity of them. With a team, p_capacity is null: the hosts decide
-- (booking_choose_host). With p_trapped (the honeypot's question, book_trapped), the trap's own catches of the slot
-- count as bookings too; a booking's question never counts them.
CREATE OR REPLACE FUNCTION booking_slot_refusal(p_recipient text, p_time_slot timestamptz, p_capacity integer, p_trapped boolean DEFAULT false)
RETURNS text LANGUAGE plpgsql STABLE AS $fn$
DECLARE
  v_mine boolean;
  v_in_slot integer;
BEGIN
  WITH theirs AS MATERIALIZED (SELECT d.time_slot, d.status FROM bookings d WHERE d.recipient = p_recipient)
  SELECT EXISTS (SELECT 1 FROM theirs WHERE theirs.time_slot = p_time_slot AND theirs.status = 'booked') INTO v_mine;
  IF NOT v_mine AND p_trapped THEN
    SELECT EXISTS (SELECT 1 FROM trapped_bookings t WHERE t.time_slot = p_time_slot AND t.recipient = p_recipient) INTO v_mine;
  END IF;
  IF v_mine THEN
    RETURN 'already-booked';
  END IF;
  IF p_capacity IS NULL THEN
    RETURN NULL;
  END IF;
  SELECT count(*)::int INTO v_in_slot FROM (
    SELECT 1 FROM bookings d WHERE d.time_slot = p_time_slot AND d.status = 'booked' LIMIT p_capacity
  ) AS holders;
  IF p_trapped AND v_in_slot < p_capacity THEN
    v_in_slot := v_in_slot + (SELECT count(*)::int FROM (
      SELECT 1 FROM trapped_bookings t WHERE t.time_slot = p_time_slot LIMIT p_capacity - v_in_slot
    ) AS caught);
  END IF;
  IF v_in_slot >= p_capacity THEN
    RETURN 'slot-taken';
  END IF;
  RETURN NULL;
END;
$fn$;

-- Serialises, until the transaction ends, the bookings of each host in p_hosts (in one order, the addresses'),
-- so that two bookings of one host at different slots never both pass their daily limit.
CREATE OR REPLACE FUNCTION booking_lock_hosts(p_hosts jsonb)
RETURNS void LANGUAGE sql VOLATILE AS $fn$
  SELECT pg_advisory_xact_lock(hashtextextended('host:' || h.email, 0))
    FROM (SELECT DISTINCT f.email FROM jsonb_to_recordset(p_hosts) AS f(email text) ORDER BY f.email) AS h
$fn$;

-- The host for a booking of p_time_slot, or null when none is left. p_hosts are the hosts the API found inside their
-- working hours and free in their own calendars, read at booking time (with routing, only the route's hosts and the
-- account's owner), in the team file's order, each with their weight, daily limit and the bounds of their day. A
-- host is left out who holds another booking over the slot's span (busy) or has reached their daily limit; of the
-- rest, p_prefer (a moved booking's host) is kept when still free, else p_owner (the account's owner) when free,
-- else the one with the fewest demos whose slots lie within 28 days either side, divided by their weight (fairness
-- counted among p_hosts alone); ties go to the earlier in the file. p_booking, when moving, is the booking itself,
-- which does not count against its host. The answer records why: the host's demos, weight and score, how many hosts
-- could take the slot, and each host's outcome (chosen, busy, over-daily-limit, host-kept, owner-first,
-- fewer-demos-elsewhere: the routing record's words). Asked under the slot's and the hosts' locks; the exclusion constraint bookings_host_once_at_a_time
-- stands behind it. With p_trapped (the honeypot's question, book_trapped), the trap's own catches count as their
-- host's bookings too (each CASE reads them only then); a booking's question never counts them.
CREATE OR REPLACE FUNCTION booking_choose_host(p_time_slot timestamptz, p_hosts jsonb, p_booking uuid, p_prefer text,
  p_trapped boolean DEFAULT false, p_owner text DEFAULT NULL)
RETURNS jsonb LANGUAGE sql STABLE AS $fn$
  WITH hosts AS (
    SELECT h.email, h.name, h.title, h.weight, h.position,
      (SELECT count(*) FROM bookings b
        WHERE b.host_email = h.email AND b.status = 'booked' AND b.id IS DISTINCT FROM p_booking
          AND b.time_slot > p_time_slot - interval '28 days' AND b.time_slot < p_time_slot + interval '28 days')::int
      + CASE WHEN p_trapped THEN (SELECT count(*) FROM trapped_bookings t
          WHERE t.host_email = h.email
            AND t.time_slot > p_time_slot - interval '28 days' AND t.time_slot < p_time_slot + interval '28 days')::int
        ELSE 0 END AS demos,
      EXISTS (
        SELECT 1 FROM bookings b
          WHERE b.host_email = h.email AND b.status = 'booked' AND b.id IS DISTINCT FROM p_booking
            AND booking_span(b.time_slot) && booking_span(p_time_slot))
      -- A slot the host gave up by deleting or declining its event (booking_host_answer) is not theirs again.
      OR EXISTS (SELECT 1 FROM host_freed_slots f WHERE f.host_email = h.email AND f.time_slot = p_time_slot)
      OR CASE WHEN p_trapped THEN EXISTS (
        SELECT 1 FROM trapped_bookings t
          WHERE t.host_email = h.email
            -- The spans' overlap, as a range of starts the index can find.
            AND t.time_slot > p_time_slot - interval '60 minutes' AND t.time_slot < p_time_slot + interval '60 minutes'
            AND booking_span(t.time_slot) && booking_span(p_time_slot)) ELSE false END AS busy,
      h.daily_limit IS NOT NULL AND (
        SELECT count(*) FROM bookings b
          WHERE b.host_email = h.email AND b.status = 'booked' AND b.id IS DISTINCT FROM p_booking
            AND b.time_slot >= h.day_start AND b.time_slot < h.day_end)
        + CASE WHEN p_trapped THEN (SELECT count(*) FROM trapped_bookings t
            WHERE t.host_email = h.email AND t.time_slot >= h.day_start AND t.time_slot < h.day_end) ELSE 0 END
        >= h.daily_limit AS over_limit
    FROM jsonb_to_recordset(p_hosts) AS h(email text, name text, title text, weight numeric,
      daily_limit integer, day_start timestamptz, day_end timestamptz, position integer)
  ),
  candidates AS (SELECT * FROM hosts WHERE NOT hosts.busy AND NOT hosts.over_limit),
  chosen AS (
    SELECT c.* FROM candidates c
      ORDER BY c.email = p_prefer DESC NULLS LAST, c.email = p_owner DESC NULLS LAST, c.demos / c.weight, c.position
      LIMIT 1
  )
  SELECT jsonb_build_object('email', c.email, 'name', c.name, 'title', c.title,
      'why', jsonb_build_object(
        'rule', CASE WHEN c.email = p_prefer THEN 'kept: the booking''s host is free at the new time'
                     WHEN c.email = p_owner THEN 'the account''s owner, free at the slot'
                     ELSE 'fewest demos within 28 days of the slot, divided by weight; ties to the earlier in the team file' END,
        'demos', c.demos, 'weight', c.weight, 'score', round(c.demos / c.weight, 4),
        'freeHosts', (SELECT count(*) FROM candidates)),
      'outcomes', (SELECT jsonb_object_agg(h.email, CASE WHEN h.email = c.email THEN 'chosen' WHEN h.busy THEN 'busy'
          WHEN h.over_limit THEN 'over-daily-limit' WHEN c.email = p_prefer THEN 'host-kept'
          WHEN c.email = p_owner THEN 'owner-first' ELSE 'fewer-demos-elsewhere' END) FROM hosts h))
    FROM chosen c
$fn$;

-- A booking's routing record (RoutingRecord, domain/routing.ts) as stored: p_routing as the API wrote it (the route,
-- the owner, and the candidates in their order, with the outcome of those its calendars' reading passed over), each
-- candidate the database chose among given its outcome from p_outcomes (booking_choose_host's). Null without one.
CREATE OR REPLACE FUNCTION booking_routing_record(p_routing jsonb, p_outcomes jsonb)
RETURNS jsonb LANGUAGE sql IMMUTABLE AS $fn$
  SELECT p_routing || jsonb_build_object('candidates', coalesce((
      SELECT jsonb_agg(CASE WHEN coalesce(jsonb_typeof(c.value->'outcome'), 'null') = 'null'
          THEN c.value || jsonb_build_object('outcome', p_outcomes->(c.value->>'email')) ELSE c.value END
        ORDER BY c.ordinality)
      FROM jsonb_array_elements(p_routing->'candidates') WITH ORDINALITY AS c), '[]'::jsonb))
$fn$;

-- The slot's question every booking and move asks, under the slot's and the hosts' locks: refused (slot-taken) when
-- the slot is full or, with a team (p_hosts), no host is left, or (already-booked) when the recipient holds it
-- already; else the host chosen (booking_choose_host's answer), null without a team. A move names its booking
-- (p_booking, which does not count against its host) and its host (p_prefer, kept when free); p_owner, the
-- account's owner, comes next. p_trapped: the honeypot's question (book_trapped).
CREATE OR REPLACE FUNCTION booking_slot_host(p_recipient text, p_time_slot timestamptz, p_capacity integer, p_hosts jsonb,
  p_booking uuid DEFAULT NULL, p_prefer text DEFAULT NULL, p_trapped boolean DEFAULT false, p_owner text DEFAULT NULL)
RETURNS jsonb LANGUAGE plpgsql STABLE AS $fn$
DECLARE
  v_refusal text;
  v_host jsonb;
BEGIN
  v_refusal := booking_slot_refusal(p_recipient, p_time_slot, CASE WHEN p_hosts IS NULL THEN p_capacity END, p_trapped);
  IF v_refusal IS NULL AND p_hosts IS NOT NULL THEN
    v_host := booking_choose_host(p_time_slot, p_hosts, p_booking, p_prefer, p_trapped, p_owner);
    IF v_host IS NULL THEN
      v_refusal := 'slot-taken';
    END IF;
  END IF;
  IF v_refusal IS NOT NULL THEN
    PERFORM booking_refuse(jsonb_build_object('reason', v_refusal));
  END IF;
  RETURN v_host;
END;
$fn$;

-- The e-mails that went or will go to one recipient in the last 24 hours, each from when it was stored: every
-- e-mail (a row of deliveries) addressed to the booking's prospect (recipient null: the confirmation, updates, cancellations,
-- reminders), except those dropped unsent. Rows with their own recipient (the sales desk's notices) are not counted.
-- Whether p_adding more would pass p_ceiling, and when there will be room for them (null: never, the e-mails asked
-- for alone pass it).
CREATE OR REPLACE FUNCTION recipient_email_ceiling(p_recipient text, p_adding integer, p_ceiling integer)
RETURNS TABLE (counted integer, refused boolean, free_at timestamptz)
LANGUAGE plpgsql STABLE AS $fn$
DECLARE
  v_stored timestamptz[];
BEGIN
  SELECT coalesce(array_agg(b.created_at ORDER BY b.created_at), '{}') INTO v_stored
    FROM bookings d JOIN deliveries b ON b.booking_id = d.id
    WHERE d.recipient = p_recipient AND b.channel = 'email' AND b.recipient IS NULL AND b.dropped_at IS NULL
      AND b.created_at > now() - booking_ceiling_window();
  counted := cardinality(v_stored);
  refused := counted + p_adding > p_ceiling;
  free_at := CASE WHEN refused THEN v_stored[counted + p_adding - p_ceiling] + booking_ceiling_window() END;
  RETURN NEXT;
END;
$fn$;

-- When a text's reminder due at p_at goes out on the prospect's clock (p_zone): at p_at, unless that falls in the night
-- (21:00 to 08:00 there), when it goes the evening before at 20:00 instead; null when p_zone is no zone.
CREATE OR REPLACE FUNCTION sms_reminder_due(p_at timestamptz, p_zone text)
RETURNS timestamptz LANGUAGE plpgsql STABLE AS $fn$
DECLARE
  v_local timestamp;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_timezone_names WHERE name = p_zone) THEN
    RETURN NULL;
  END IF;
  v_local := p_at AT TIME ZONE p_zone;
  IF v_local::time >= time '08:00' AND v_local::time < time '21:00' THEN
    RETURN p_at;
  END IF;
  -- The night's evening: the same day's for 21:00 to midnight, the day before's after midnight.
  RETURN ((v_local - interval '8 hours')::date + time '20:00') AT TIME ZONE p_zone;
END;
$fn$;

-- Stores the e-mails and calendar writes of a booking or of its change (p_emails, as api/bookings/emails.ts lists
-- them: kind, channel, recipient, change, due_at) in the outbox, in their order, for the booking as it now stands
-- (p_time_slot, p_sequence). A row marked to_host goes to the booking's host (p_host), and to nobody without one; one
-- marked to_previous_host to the host a move took the demo from (p_previous_host), and to nobody when the demo stayed
-- with them; one marked previous_slot names the slot a move gave up; one marked to_phone goes to the number the
-- booking's prospect consented to be texted at, and to nobody without one or once it answered STOP (a row with
-- quiet_zone is a text's reminder, moved out of the night: sms_reminder_due). A text is held back (sms_text_limits)
-- past text_limit texts to its number in 24 hours, past booking_text_limit texts of its booking, or when the number
-- was first texted in 24 hours about a booking of another prospect; held back, it is kept in sms_withheld with why.
-- Returns the rows stored as their jobs carry them (server-shared/jobs.ts): [{ id, kind, due }], due in epoch
-- milliseconds. PL/pgSQL rather than SQL, so that its statement's plan is kept for the session instead of made again
-- at every booking.
CREATE OR REPLACE FUNCTION booking_store_deliveries(p_booking uuid, p_time_slot timestamptz, p_sequence integer,
  p_previous_time_slot timestamptz, p_host text, p_previous_host text, p_emails jsonb)
RETURNS jsonb LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  v_stored jsonb;
  v_phone record;
  v_texts record;
BEGIN
  SELECT b.sms_phone, b.visitor_time_zone, NOT EXISTS (SELECT 1 FROM sms_opt_outs o WHERE o.phone = b.sms_phone) AS textable
    INTO v_phone FROM bookings b WHERE b.id = p_booking;
  IF v_phone.sms_phone IS NOT NULL AND v_phone.textable THEN
    SELECT * INTO v_texts FROM sms_text_limits(p_booking, v_phone.sms_phone);
  ELSE
    SELECT 0 AS by_number, 0 AS by_booking, false AS other_prospect INTO v_texts;
  END IF;
  WITH listed AS (
    SELECT f.*, CASE WHEN f.quiet_zone IS NULL THEN f.due_at
        ELSE sms_reminder_due(f.due_at, coalesce(v_phone.visitor_time_zone, f.quiet_zone)) END AS due,
        count(*) FILTER (WHERE f.to_phone) OVER (ORDER BY f.place) AS phone_place
      FROM ROWS FROM (jsonb_to_recordset(p_emails) AS (kind text, channel text, recipient text, to_host boolean,
        to_previous_host boolean, to_phone boolean, previous_slot boolean, change text, due_at timestamptz,
        quiet_zone text, text_limit integer, booking_text_limit integer)) WITH ORDINALITY AS f(kind, channel, recipient,
        to_host, to_previous_host, to_phone, previous_slot, change, due_at, quiet_zone, text_limit, booking_text_limit,
        place)
  ), judged AS (
    SELECT f.*,
        -- A text only to a number its prospect consented to; a reminder its quiet hours left no time for, none.
        (NOT coalesce(f.to_phone, false) OR (v_phone.sms_phone IS NOT NULL AND v_phone.textable))
          AND (f.quiet_zone IS NULL OR f.due > now()) AS wanted,
        -- Why a text is held back: this change's later texts past a limit (0: none), or the number not this prospect's.
        CASE WHEN NOT coalesce(f.to_phone, false) THEN NULL
          WHEN v_texts.other_prospect THEN 'number-of-another-prospect'
          WHEN coalesce(f.text_limit, 0) > 0 AND v_texts.by_number + f.phone_place > f.text_limit THEN 'number-per-day'
          WHEN coalesce(f.booking_text_limit, 0) > 0 AND v_texts.by_booking + f.phone_place > f.booking_text_limit
            THEN 'booking-limit'
        END AS withheld
      FROM listed AS f
  ), held AS (
    INSERT INTO sms_withheld (booking_id, kind, reason)
      SELECT p_booking, f.kind, f.withheld FROM judged AS f WHERE f.wanted AND f.withheld IS NOT NULL
  ), stored AS (
    INSERT INTO deliveries (channel, booking_id, kind, time_slot, sequence, recipient, change, due_at, previous_time_slot)
      SELECT f.channel, p_booking, f.kind, p_time_slot, p_sequence,
          CASE WHEN f.to_host THEN p_host WHEN f.to_previous_host THEN p_previous_host
            WHEN f.to_phone THEN v_phone.sms_phone ELSE f.recipient END,
          f.change, coalesce(f.due, date_trunc('milliseconds', now())),
          CASE WHEN f.previous_slot THEN p_previous_time_slot END
        FROM judged AS f
        WHERE (NOT coalesce(f.to_host, false) OR p_host IS NOT NULL)
          AND (NOT coalesce(f.to_previous_host, false) OR (p_previous_host IS NOT NULL AND p_previous_host IS DISTINCT FROM p_host))
          AND f.wanted AND f.withheld IS NULL
      RETURNING deliveries.id, deliveries.kind, deliveries.due_at
  )
  SELECT coalesce(jsonb_agg(jsonb_build_object('id', stored.id, 'kind', stored.kind,
      'due', (extract(epoch FROM stored.due_at) * 1000)::bigint)), '[]'::jsonb) INTO v_stored FROM stored;
  RETURN v_stored;
END;
$fn$;

-- What the texts' limits count for a change of booking p_booking about to text p_phone, under the number's own lock
-- (taken here, held until the transaction ends, so two bookings texting one number take turns): the texts to the
-- number in 24 hours whichever booking they are about, and the booking's own, each counted when stored, dropped ones
-- not; and whether the number belongs to another prospect: its owner is the prospect (their e-mail, in any case) of
-- the booking it was first texted about in those 24 hours, and no other prospect's booking texts it then.
CREATE OR REPLACE FUNCTION sms_text_limits(p_booking uuid, p_phone text)
RETURNS TABLE (by_number integer, by_booking integer, other_prospect boolean)
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  v_owner text;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('sms-phone:' || p_phone, 0));
  SELECT count(*)::int INTO by_number FROM deliveries d
    WHERE d.channel = 'sms' AND d.recipient = p_phone AND d.dropped_at IS NULL
      AND d.created_at > now() - booking_ceiling_window();
  SELECT count(*)::int INTO by_booking FROM deliveries d
    WHERE d.booking_id = p_booking AND d.channel = 'sms' AND d.dropped_at IS NULL;
  SELECT lower(b.email) INTO v_owner FROM deliveries d JOIN bookings b ON b.id = d.booking_id
    WHERE d.channel = 'sms' AND d.recipient = p_phone AND d.created_at > now() - booking_ceiling_window()
    ORDER BY d.created_at, d.id LIMIT 1;
  other_prospect := v_owner IS DISTINCT FROM (SELECT lower(b.email) FROM bookings b WHERE b.id = p_booking)
    AND v_owner IS NOT NULL;
  RETURN NEXT;
END;
$fn$;

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

-- A booking as its link shows it after a change (api/bookings/repository.ts reads it back: stateOf).
CREATE OR REPLACE FUNCTION booking_state(p_id uuid)
RETURNS jsonb LANGUAGE sql STABLE AS $fn$
  SELECT jsonb_build_object('id', b.id, 'name', b.name, 'email', b.email, 'company', b.company,
      'time_slot', b.time_slot, 'status', b.status, 'sequence', b.sequence, 'meeting_url', b.meeting_url,
      'host_email', b.host_email, 'host_name', b.host_name, 'host_title', b.host_title, 'anonymised_at', b.anonymised_at)
    FROM bookings b WHERE b.id = p_id
$fn$;

-- The booking a change through its link is about, locked until the transaction ends (two changes of one booking
-- take turns), then its recipient domain's lock, as `book` takes it: a change's e-mails count against the same
-- ceiling. Refused: no such booking (not-found), or its personal data gone with retention (gone).
CREATE OR REPLACE FUNCTION booking_lock_for_change(p_id uuid)
RETURNS TABLE (status text, time_slot timestamptz, sequence integer, recipient text, host_email text)
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  v_row record;
BEGIN
  SELECT b.status, b.time_slot, b.sequence, b.recipient, b.recipient_domain, b.host_email, b.anonymised_at INTO v_row
    FROM bookings b WHERE b.id = p_id FOR UPDATE;
  IF NOT FOUND THEN
    PERFORM booking_refuse(jsonb_build_object('reason', 'not-found'));
  END IF;
  IF v_row.anonymised_at IS NOT NULL THEN
    PERFORM booking_refuse(jsonb_build_object('reason', 'gone'));
  END IF;
  PERFORM booking_lock_recipient_domain(v_row.recipient_domain);
  RETURN QUERY SELECT v_row.status, v_row.time_slot, v_row.sequence, v_row.recipient, v_row.host_email;
END;
$fn$;

-- What every change leaves in its transaction, once the row is changed: the prospect's earlier e-mails and texts it
-- overtakes dropped (db/functions/deliveries.sql), its own e-mails, texts and calendar writes stored (p_emails, see
-- booking_store_deliveries), its webhook event p_event raised (db/functions/webhooks.sql), with a move's
-- previousTimeSlot and p_extra in its data (a reassignment's previousHost and reason). Refused (recipient-emails)
-- when the prospect's e-mails of 24 hours, this change's counted, pass p_emails_per_recipient (0: no ceiling); the
-- whole change is then undone. Returns the booking as it now stands and the rows stored, for their jobs.
CREATE OR REPLACE FUNCTION booking_change_store(p_id uuid, p_event text, p_previous_time_slot timestamptz,
  p_previous_host text, p_emails jsonb, p_emails_per_recipient integer, p_extra jsonb DEFAULT NULL)
RETURNS TABLE (booking jsonb, emails jsonb, webhooks jsonb)
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  v_after record;
  v_mailed record;
BEGIN
  SELECT b.time_slot, b.sequence, b.recipient, b.host_email INTO v_after FROM bookings b WHERE b.id = p_id;
  PERFORM deliveries_settle_before(p_id, v_after.sequence);
  -- The texts to the prospect's phone: a line of their own, overtaken the same way.
  PERFORM deliveries_settle_before(p_id, v_after.sequence, NULL, b.sms_phone, 'sms')
    FROM bookings b WHERE b.id = p_id AND b.sms_phone IS NOT NULL;
  emails := booking_store_deliveries(p_id, v_after.time_slot, v_after.sequence, p_previous_time_slot, v_after.host_email,
    p_previous_host, p_emails);
  webhooks := webhook_raise_with(p_id, p_event, CASE WHEN p_previous_time_slot IS NULL THEN '{}'::jsonb
    ELSE jsonb_build_object('previousTimeSlot', webhook_instant(p_previous_time_slot)) END || coalesce(p_extra, '{}'::jsonb));
  IF p_emails_per_recipient > 0 THEN
    SELECT * INTO v_mailed FROM recipient_email_ceiling(v_after.recipient, 0, p_emails_per_recipient);
    IF v_mailed.refused THEN
      PERFORM booking_refuse(jsonb_build_object(
        'reason', 'recipient-emails', 'count', v_mailed.counted,
        'freeAt', extract(epoch FROM v_mailed.free_at) * 1000, 'now', extract(epoch FROM now()) * 1000));
    END IF;
  END IF;
  booking := booking_state(p_id);
  RETURN NEXT;
END;
$fn$;

-- Moves a booking through its link to p_time_slot (its notice and grid checked by the API before), in one statement,
-- under the locks `book` takes: refused when cancelled, begun by p_now, or moved too often; the same slot changes
-- nothing. The new slot is asked what a new booking asks (booking_slot_host): its capacity, the person's own
-- bookings and, with a team (p_hosts, the hosts' calendars read by the API just before), the host, kept when free at
-- the new time, else the account's owner (p_owner) when free, else the fairest free one. With routing, p_hosts are
-- those of the booking's route (routed again from its stored answers) and p_routing the new routing record, stored
-- in place of the old (booking_routing_record). Then its sequence is raised (the calendar event's SEQUENCE) and its
-- e-mails, calendar writes and booking.rescheduled event stored (booking_change_store).
CREATE OR REPLACE FUNCTION booking_move(p_id uuid, p_time_slot timestamptz, p_now timestamptz, p_capacity integer,
  p_hosts jsonb, p_emails_per_recipient integer, p_emails jsonb, p_owner text, p_routing jsonb)
RETURNS TABLE (changed boolean, booking jsonb, emails jsonb, webhooks jsonb)
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  -- Each move e-mails the prospect: past this many changes a booking is moved no more through its link (it can
  -- still be cancelled, and the prospect can reply to their confirmation).
  c_most_changes CONSTANT integer := 10;
  v_before record;
  v_host jsonb;
BEGIN
  SELECT * INTO v_before FROM booking_lock_for_change(p_id);
  IF v_before.status = 'cancelled' THEN
    PERFORM booking_refuse(jsonb_build_object('reason', 'cancelled'));
  END IF;
  IF v_before.time_slot = p_time_slot THEN
    RETURN QUERY SELECT false, booking_state(p_id), '[]'::jsonb, '[]'::jsonb;
    RETURN;
  END IF;
  IF booking_started(v_before.time_slot, p_now) THEN
    PERFORM booking_refuse(jsonb_build_object('reason', 'started'));
  END IF;
  IF v_before.sequence >= c_most_changes THEN
    PERFORM booking_refuse(jsonb_build_object('reason', 'too-many-changes', 'count', v_before.sequence));
  END IF;
  PERFORM booking_lock_slot(p_time_slot);
  IF p_hosts IS NOT NULL THEN
    PERFORM booking_lock_hosts(p_hosts);
  END IF;
  v_host := booking_slot_host(v_before.recipient, p_time_slot, p_capacity, p_hosts, p_id, v_before.host_email, false,
    p_owner);
  UPDATE bookings b SET time_slot = p_time_slot, sequence = b.sequence + 1,
      routing = CASE WHEN p_routing IS NULL THEN b.routing ELSE booking_routing_record(p_routing, v_host->'outcomes') END,
      host_email = CASE WHEN p_hosts IS NULL THEN b.host_email ELSE v_host->>'email' END,
      host_name = CASE WHEN p_hosts IS NULL THEN b.host_name ELSE v_host->>'name' END,
      host_title = CASE WHEN p_hosts IS NULL THEN b.host_title ELSE v_host->>'title' END,
      host_choice = CASE WHEN p_hosts IS NULL THEN b.host_choice ELSE v_host->'why' END,
      -- A new time chosen is what a booking that needed one (booking_host_answer) was waiting for.
      needs_new_time_at = NULL, needs_new_time_reason = NULL
    WHERE b.id = p_id;
  RETURN QUERY SELECT true, s.booking, s.emails, s.webhooks
    FROM booking_change_store(p_id, 'booking.rescheduled', v_before.time_slot, v_before.host_email, p_emails,
      p_emails_per_recipient) AS s;
END;
$fn$;

-- Cancels a booking through its link, in one statement: its slot is free again the moment it commits. Refused once
-- the demo has begun by p_now; cancelling a cancelled booking changes nothing. Its e-mails, calendar writes and
-- booking.cancelled event are stored as a move's are (booking_change_store).
CREATE OR REPLACE FUNCTION booking_cancel(p_id uuid, p_now timestamptz, p_emails_per_recipient integer, p_emails jsonb)
RETURNS TABLE (changed boolean, booking jsonb, emails jsonb, webhooks jsonb)
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  v_before record;
BEGIN
  SELECT * INTO v_before FROM booking_lock_for_change(p_id);
  IF v_before.status = 'cancelled' THEN
    RETURN QUERY SELECT false, booking_state(p_id), '[]'::jsonb, '[]'::jsonb;
    RETURN;
  END IF;
  IF booking_started(v_before.time_slot, p_now) THEN
    PERFORM booking_refuse(jsonb_build_object('reason', 'started'));
  END IF;
  UPDATE bookings b SET status = 'cancelled', cancelled_at = now(), sequence = b.sequence + 1 WHERE b.id = p_id;
  RETURN QUERY SELECT true, s.booking, s.emails, s.webhooks
    FROM booking_change_store(p_id, 'booking.cancelled', NULL, v_before.host_email, p_emails, p_emails_per_recipient) AS s;
END;
$fn$;

-- Marks after the demo whether the prospect came (p_attendance: attended or no_show), in one statement, under the
-- booking's row lock (two marks at once take turns): refused when there is no such booking (not-found), it was
-- cancelled, or it has not begun by p_now (not-yet); the same mark again changes nothing and raises nothing; a new
-- one (a first mark, or a correction) is stored, at p_now, with its webhook event. Returns that event's deliveries.
CREATE OR REPLACE FUNCTION booking_mark(p_id uuid, p_attendance text, p_now timestamptz)
RETURNS TABLE (changed boolean, webhooks jsonb)
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  v_row record;
BEGIN
  SELECT b.status, b.time_slot, b.attendance INTO v_row FROM bookings b WHERE b.id = p_id FOR UPDATE;
  IF NOT FOUND THEN
    PERFORM booking_refuse(jsonb_build_object('reason', 'not-found'));
  END IF;
  IF v_row.status = 'cancelled' THEN
    PERFORM booking_refuse(jsonb_build_object('reason', 'cancelled'));
  END IF;
  IF NOT booking_started(v_row.time_slot, p_now) THEN
    PERFORM booking_refuse(jsonb_build_object('reason', 'not-yet'));
  END IF;
  IF v_row.attendance IS NOT DISTINCT FROM p_attendance THEN
    RETURN QUERY SELECT false, '[]'::jsonb;
    RETURN;
  END IF;
  UPDATE bookings b SET attendance = p_attendance, attendance_marked_at = p_now WHERE b.id = p_id;
  RETURN QUERY SELECT true,
    webhook_raise(p_id, CASE p_attendance WHEN 'attended' THEN 'booking.attended' ELSE 'booking.no_show' END);
END;
$fn$;
