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
 * A line of rows about one booking that must go out in the order of its changes: the prospect's e-mails (rows with
 * no recipient of their own), or one kind of row to one recipient (a host's calendar writes).
 */
export type OrderedLine = { prospect: true } | { kind: string; recipient: string };

/** The line as the database's functions take it (db/functions/deliveries.sql): a kind and recipient, or null for the prospect's. */
function lineParameters(line: OrderedLine): [string | null, string | null] {
  return 'prospect' in line ? [null, null] : [line.kind, line.recipient];
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
  line: OrderedLine = { prospect: true },
): Promise<void> {
  await db.raw('SELECT deliveries_settle_before(?, ?, ?, ?)', [bookingId, sequence, ...lineParameters(line)]);
}

/**
 * How many of the booking's rows of the line of a lower sequence are still unsettled (deliveries_unsettled_before).
 * Once it is 0 it stays 0: a row is never stored below a sequence already reached, and a settled one never becomes
 * unsettled again.
 */
export async function unsettledEarlierProspectEmails(
  db: Knex,
  bookingId: string,
  sequence: number,
  line: OrderedLine = { prospect: true },
): Promise<number> {
  const { rows } = (await db.raw('SELECT count(*)::int AS unsettled FROM deliveries_unsettled_before(?, ?, ?, ?)', [
    bookingId,
    sequence,
    ...lineParameters(line),
  ])) as { rows: { unsettled: number }[] };
  return rows[0]?.unsettled ?? 0;
}
