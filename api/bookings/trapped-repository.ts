/** SQL for the requests the honeypot caught (trapped_bookings): stored, read as a booking, purged. */
import type { Knex } from 'knex';
import type { BookingCreated, BookingHost, DemoRequestInput } from '../../domain/demo-request.js';
import type { BookingState } from './repository.js';
import type { Db } from '../db.js';

/** A week after its slot, a trapped request's link stops opening (as any unknown link: 404). */
const TRAPPED_KEPT_DAYS_AFTER_SLOT = 7;

/** What a trapped request is answered with beside its body: the links and the host a booking would have had. */
export interface TrappedLook {
  invitePath: string;
  meetingUrl: string;
  host: BookingHost | undefined;
}

/**
 * Stores what a trapped request's link will show, and gives the 201 a booking gets, built as `book` builds it
 * (booking_answer), its time of creation by the database's clock.
 */
export async function storeTrapped(db: Db, id: string, input: DemoRequestInput, look: TrappedLook): Promise<BookingCreated> {
  const host = look.host ? { name: look.host.name, title: look.host.title } : null;
  const [row] = (await db('trapped_bookings')
    .insert({
      id,
      name: input.name,
      email: input.email,
      company: input.company,
      time_slot: new Date(input.timeSlot),
      meeting_url: look.meetingUrl,
      host_name: host?.name ?? null,
      host_title: host?.title ?? null,
    })
    .returning(
      db.raw('booking_answer(id, created_at, time_slot, ?, meeting_url, ?::jsonb) AS answer', [look.invitePath, host ? JSON.stringify(host) : null]),
    )) as { answer: BookingCreated }[];
  if (!row) throw new Error('the trapped request was not stored');
  return row.answer;
}

/** A trapped request as its booking link shows it: booked, never changed. */
export async function findTrapped(db: Db | Knex.Transaction, id: string): Promise<BookingState | undefined> {
  const row:
    | { id: string; name: string; email: string; company: string; time_slot: Date; meeting_url: string | null; host_name: string | null; host_title: string | null }
    | undefined = await db('trapped_bookings').where({ id }).first('id', 'name', 'email', 'company', 'time_slot', 'meeting_url', 'host_name', 'host_title');
  if (!row) return undefined;
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    company: row.company,
    timeSlot: row.time_slot,
    status: 'booked',
    sequence: 0,
    meetingUrl: row.meeting_url,
    // Only the name and title show; no address is made up for a host the catch never had.
    host: row.host_name === null ? null : { email: '', name: row.host_name, title: row.host_title ?? '' },
  };
}

export async function purgeTrapped(db: Db): Promise<number> {
  return db('trapped_bookings')
    .where('time_slot', '<', db.raw(`now() - interval '${TRAPPED_KEPT_DAYS_AFTER_SLOT} days'`))
    .del();
}
