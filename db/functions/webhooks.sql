-- Webhooks as they run today (applied after the migrations, like booking-rules.sql). A change of a booking raises its
-- event here, in the change's own transaction: one webhook_events row (its id is the event's id, the same on every
-- try) and one deliveries row (channel webhook) per endpoint that takes events, so nothing is lost whatever Redis or the
-- receivers do. The payload is built here once, from the booking as the change leaves it; its shape is
-- server-shared/webhook-events.ts (webhookEventSchema), which the OpenAPI document publishes and the tests check.

-- An instant as JavaScript writes it (to the millisecond, UTC), or null.
CREATE OR REPLACE FUNCTION webhook_instant(p_at timestamptz)
RETURNS text LANGUAGE sql IMMUTABLE AS $fn$
  SELECT to_char(p_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$fn$;

-- Raises the event p_type about booking p_booking (its row as it now stands, so call it after the change), p_extra
-- added to its data (a move's previousTimeSlot, a reassignment's previousHost). The prospect's answers and the
-- route that matched (its index and label) come along when the booking has them. Returns the deliveries stored,
-- [{ id, due }] (due: the epoch milliseconds of their first try), for the caller to queue after the commit.
-- Endpoints removed, or stopped by a 410, take no new events; a failing one does (they wait for it).
CREATE OR REPLACE FUNCTION webhook_raise_with(p_booking uuid, p_type text, p_extra jsonb)
RETURNS jsonb LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  v_event uuid := time_ordered_uuid();
  v_position bigint;
  v_deliveries jsonb;
BEGIN
  INSERT INTO webhook_events (id, booking_id, type, payload)
    SELECT v_event, b.id, p_type, jsonb_build_object(
        'id', v_event,
        'type', p_type,
        'timestamp', webhook_instant(now()),
        'data', jsonb_build_object(
          'booking', jsonb_build_object(
            'id', b.id,
            'status', b.status,
            'attendance', b.attendance,
            'timeSlot', webhook_instant(b.time_slot),
            'sequence', b.sequence,
            'createdAt', webhook_instant(b.created_at),
            'name', b.name,
            'email', b.email,
            'company', b.company,
            'phone', b.phone,
            'message', b.message,
            'meetingUrl', b.meeting_url),
          'host', CASE WHEN b.host_email IS NULL THEN NULL
                       ELSE jsonb_build_object('name', b.host_name, 'title', b.host_title, 'email', b.host_email) END,
          'attribution', b.attribution)
        || CASE WHEN b.answers IS NULL OR b.answers = '{}'::jsonb THEN '{}'::jsonb ELSE jsonb_build_object('answers', b.answers) END
        || CASE WHEN b.routing IS NULL THEN '{}'::jsonb
                ELSE jsonb_build_object('route', jsonb_build_object('rule', b.routing->'rule', 'label', b.routing->'label')) END
        || p_extra)
      FROM bookings b WHERE b.id = p_booking
    RETURNING position INTO v_position;
  IF v_position IS NULL THEN
    RAISE EXCEPTION 'webhook_raise: no booking %', p_booking;
  END IF;
  WITH stored AS (
    INSERT INTO deliveries (channel, kind, event_id, endpoint_id, booking_id, position)
      SELECT 'webhook', 'webhook', v_event, e.id, p_booking, v_position FROM webhook_endpoints e
        WHERE e.removed_at IS NULL AND e.stopped_at IS NULL
      RETURNING deliveries.id, deliveries.due_at
  )
  SELECT coalesce(jsonb_agg(jsonb_build_object('id', stored.id, 'due', (extract(epoch FROM stored.due_at) * 1000)::bigint)), '[]'::jsonb)
    INTO v_deliveries FROM stored;
  RETURN v_deliveries;
END;
$fn$;

-- Raises the event p_type about booking p_booking (its row as it now stands, so call it after the change); for a
-- move, p_previous_time_slot is the slot given up. Returns the deliveries stored (webhook_raise_with).
CREATE OR REPLACE FUNCTION webhook_raise(p_booking uuid, p_type text, p_previous_time_slot timestamptz DEFAULT NULL)
RETURNS jsonb LANGUAGE sql VOLATILE AS $fn$
  SELECT webhook_raise_with(p_booking, p_type, CASE WHEN p_previous_time_slot IS NULL THEN '{}'::jsonb
    ELSE jsonb_build_object('previousTimeSlot', webhook_instant(p_previous_time_slot)) END)
$fn$;
