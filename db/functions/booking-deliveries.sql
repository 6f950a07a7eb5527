-- What a booking or a change stores in the outbox (applied after the migrations, like booking-rules.sql): its
-- e-mails, texts and calendar writes, the texts' reminders moved out of the night and the texts' limits.

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
