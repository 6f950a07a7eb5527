/** SQL for the requests the honeypot caught (trapped_bookings): stored, read as a booking, purged. */
import type { Knex } from 'knex';
import type { BookingCreated, BookingHost, DemoRequestInput } from '../../domain/demo-request.js';
import { stateOf, type BookingRow, type BookingState } from './repository.js';
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

/** A trapped request as its booking link shows it: booked, never changed, its host named but no address made up. */
export async function findTrapped(db: Db | Knex.Transaction, id: string): Promise<BookingState | undefined> {
  const row: BookingRow | undefined = await db('trapped_bookings')
    .where({ id })
    .first(
      'id',
      'name',
      'email',
      'company',
      'time_slot',
      db.raw("'booked' AS status"),
      db.raw('0 AS sequence'),
      'meeting_url',
      db.raw("CASE WHEN host_name IS NULL THEN NULL ELSE '' END AS host_email"),
      'host_name',
      'host_title',
      db.raw('NULL::timestamptz AS anonymised_at'),
    );
  return row && stateOf(row);
}

export async function purgeTrapped(db: Db): Promise<number> {
  return db('trapped_bookings')
    .where('time_slot', '<', db.raw(`now() - interval '${TRAPPED_KEPT_DAYS_AFTER_SLOT} days'`))
    .del();
}
