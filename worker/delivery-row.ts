/**
 * A delivery row as its worker claims it, of any channel, with the booking (the lead) and a webhook delivery's
 * endpoint and event read beside it; and the change a row tells, as its templates read it. The SQL that claims and
 * marks these rows is outbox.ts.
 */
import type { RoutingAnswers } from '../domain/routing.js';
import type { DeliveryKind } from '../server-shared/delivery-kinds.js';
import type { Booking } from '../server-shared/invitation.js';
import type { Attribution } from '../domain/attribution.js';

/**
 * A claimed row that tells a change of its booking (an e-mail's, a calendar write's: every row but a webhook
 * delivery's), as its template reads it. `kind` is what the row says; the registry may not know it. Not the API's
 * EmailRow (api/bookings/emails.ts), a row about to be stored, without its id.
 */
export interface ChangeRow {
  id: string;
  booking_id: string;
  kind: DeliveryKind | (string & {});
  /** The slot and the sequence of the change the row tells. */
  time_slot: Date;
  sequence: number;
  /** Its own recipient (the sales desk's address); null: the booking's prospect. */
  recipient: string | null;
  change: 'booked' | 'rescheduled' | 'cancelled' | 'reassigned' | 'needs-new-time' | null;
  /** A move's e-mail: the slot the booking left. */
  previous_time_slot?: Date | null;
  /** When the row was stored: with its booking or its change, in the same transaction. */
  created_at?: Date;
}

/** Everything the e-mails about a booking may tell: the lead as stored, and where the booking stands now. */
export interface Lead extends Booking {
  phone: string | null;
  message: string | null;
  attribution: Attribution | null;
  status: 'booked' | 'cancelled';
  sequence: number;
  /** The prospect's answers to the team file's questions, when they were asked. */
  answers?: RoutingAnswers | null;
  /** The route that chose its host (its index in the team file, null without routes, and its label), with a team. */
  route?: { rule: number | null; label: string } | null;
}

/** A row as its worker claims it, of any channel. */
export interface DeliveryRow {
  id: string;
  channel: string;
  kind: DeliveryKind | (string & {});
  booking_id: string;
  /** The change an e-mail or a calendar write tells (null on a webhook delivery's row). */
  time_slot: Date | null;
  sequence: number | null;
  recipient: string | null;
  change: ChangeRow['change'];
  previous_time_slot: Date | null;
  /** A webhook delivery's endpoint and event, and the event's place among its booking's. */
  endpoint_id: string | null;
  event_id: string | null;
  position: string | null;
  attempts: number;
  /** When the current run of failures began; null before the first failure (or after a replay). */
  failing_since: Date | null;
  created_at: Date;
}

/** A webhook delivery's endpoint and event, as the claim reads them. */
export interface EndpointEvent {
  url: string;
  secret: string;
  type: string;
  payload: unknown;
  created_at: Date;
}

export interface Claimed {
  row: DeliveryRow;
  /** The booking as it stands at the claim; null when it is gone. */
  lead: Lead | null;
  /** Its endpoint and event, for a row that has them. */
  event: EndpointEvent | null;
}

/** The change the row tells, for a row that tells one (every row but a webhook delivery's). */
export function changeOf(row: DeliveryRow): ChangeRow | null {
  if (row.time_slot === null || row.sequence === null) return null;
  const { id, booking_id, kind, time_slot, sequence, recipient, change, previous_time_slot, created_at } = row;
  return { id, booking_id, kind, time_slot, sequence, recipient, change, previous_time_slot, created_at };
}
