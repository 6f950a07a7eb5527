-- What became of the texts (applied after the migrations, like booking-rules.sql): a delivery receipt recorded on its
-- text's row, and a text the SMSC refused for good, each raise their webhook event (sms.delivered, sms.failed) in the
-- statement that records them, so no receiver misses an outcome the row holds (db/functions/webhooks.sql).

-- The webhook event a text's state p_state calls for: sms.delivered for a receipt saying delivered, sms.failed for a
-- final failure (a receipt saying undeliverable, expired, rejected or deleted, or 'failed': refused for good), else
-- null (accepted, enroute, unknown: not yet known).
CREATE OR REPLACE FUNCTION sms_outcome_event(p_state text)
RETURNS text LANGUAGE sql IMMUTABLE AS $fn$
  SELECT CASE WHEN p_state = 'delivered' THEN 'sms.delivered'
    WHEN p_state IN ('undeliverable', 'expired', 'rejected', 'deleted', 'failed') THEN 'sms.failed' END
$fn$;

-- Raises the event p_state calls for about the text of row p_delivery (its data: the booking, and text { kind, sentAt,
-- state, stateAt }, as the booking's detail shows its texts), or nothing. Returns the deliveries stored, for their jobs.
CREATE OR REPLACE FUNCTION sms_text_event(p_delivery uuid, p_state text)
RETURNS jsonb LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  v_text record;
BEGIN
  IF sms_outcome_event(p_state) IS NULL THEN
    RETURN '[]'::jsonb;
  END IF;
  SELECT d.booking_id, d.kind, d.sent_at, coalesce(d.failed_at, d.sms_state_at) AS state_at INTO v_text
    FROM deliveries d WHERE d.id = p_delivery;
  RETURN webhook_raise_with(v_text.booking_id, sms_outcome_event(p_state), jsonb_build_object('text', jsonb_build_object(
    'kind', v_text.kind, 'sentAt', webhook_instant(v_text.sent_at), 'state', p_state,
    'stateAt', webhook_instant(v_text.state_at))));
END;
$fn$;

-- Records a delivery receipt, in one statement: the state p_state it says (delivered, undeliverable, …) on the text
-- the SMSC gave p_message_id, and its webhook event when the state is an outcome and new (the SMSC may send a receipt
-- again). recorded: how many texts it named (0: its try is not recorded yet); webhooks: the deliveries stored.
CREATE OR REPLACE FUNCTION sms_receipt_record(p_message_id text, p_state text)
RETURNS TABLE (recorded integer, webhooks jsonb) LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  v_row record;
BEGIN
  recorded := 0;
  webhooks := '[]'::jsonb;
  FOR v_row IN SELECT d.id, d.sms_state FROM deliveries d
      WHERE d.channel = 'sms' AND d.sms_message_id = p_message_id FOR UPDATE LOOP
    UPDATE deliveries d SET sms_state = p_state, sms_state_at = now() WHERE d.id = v_row.id;
    recorded := recorded + 1;
    IF v_row.sms_state IS DISTINCT FROM p_state THEN
      webhooks := webhooks || sms_text_event(v_row.id, p_state);
    END IF;
  END LOOP;
  RETURN NEXT;
END;
$fn$;

-- A text the SMSC refused for good (its row's failed_at just set, in the caller's transaction): its sms.failed event.
CREATE OR REPLACE FUNCTION sms_text_refused(p_delivery uuid)
RETURNS jsonb LANGUAGE sql VOLATILE AS $fn$
  SELECT sms_text_event(p_delivery, 'failed')
$fn$;
