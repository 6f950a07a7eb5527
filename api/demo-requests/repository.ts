/** SQL for demo requests lives here and nowhere else in the API. */
import type { Knex } from 'knex';
import { SLOT_LOCK } from '../bookings/repository.js';
import type { Db } from '../db.js';
import type { Attribution } from '../../domain/attribution.js';
import type { DemoRequestInput } from '../../domain/demo-request.js';

export interface StoredDemoRequest {
  id: string;
  createdAt: Date;
  timeSlot: Date;
}

export interface DemoRequestSummary {
  id: string;
  name: string;
  email: string;
  company: string;
  timeSlot: string;
  status: 'booked' | 'cancelled';
  createdAt: string;
  attribution: Attribution | null;
  confirmation: { sentAt: string | null; failedAt: string | null; attempts: number; lastError: string | null };
}

export async function listRecentDemoRequests(db: Db, limit: number): Promise<DemoRequestSummary[]> {
  const rows = await db('demo_requests').select('*').orderBy('created_at', 'desc').limit(limit);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    email: row.email,
    company: row.company,
    timeSlot: row.time_slot.toISOString(),
    status: row.status,
    createdAt: row.created_at.toISOString(),
    attribution: row.attribution ?? null,
    confirmation: {
      sentAt: row.confirmation_sent_at ? row.confirmation_sent_at.toISOString() : null,
      failedAt: row.confirmation_failed_at ? row.confirmation_failed_at.toISOString() : null,
      attempts: row.confirmation_attempts,
      lastError: row.confirmation_last_error,
    },
  }));
}

/** The recipient's domain as the limits count it: what follows the last @, in lower case. */
const DOMAIN_OF_EMAIL = "lower(substring(email from '[^@]*$'))";

/**
 * Serialises the bookings that could compete with this one, until the transaction ends: those to the same
 * recipient domain (their 24-hour ceilings) and those for the same slot (its capacity). Always in this order,
 * so two bookings never wait on each other.
 */
export async function lockBookingScope(trx: Knex.Transaction, domain: string, timeSlot: Date): Promise<void> {
  // One round trip: PostgreSQL evaluates a select list from left to right, so the order holds.
  await trx.raw(`SELECT pg_advisory_xact_lock(hashtextextended('recipient-domain:' || ?, 0)), ${SLOT_LOCK}`, [domain, timeSlot.toISOString()]);
}

export interface BookingCounts {
  /** Bookings to this address in the last 24 hours, and when the oldest of them was made. */
  byEmail: number;
  oldestByEmail: Date | null;
  byDomain: number;
  oldestByDomain: Date | null;
  /** Bookings that hold the slot (not cancelled), and whether one of them is this address's. */
  inSlot: number;
  mineInSlot: boolean;
  /** The database's clock, which created_at follows. */
  now: Date;
}

export async function countBookings(trx: Knex.Transaction, email: string, domain: string, timeSlot: Date): Promise<BookingCounts> {
  const { rows } = await trx.raw(
    `SELECT by_email.n AS by_email, by_email.oldest AS oldest_by_email,
            by_domain.n AS by_domain, by_domain.oldest AS oldest_by_domain,
            in_slot.n AS in_slot, in_slot.mine AS mine_in_slot, now() AS now
       FROM (SELECT count(*)::int AS n, min(created_at) AS oldest FROM demo_requests
              WHERE lower(email) = lower(?) AND created_at > now() - interval '24 hours') AS by_email,
            (SELECT count(*)::int AS n, min(created_at) AS oldest FROM demo_requests
              WHERE ${DOMAIN_OF_EMAIL} = ? AND created_at > now() - interval '24 hours') AS by_domain,
            (SELECT count(*)::int AS n, coalesce(bool_or(lower(email) = lower(?)), false) AS mine FROM demo_requests
              WHERE time_slot = ? AND status = 'booked') AS in_slot`,
    [email, domain, email, timeSlot],
  );
  const row = rows[0];
  return {
    byEmail: row.by_email,
    oldestByEmail: row.oldest_by_email,
    byDomain: row.by_domain,
    oldestByDomain: row.oldest_by_domain,
    inSlot: row.in_slot,
    mineInSlot: row.mine_in_slot,
    now: row.now,
  };
}

/** How many bookings each of the given slots holds (slots with none are left out). */
export async function bookingsPerSlot(db: Db, slots: readonly Date[]): Promise<Map<string, number>> {
  const rows: { time_slot: Date; n: number }[] = await db('demo_requests')
    .select('time_slot')
    .count({ n: '*' })
    .whereIn('time_slot', slots)
    .where({ status: 'booked' })
    .groupBy('time_slot');
  return new Map(rows.map((row) => [row.time_slot.toISOString(), Number(row.n)]));
}

export async function insertDemoRequest(db: Db | Knex.Transaction, input: DemoRequestInput): Promise<StoredDemoRequest> {
  // The row carries its pending confirmation (sent_at null): the outbox and the request land together.
  const [row] = await db('demo_requests')
    .insert({
      name: input.name,
      email: input.email,
      company: input.company,
      phone: input.phone ?? null,
      message: input.message ?? null,
      time_slot: new Date(input.timeSlot),
      attribution: input.attribution ?? null,
    })
    .returning(['id', 'created_at', 'time_slot']);
  if (!row) throw new Error('INSERT … RETURNING gave no row');
  return { id: row.id, createdAt: row.created_at, timeSlot: row.time_slot };
}
