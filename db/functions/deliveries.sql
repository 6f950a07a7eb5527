-- The outbox's order within a booking (applied after the migrations, like booking-rules.sql). The e-mails a prospect
-- receives about one booking are one calendar event told change by change, so an e-mail overtaken by a later change
-- is never sent once that change exists: the change's own statement settles them (booking_move, booking_cancel), and
-- the worker settles them again before it sends a later one (server-shared/prospect-emails.ts calls these).
--
-- A line of rows about one booking that must go out in order: of its changes, with p_kind null the prospect's e-mails
-- (no recipient of their own), else one kind of row to one recipient (a host's calendar writes); of its events, with
-- p_endpoint, the webhook deliveries to that endpoint; with p_channel, every row of that channel to one recipient (the
-- texts to the prospect's phone).

-- The line's rows before p_place (a sequence; an event's position) still unsettled (their ids and claims: no signature
-- names a table's row type, so a migration's down may still drop the table): of a line of changes, neither sent,
-- refused for good nor dropped; of an endpoint's, not delivered (one given up on waits for a replay, and holds the
-- later ones with it).
CREATE OR REPLACE FUNCTION deliveries_unsettled_before(p_booking uuid, p_place bigint, p_kind text, p_recipient text,
  p_endpoint uuid DEFAULT NULL, p_channel text DEFAULT NULL)
RETURNS TABLE (id uuid, claimed_until timestamptz) LANGUAGE sql STABLE AS $fn$
  SELECT d.id, d.claimed_until FROM deliveries d
    WHERE d.booking_id = p_booking
      AND CASE WHEN p_endpoint IS NOT NULL THEN d.endpoint_id = p_endpoint AND d.position < p_place AND d.sent_at IS NULL
               ELSE (CASE WHEN p_channel IS NOT NULL THEN d.channel = p_channel AND d.recipient = p_recipient
                          WHEN p_kind IS NULL THEN d.channel = 'email' AND d.recipient IS NULL
                          ELSE d.kind = p_kind AND d.recipient = p_recipient END)
                    AND d.sequence < p_place AND d.sent_at IS NULL AND d.failed_at IS NULL AND d.dropped_at IS NULL END
$fn$;

-- Drops the line's rows of a lower sequence still to send and under no live claim: a change of p_sequence has been
-- made, so they no longer tell the truth. One held by a live claim is being sent right now and is left to its
-- worker, which drops it if its send fails (the later row waits for it meanwhile).
CREATE OR REPLACE FUNCTION deliveries_settle_before(p_booking uuid, p_sequence integer, p_kind text DEFAULT NULL,
  p_recipient text DEFAULT NULL, p_channel text DEFAULT NULL)
RETURNS void LANGUAGE sql VOLATILE AS $fn$
  UPDATE deliveries d SET dropped_at = now()
    WHERE d.id IN (SELECT u.id FROM deliveries_unsettled_before(p_booking, p_sequence, p_kind, p_recipient, NULL, p_channel) AS u
        WHERE u.claimed_until IS NULL OR u.claimed_until < now())
$fn$;
