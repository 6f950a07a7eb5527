/**
 * The e-mails a prospect receives about one booking are one calendar event told change by change: the confirmation
 * (SEQUENCE 0), then an update or the cancellation per change (each with the sequence of its change), and reminders,
 * all e-mails (rows of deliveries) with no recipient of their own. What the prospect's calendar ends with must be what the
 * booking is, so an e-mail overtaken by a later change is never sent once that change exists, and none goes out while
 * an earlier one is still in flight. The API settles a booking's earlier e-mails in the change's own transaction; the
 * worker settles them again, and waits for the ones in flight, before it sends a later one. Both use this file.
 */
import type { Knex } from 'knex';

/** The confirmation announces the booking itself, the first version of its event. */
export const CONFIRMATION_SEQUENCE = 0;

/**
 * A line of rows about one booking that must go out in order: of its changes, the prospect's e-mails (rows with no
 * recipient of their own) or one kind of row to one recipient (a host's calendar writes); of its events, the webhook
 * deliveries to one endpoint.
 */
export type OrderedLine = { prospect: true } | { kind: string; recipient: string } | { endpoint: string };

/**
 * The line's rows before `place` (a sequence; an event's position) still unsettled: of a line of changes, neither
 * sent, refused for good nor dropped; of an endpoint's, not delivered (one given up on waits for a replay, and
 * holds the later ones with it).
 */
export function unsettledBefore(
  db: Knex | Knex.Transaction,
  bookingId: string,
  place: number | string,
  line: OrderedLine,
): Knex.QueryBuilder {
  const rows = db('deliveries').where({ booking_id: bookingId });
  if ('endpoint' in line)
    return rows.where({ endpoint_id: line.endpoint }).where('position', '<', place).whereNull('sent_at');
  if ('prospect' in line) rows.where({ channel: 'email' }).whereNull('recipient');
  else rows.where({ kind: line.kind, recipient: line.recipient });
  return rows.where('sequence', '<', place).whereNull('sent_at').whereNull('failed_at').whereNull('dropped_at');
}

/**
 * Drops the booking's prospect e-mails of a lower sequence than `sequence` that are still to send and under no live
 * claim: a change of that sequence has been made, so they no longer tell the truth (the confirmation of a booking
 * moved or cancelled, an update overtaken, a reminder of a slot given up). One held by a live claim is being sent
 * right now and is left to its worker, which drops it if its send fails (the later e-mail waits for it meanwhile).
 */
export async function settleEarlierProspectEmails(
  db: Knex | Knex.Transaction,
  bookingId: string,
  sequence: number,
  line: Exclude<OrderedLine, { endpoint: string }> = { prospect: true },
): Promise<void> {
  await unsettledBefore(db, bookingId, sequence, line)
    .where((unclaimed) => unclaimed.whereNull('claimed_until').orWhere('claimed_until', '<', db.fn.now()))
    .update({ dropped_at: db.fn.now() });
}
