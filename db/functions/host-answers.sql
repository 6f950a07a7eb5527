-- The host's answer in their own calendar (applied after the migrations, like booking-rules.sql): the event the product
-- wrote for a booking was deleted there, or the host declined it. One statement, as every change of a booking is one.

-- Acts on the answer of host p_host about booking p_id at p_time_slot (p_reason: 'host-deleted' or
-- 'host-declined'), as the API read it in their calendar. Nothing is done ('stale') unless the booking still stands
-- as read, under its lock: booked, with that host, at that slot, and not begun by p_now; so a second process that
-- read the same calendar, or a change the prospect or sales made meanwhile, acts on nothing. A booking whose row
-- another statement holds (SKIP LOCKED: a move, a reassignment, another API process acting on the same answer) is
-- 'stale' too: the next read of the calendar compares it again with what that statement left. Otherwise the host's slot
-- is kept as given up (host_freed_slots: booking_choose_host no longer gives them that slot), then the demo is handed
-- to one of p_hosts (the route's other hosts the API found inside their working hours and free in their calendars,
-- read just before) through booking_reassign, under its locks and the exclusion constraint ('reassigned'); when none
-- of them can take it, or p_hosts is empty, the booking loses its host and is marked as needing a new time, its
-- prospect's e-mails and texts still unsent dropped (booking_change_store), p_new_time_emails stored (the prospect's apology, the sales desk's notice,
-- the withdrawal from the host) and booking.needs-new-time raised ('needs-new-time'). Never a silent drop.
CREATE OR REPLACE FUNCTION booking_host_answer(p_id uuid, p_host text, p_time_slot timestamptz, p_reason text,
  p_hosts jsonb, p_now timestamptz, p_reassign_emails jsonb, p_new_time_emails jsonb)
RETURNS TABLE (outcome text, booking jsonb, emails jsonb, webhooks jsonb)
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  v_before record;
  v_done record;
BEGIN
  IF p_reason NOT IN ('host-deleted', 'host-declined') THEN
    RAISE EXCEPTION 'booking_host_answer: unknown reason %', p_reason;
  END IF;
  SELECT b.id, b.status, b.time_slot, b.host_email, b.host_name, b.host_title, b.anonymised_at INTO v_before
    FROM bookings b WHERE b.id = p_id FOR UPDATE SKIP LOCKED;
  IF NOT FOUND OR v_before.anonymised_at IS NOT NULL OR v_before.status <> 'booked'
      OR v_before.host_email IS DISTINCT FROM p_host OR v_before.time_slot <> p_time_slot
      OR booking_started(v_before.time_slot, p_now) THEN
    RETURN QUERY SELECT 'stale'::text, NULL::jsonb, '[]'::jsonb, '[]'::jsonb;
    RETURN;
  END IF;
  INSERT INTO host_freed_slots (host_email, time_slot, booking_id, reason, freed_at)
    VALUES (p_host, p_time_slot, p_id, p_reason, p_now) ON CONFLICT DO NOTHING;

  IF jsonb_array_length(p_hosts) > 0 THEN
    BEGIN
      -- The prospect did not ask for this change: their e-mail ceiling does not hold it back (0: none).
      SELECT * INTO v_done FROM booking_reassign(p_id, p_time_slot, p_hosts, p_reason, p_now, 0, p_reassign_emails);
      RETURN QUERY SELECT 'reassigned'::text, v_done.booking, v_done.emails, v_done.webhooks;
      RETURN;
    EXCEPTION
      -- Every host offered took another demo or reached their daily limit meanwhile: a new time is needed.
      WHEN raise_exception OR exclusion_violation THEN
        IF SQLERRM <> 'booking refused' AND SQLSTATE <> '23P01' THEN
          RAISE;
        END IF;
    END;
  END IF;

  UPDATE bookings b SET sequence = b.sequence + 1, host_email = NULL, host_name = NULL, host_title = NULL,
      host_choice = jsonb_build_object('rule', 'needs a new time: no other host of its route was free',
        'previousHost', p_host, 'reason', p_reason),
      needs_new_time_at = p_now, needs_new_time_reason = p_reason
    WHERE b.id = p_id;
  -- The prospect did not ask for this change either: no e-mail ceiling holds it back.
  RETURN QUERY SELECT 'needs-new-time'::text, s.booking, s.emails, s.webhooks
    FROM booking_change_store(p_id, 'booking.needs-new-time', NULL, p_host, p_new_time_emails, 0,
      jsonb_build_object('reason', p_reason,
        'previousHost', jsonb_build_object('name', v_before.host_name, 'title', v_before.host_title, 'email', p_host))) AS s;
END;
$fn$;
