-- The prospect's answer to the invitation (an iTIP REPLY read from the reply mailbox by worker/replies/), applied in
-- one statement under the booking's row lock, so that it takes turns with a move or a cancellation through the link.
-- p_sequence is the SEQUENCE the reply answers: a reply to an invitation a later change replaced is stale and changes
-- nothing (the prospect answered a time or host the booking no longer has). p_stamp is the reply's DTSTAMP: the same
-- reply again, or an older one read after a newer, changes nothing either.
--   DECLINED: cancelled as the prospect's own cancel does (booking_cancel: the slot free, the host's calendar and
--             e-mails, the cancellation with its link to book again, booking.cancelled), the event saying why.
--   ACCEPTED, TENTATIVE: recorded; a new answer raises booking.accepted with it.
-- Returns what happened (outcome) and the rows stored, for their jobs.
CREATE OR REPLACE FUNCTION booking_reply(p_id uuid, p_partstat text, p_sequence integer, p_stamp timestamptz,
  p_now timestamptz, p_emails jsonb)
RETURNS TABLE (outcome text, emails jsonb, webhooks jsonb)
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  v_row record;
  v_cancel record;
BEGIN
  IF p_partstat NOT IN ('ACCEPTED', 'TENTATIVE', 'DECLINED') THEN
    RAISE EXCEPTION 'booking_reply: no such answer %', p_partstat;
  END IF;
  SELECT b.status, b.sequence, b.time_slot, b.prospect_reply, b.prospect_reply_stamp, b.anonymised_at INTO v_row
    FROM bookings b WHERE b.id = p_id FOR UPDATE;
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'unknown'::text, '[]'::jsonb, '[]'::jsonb;
    RETURN;
  END IF;
  IF v_row.anonymised_at IS NOT NULL OR v_row.status = 'cancelled' THEN
    RETURN QUERY SELECT 'cancelled'::text, '[]'::jsonb, '[]'::jsonb;
    RETURN;
  END IF;
  IF p_sequence < v_row.sequence THEN
    RETURN QUERY SELECT 'stale'::text, '[]'::jsonb, '[]'::jsonb;
    RETURN;
  END IF;
  IF v_row.prospect_reply_stamp IS NOT NULL AND p_stamp <= v_row.prospect_reply_stamp THEN
    RETURN QUERY SELECT 'seen'::text, '[]'::jsonb, '[]'::jsonb;
    RETURN;
  END IF;
  IF p_partstat = 'DECLINED' THEN
    -- A demo under way is not cancelled by a late answer: booking_cancel would refuse it.
    IF booking_started(v_row.time_slot, p_now) THEN
      RETURN QUERY SELECT 'started'::text, '[]'::jsonb, '[]'::jsonb;
      RETURN;
    END IF;
    SELECT * INTO v_cancel FROM booking_cancel(p_id, p_now, 0, p_emails);
    UPDATE bookings b SET prospect_reply = p_partstat, prospect_replied_at = p_now, prospect_reply_stamp = p_stamp
      WHERE b.id = p_id;
    -- booking_cancel raised booking.cancelled with the booking's data alone; its reason is added here, in the same
    -- transaction, before any delivery of it can be read.
    UPDATE webhook_events e SET payload = jsonb_set(e.payload, '{data,reason}', '"declined"')
      WHERE e.booking_id = p_id AND e.type = 'booking.cancelled'
        AND e.position = (SELECT max(w.position) FROM webhook_events w WHERE w.booking_id = p_id);
    RETURN QUERY SELECT 'declined'::text, v_cancel.emails, v_cancel.webhooks;
    RETURN;
  END IF;
  UPDATE bookings b SET prospect_reply = p_partstat, prospect_replied_at = p_now, prospect_reply_stamp = p_stamp
    WHERE b.id = p_id;
  IF v_row.prospect_reply IS NOT DISTINCT FROM p_partstat THEN
    RETURN QUERY SELECT 'seen'::text, '[]'::jsonb, '[]'::jsonb;
    RETURN;
  END IF;
  RETURN QUERY SELECT 'recorded'::text, '[]'::jsonb,
    webhook_raise_with(p_id, 'booking.accepted', jsonb_build_object('partstat', p_partstat));
END;
$fn$;
