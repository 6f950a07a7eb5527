/** SQL for the requests the honeypot caught (trapped_bookings): stored, read as a booking, purged. */
import type { Knex } from 'knex';
import type { BookingCreated, DemoRequestInput } from '../../domain/demo-request.js';
import type { BookingState } from './repository.js';
import type { Db } from '../db.js';

/** A week after its slot, a trapped request's link stops opening (as any unknown link: 404). */
const TRAPPED_KEPT_DAYS_AFTER_SLOT = 7;

/**
 * Stores what a trapped request's link will show, and gives the 201 a booking gets, built as `book` builds it
 * (booking_answer), its time of creation by the database's clock.
 */
export async function storeTrapped(db: Db, id: string, input: DemoRequestInput, invitePath: string): Promise<BookingCreated> {
  const [row] = (await db('trapped_bookings')
    .insert({ id, name: input.name, email: input.email, company: input.company, time_slot: new Date(input.timeSlot) })
    .returning(db.raw('booking_answer(id, created_at, time_slot, ?) AS answer', [invitePath]))) as { answer: BookingCreated }[];
  if (!row) throw new Error('the trapped request was not stored');
  return row.answer;
}

/** A trapped request as its booking link shows it: booked, never changed. */
export async function findTrapped(db: Db | Knex.Transaction, id: string): Promise<BookingState | undefined> {
  const row: { id: string; name: string; email: string; company: string; time_slot: Date } | undefined = await db('trapped_bookings')
    .where({ id })
    .first('id', 'name', 'email', 'company', 'time_slot');
  return row && { id: row.id, name: row.name, email: row.email, company: row.company, timeSlot: row.time_slot, status: 'booked', sequence: 0 };
}

export async function purgeTrapped(db: Db): Promise<number> {
  return db('trapped_bookings')
    .where('time_slot', '<', db.raw(`now() - interval '${TRAPPED_KEPT_DAYS_AFTER_SLOT} days'`))
    .del();
}
