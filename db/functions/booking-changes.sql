-- A booking's changes through its link and the sales page's mark, each one statement (applied after the migrations;
-- the rules they ask are booking-rules.sql's, the rows they store booking-deliveries.sql's).

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
