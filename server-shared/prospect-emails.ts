/**
 * The e-mails a prospect receives about one booking are one calendar event told change by change: the confirmation
 * (SEQUENCE 0), then an update or the cancellation per change (each with the sequence of its change), and reminders,
 * all e-mails (rows of deliveries) with no recipient of their own. What the prospect's calendar ends with must be what the
 * booking is, so an e-mail overtaken by a later change is never sent once that change exists, and none goes out while
 * an earlier one is still in flight. A change's own statement settles a booking's earlier e-mails (booking_move and
 * booking_cancel); the worker settles them again, and waits for the ones in flight, before it sends a later one. Both
 * ask the same functions (db/functions/deliveries.sql).
 */
import type { Knex } from 'knex';

/** The confirmation announces the booking itself, the first version of its event. */
export const CONFIRMATION_SEQUENCE = 0;

/**
 * A line of rows about one booking that must go out in order: of its changes, the prospect's e-mails (rows with no
 * recipient of their own) or one kind of row to one recipient (a host's calendar writes); of its events, the webhook
 * deliveries to one endpoint.
 */
export type OrderedLine =
  | { prospect: true }
  | { kind: string; recipient: string }
  | { endpoint: string }
  /** The texts to the prospect's phone (its number, E.164). */
  | { phone: string };

/** The line as the database's functions take it (db/functions/deliveries.sql): kind, recipient, endpoint, channel. */
function lineParameters(line: OrderedLine): [string | null, string | null, string | null, string | null] {
  if ('endpoint' in line) return [null, null, line.endpoint, null];
  if ('phone' in line) return [null, line.phone, null, 'sms'];
  return 'prospect' in line ? [null, null, null, null] : [line.kind, line.recipient, null, null];
}

/**
 * Whether the line holds rows before `place` (a sequence; an event's position) still unsettled
 * (deliveries_unsettled_before): of a line of changes, neither sent, refused for good nor dropped; of an endpoint's,
 * not delivered (one given up on waits for a replay, and holds the later ones with it).
 */
export async function unsettledBefore(
  db: Knex | Knex.Transaction,
  bookingId: string,
  place: number | string,
  line: OrderedLine,
): Promise<boolean> {
  const { rows } = (await db.raw(
    'SELECT EXISTS (SELECT 1 FROM deliveries_unsettled_before(?, ?, ?, ?, ?, ?)) AS held',
    [bookingId, place, ...lineParameters(line)],
  )) as { rows: { held: boolean }[] };
  return rows[0]?.held ?? false;
}

/**
 * Drops the booking's rows of the line of a lower sequence than `sequence` that are still to send and under no live
 * claim (deliveries_settle_before): a change of that sequence has been made, so they no longer tell the truth (the
 * confirmation of a booking moved or cancelled, an update overtaken, a reminder of a slot given up). One held by a
 * live claim is being sent right now and is left to its worker, which drops it if its send fails.
 */
export async function settleEarlierProspectEmails(
  db: Knex | Knex.Transaction,
  bookingId: string,
  sequence: number,
  line: Exclude<OrderedLine, { endpoint: string }> = { prospect: true },
): Promise<void> {
  const [kind, recipient, , channel] = lineParameters(line);
  await db.raw('SELECT deliveries_settle_before(?, ?, ?, ?, ?)', [bookingId, sequence, kind, recipient, channel]);
}
