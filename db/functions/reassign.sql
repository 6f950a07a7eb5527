-- Handing a booking to another host, from the sales page (applied after the migrations, like booking-rules.sql, whose
-- locks, host choice and outbox it calls). One statement, as every change of a booking is one.

-- Hands booking p_id to the host p_hosts names (one host, as booking_choose_host reads hosts: the API found them
-- inside their working hours and free in their own calendar, read just before, at p_time_slot), under the locks a
-- move takes: the booking's row, its recipient's domain, the slot, then the previous and the new host in their
-- addresses' order. Refused when there is no such booking (not-found), its data is gone (gone), it is cancelled,
-- begun by p_now (started), its slot is no longer p_time_slot (moved: the calendar was read for another time), or the
-- new host holds another booking over the slot or has reached their daily limit (host-busy); the booking's own host
-- again changes nothing. Then its host and sequence change (the calendar event's SEQUENCE, so the prospect's copy is
-- an update of the same event), the routing record gains the reassignment (p_by: who made it), and its e-mails and
-- calendar writes (p_emails: to the prospect, the sales desk, both hosts, the prospect's phone) and the
-- booking.reassigned event, naming the previous host, are stored as every change's are (booking_change_store: the
-- prospect's earlier e-mails and texts dropped); past the prospect's e-mail ceiling (p_emails_per_recipient, 0: none)
-- all is undone.
-- p_by is who made it ('sales page', 'operations token') or, from booking_host_answer (host-answers.sql), the host's
-- own reason ('host-deleted', 'host-declined'): the record then says 'the host' made it, with that reason, and so
-- does the webhook ('reason': 'sales' otherwise). A booking that needed a new time needs it no more.
CREATE OR REPLACE FUNCTION booking_reassign(p_id uuid, p_time_slot timestamptz, p_hosts jsonb, p_by text,
  p_now timestamptz, p_emails_per_recipient integer, p_emails jsonb)
RETURNS TABLE (changed boolean, booking jsonb, emails jsonb, webhooks jsonb)
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  v_before record;
  v_previous record;
  v_host jsonb;
BEGIN
  SELECT * INTO v_before FROM booking_lock_for_change(p_id);
  IF v_before.status = 'cancelled' THEN
    PERFORM booking_refuse(jsonb_build_object('reason', 'cancelled'));
  END IF;
  IF v_before.host_email IS NOT DISTINCT FROM (p_hosts->0->>'email') THEN
    RETURN QUERY SELECT false, booking_state(p_id), '[]'::jsonb, '[]'::jsonb;
    RETURN;
  END IF;
  IF booking_started(v_before.time_slot, p_now) THEN
    PERFORM booking_refuse(jsonb_build_object('reason', 'started'));
  END IF;
  IF v_before.time_slot <> p_time_slot THEN
    PERFORM booking_refuse(jsonb_build_object('reason', 'moved'));
  END IF;
  PERFORM booking_lock_slot(v_before.time_slot);
  PERFORM booking_lock_hosts(p_hosts || CASE WHEN v_before.host_email IS NULL THEN '[]'::jsonb
    ELSE jsonb_build_array(jsonb_build_object('email', v_before.host_email)) END);
  v_host := booking_choose_host(v_before.time_slot, p_hosts, p_id, NULL);
  IF v_host IS NULL THEN
    PERFORM booking_refuse(jsonb_build_object('reason', 'host-busy'));
  END IF;

  SELECT b.host_name, b.host_title INTO v_previous FROM bookings b WHERE b.id = p_id;
  UPDATE bookings b SET sequence = b.sequence + 1,
      host_email = v_host->>'email', host_name = v_host->>'name', host_title = v_host->>'title',
      host_choice = CASE WHEN p_by IN ('host-deleted', 'host-declined')
        THEN jsonb_build_object('rule', CASE p_by WHEN 'host-deleted' THEN 'handed on: the host deleted the event'
            ELSE 'handed on: the host declined the event' END, 'by', 'the host', 'reason', p_by,
          'previousHost', v_before.host_email)
        ELSE jsonb_build_object('rule', 'reassigned by sales', 'by', p_by, 'previousHost', v_before.host_email) END,
      needs_new_time_at = NULL, needs_new_time_reason = NULL,
      routing = CASE WHEN b.routing IS NULL THEN NULL
        ELSE jsonb_set(b.routing, '{reassignments}', coalesce(b.routing->'reassignments', '[]'::jsonb)
          || jsonb_build_array(jsonb_build_object('at', webhook_instant(p_now), 'from', v_before.host_email,
               'to', v_host->>'email')
             || CASE WHEN p_by IN ('host-deleted', 'host-declined')
                  THEN jsonb_build_object('by', 'the host', 'reason', p_by) ELSE jsonb_build_object('by', p_by) END)) END
    WHERE b.id = p_id;

  RETURN QUERY SELECT true, s.booking, s.emails, s.webhooks
    FROM booking_change_store(p_id, 'booking.reassigned', NULL, v_before.host_email, p_emails, p_emails_per_recipient,
      jsonb_build_object('previousHost', CASE WHEN v_before.host_email IS NULL THEN NULL
          ELSE jsonb_build_object('name', v_previous.host_name, 'title', v_previous.host_title, 'email', v_before.host_email) END,
        'reason', CASE WHEN p_by IN ('host-deleted', 'host-declined') THEN p_by ELSE 'sales' END)) AS s;
END;
$fn$;
