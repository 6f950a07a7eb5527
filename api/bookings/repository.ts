/** SQL for a booking reached through its link: read it, lock it for a change, move it, cancel it. */
import type { Knex } from 'knex';
import type { Booking } from '../../server-shared/invitation.js';
import type { Db } from '../db.js';

export interface BookingState extends Booking {
  status: 'booked' | 'cancelled';
  sequence: number;
}

const COLUMNS = ['id', 'name', 'email', 'company', 'time_slot', 'status', 'sequence'] as const;

interface BookingRow {
  id: string;
  name: string;
  email: string;
  company: string;
  time_slot: Date;
  status: 'booked' | 'cancelled';
  sequence: number;
}

function stateOf(row: BookingRow): BookingState {
  return { id: row.id, name: row.name, email: row.email, company: row.company, timeSlot: row.time_slot, status: row.status, sequence: row.sequence };
}

/** One booking by its id; undefined when there is none. */
export async function findBooking(db: Db | Knex.Transaction, id: string): Promise<BookingState | undefined> {
  const row: BookingRow | undefined = await db('demo_requests').where({ id }).first(...COLUMNS);
  return row && stateOf(row);
}

/** The booking, locked until the transaction ends: two changes to one booking take turns. */
export async function lockBooking(trx: Knex.Transaction, id: string): Promise<BookingState | undefined> {
  const row: BookingRow | undefined = await trx('demo_requests').where({ id }).forUpdate().first(...COLUMNS);
  return row && stateOf(row);
}

/** The slot's lock, its one parameter the slot's ISO instant. */
export const SLOT_LOCK = "pg_advisory_xact_lock(hashtextextended('slot:' || ?, 0))";

/**
 * Serialises the bookings of one slot until the transaction ends: the same lock a new booking takes for its slot
 * (book_demo, migrations/20261125100000_add_book_demo_function.ts), so a move and a booking never both take the last place.
 */
export async function lockSlot(trx: Knex.Transaction, timeSlot: Date): Promise<void> {
  await trx.raw(`SELECT ${SLOT_LOCK}`, [timeSlot.toISOString()]);
}

/** The bookings that hold the slot, and whether one of them is this recipient's (its canonical address). */
export async function slotHolders(trx: Knex.Transaction, timeSlot: Date, recipient: string): Promise<{ held: number; mine: boolean }> {
  const row = await trx('demo_requests')
    .where({ time_slot: timeSlot, status: 'booked' })
    .first(trx.raw('count(*)::int AS held'), trx.raw('coalesce(bool_or(recipient = ?), false) AS mine', [recipient]));
  return { held: row?.held ?? 0, mine: row?.mine ?? false };
}

/**
 * Serialises what is counted per recipient until the transaction ends: the lock book_demo takes first, per recipient
 * domain (its canonical form), so a change and a booking, or two changes, never both pass a ceiling.
 */
export async function lockRecipientDomain(trx: Knex.Transaction, domain: string): Promise<void> {
  await trx.raw("SELECT pg_advisory_xact_lock(hashtextextended('recipient-domain:' || ?, 0))", [domain]);
}

/**
 * Whether the recipient's e-mails of the last 24 hours, the change's own already stored, pass `ceiling`; if they do,
 * when they will not (by the database's clock, in ms; null: not within a day) and the database's reading of now.
 */
export async function recipientEmailsPast(
  trx: Knex.Transaction,
  recipient: string,
  ceiling: number,
): Promise<{ refused: boolean; freeAt: number | null; now: number }> {
  const { rows } = await trx.raw(
    'SELECT refused, extract(epoch FROM free_at) * 1000 AS free_at, extract(epoch FROM now()) * 1000 AS now FROM recipient_email_ceiling(?, 0, ?)',
    [recipient, ceiling],
  );
  const row = rows[0] as { refused: boolean; free_at: string | null; now: string };
  return { refused: row.refused, freeAt: row.free_at === null ? null : Number(row.free_at), now: Number(row.now) };
}

export async function moveBooking(trx: Knex.Transaction, id: string, timeSlot: Date): Promise<BookingState> {
  const [row] = await trx('demo_requests')
    .where({ id })
    .update({ time_slot: timeSlot, sequence: trx.raw('sequence + 1') })
    .returning([...COLUMNS]);
  return stateOf(row);
}

export async function cancelBooking(trx: Knex.Transaction, id: string): Promise<BookingState> {
  const [row] = await trx('demo_requests')
    .where({ id })
    .update({ status: 'cancelled', cancelled_at: trx.fn.now(), sequence: trx.raw('sequence + 1') })
    .returning([...COLUMNS]);
  return stateOf(row);
}
