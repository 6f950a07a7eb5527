/**
 * The e-mails a prospect receives about one booking are one calendar event told change by change: the confirmation
 * (SEQUENCE 0), then an update or the cancellation per change (each with the sequence of its change), and reminders,
 * all rows of booking_emails with no recipient of their own. What the prospect's calendar ends with must be what the
 * booking is, so an e-mail overtaken by a later change is never sent once that change exists, and none goes out while
 * an earlier one is still in flight. The API settles a booking's earlier e-mails in the change's own transaction; the
 * worker settles them again, and waits for the ones in flight, before it sends a later one. Both use this file.
 */
import type { Knex } from 'knex';

/** The confirmation announces the booking itself, the first version of its event. */
export const CONFIRMATION_SEQUENCE = 0;

/** The booking's e-mails to its prospect of a lower sequence than `sequence`, neither sent, refused for good nor dropped. */
function unsettledBefore(db: Knex | Knex.Transaction, bookingId: string, sequence: number): Knex.QueryBuilder {
  return db('booking_emails')
    .where({ booking_id: bookingId })
    .whereNull('recipient')
    .where('sequence', '<', sequence)
    .whereNull('sent_at')
    .whereNull('failed_at')
    .whereNull('dropped_at');
}

/**
 * Drops the booking's prospect e-mails of a lower sequence than `sequence` that are still to send and under no live
 * claim: a change of that sequence has been made, so they no longer tell the truth (the confirmation of a booking
 * moved or cancelled, an update overtaken, a reminder of a slot given up). One held by a live claim is being sent
 * right now and is left to its worker, which drops it if its send fails (the later e-mail waits for it meanwhile).
 */
export async function settleEarlierProspectEmails(db: Knex | Knex.Transaction, bookingId: string, sequence: number): Promise<void> {
  await unsettledBefore(db, bookingId, sequence)
    .where((unclaimed) => unclaimed.whereNull('claimed_until').orWhere('claimed_until', '<', db.fn.now()))
    .update({ dropped_at: db.fn.now() });
}

/**
 * How many of the booking's prospect e-mails of a lower sequence are still unsettled. Once it is 0 it stays 0: an
 * e-mail is never stored below a sequence already reached, and a settled one never becomes unsettled again.
 */
export async function unsettledEarlierProspectEmails(db: Knex, bookingId: string, sequence: number): Promise<number> {
  const emails = await unsettledBefore(db, bookingId, sequence).first(db.raw('count(*)::int AS unsettled'));
  return emails?.unsettled ?? 0;
}
