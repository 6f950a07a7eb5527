/** Bookings stored the way `book` stores them, each with its confirmation in the outbox, for tests of the worker. */
import type { Knex } from 'knex';
import { deliveryJob, type QueuedJob } from '../server-shared/jobs.js';
import { deliver, type DeliveryOutcome } from '../worker/deliver.js';
import { deliveryContext, type DeliveryDeps } from '../worker/job.js';

export interface StoredBooking {
  /** The booking's id. */
  id: string;
  /** Its confirmation's outbox row. */
  emailId: string;
}

/** Inserts the bookings and a confirmation row for each (`confirmation` sets the row's state: sent_at, claimed_until…). */
export async function insertBookings(
  db: Knex,
  bookings: readonly Record<string, unknown>[],
  confirmation: Record<string, unknown> = {},
): Promise<StoredBooking[]> {
  const stored: { id: string; time_slot: Date }[] = await db('bookings')
    .insert(bookings)
    .returning(['id', 'time_slot']);
  const emails: { id: string; booking_id: string }[] = await db('deliveries')
    .insert(
      stored.map((booking) => ({
        channel: 'email',
        booking_id: booking.id,
        kind: 'confirmation',
        time_slot: booking.time_slot,
        sequence: 0,
        ...confirmation,
      })),
    )
    .returning(['id', 'booking_id']);
  const byBooking = new Map(emails.map((email) => [email.booking_id, email.id]));
  return stored.map((booking) => ({ id: booking.id, emailId: byBooking.get(booking.id)! }));
}

/** The id of the booking's confirmation row. */
export async function confirmationOf(db: Knex, bookingId: string): Promise<string> {
  const row: { id: string } | undefined = await db('deliveries')
    .where({ booking_id: bookingId, kind: 'confirmation' })
    .first('id');
  if (!row) throw new Error(`booking ${bookingId} has no confirmation row`);
  return row.id;
}

/** The `deliver` job for the row as it is due now, as the API and the sweep enqueue it. */
export async function jobOfRow(db: Knex, id: string): Promise<QueuedJob> {
  const row: { due_at: Date } | undefined = await db('deliveries').where({ id }).first('due_at');
  if (!row) throw new Error(`no outbox row ${id}`);
  return deliveryJob(id, row.due_at.getTime());
}

/** One try of the row, whatever its due time, as a `deliver` job makes it, without the queue. */
export function deliverRow(deps: DeliveryDeps, id: string, signal?: AbortSignal): Promise<DeliveryOutcome> {
  return deliver(deliveryContext(deps), id, undefined, signal);
}
