-- The booking's rules as they run today, in four files applied after the migrations by the migration step
-- (migrateSchema in api/db.ts) with CREATE OR REPLACE, so a reader opens these and not the newest of several
-- migrations: the rules every booking and change asks (here), the outbox's rows a booking or change stores and the
-- texts' limits (booking-deliveries.sql), a new booking (bookings.sql: book, and the honeypot's look-alike book_trapped),
-- and the changes (booking-changes.sql: booking_move, booking_cancel, booking_mark). Each is one statement the API
-- calls; it queues the jobs they return after the commit (docs/architecture.md, "The booking's rules").
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
