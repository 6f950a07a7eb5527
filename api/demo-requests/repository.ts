/** SQL for demo requests lives here and nowhere else in the API. */
import type { EmailRow } from '../bookings/follow-ups.js';
import type { BookingEmailKind } from '../../server-shared/jobs.js';
import { preparedQuery, type Db } from '../db.js';
import type { Attribution } from '../../domain/attribution.js';
import type { DemoRequestInput } from '../../domain/demo-request.js';
import type { CanonicalRecipient } from '../../server-shared/email-rules.js';

export interface DemoRequestSummary {
  id: string;
  name: string;
  email: string;
  company: string;
  timeSlot: string;
  status: 'booked' | 'cancelled';
  createdAt: string;
  attribution: Attribution | null;
  /** droppedAt: the booking was moved or cancelled before its confirmation went out, which then never goes. */
  confirmation: { sentAt: string | null; failedAt: string | null; droppedAt: string | null; attempts: number; lastError: string | null };
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
      droppedAt: row.confirmation_dropped_at ? row.confirmation_dropped_at.toISOString() : null,
      attempts: row.confirmation_attempts,
      lastError: row.confirmation_last_error,
    },
  }));
}

/** What book_demo (migrations/20261128110000_count_canonical_recipients.ts) is given: the booking and its rules. */
export interface BookingRequest {
  id: string;
  input: DemoRequestInput;
  /** The recipient as the ceilings and "one person holds a slot once" count it (canonicalRecipient). */
  recipient: CanonicalRecipient;
  /** The ceilings (0: off) and the slot's capacity. */
  limits: { perEmailPerDay: number; perDomainPerDay: number; emailsPerRecipientPerDay: number; slotCapacity: number };
  followUps: readonly EmailRow[];
  /** The idempotency key and the request's hash, when the request carries a key. */
  idempotency?: { key: string; hash: string };
  /** The invitation's path in the answer, kept with the key. */
  invitePath: string;
}

/** Why book_demo refused a booking; nothing was stored. */
export type BookingRefusal =
  | { reason: 'email-ceiling' | 'domain-ceiling'; count: number; oldest: number | null; now: number }
  /** The recipient's e-mails of the last 24 hours, and when there will be room for this booking's (null: never). */
  | { reason: 'recipient-emails'; count: number; freeAt: number | null; now: number }
  | { reason: 'already-booked' | 'slot-taken' | 'key-reused' };

export type BookingOutcome =
  | { outcome: 'stored'; createdAt: Date; emails: { id: string; kind: BookingEmailKind }[] }
  | { outcome: 'replayed'; status: number; body: unknown }
  | { outcome: 'refused'; refusal: BookingRefusal };

interface BookDemoRow {
  outcome: 'stored' | 'replayed';
  created_at: Date | null;
  emails: { id: string; kind: BookingEmailKind }[] | null;
  replay_status: number | null;
  replay_body: unknown;
}

/** Prepared once per connection (by the name book_demo), then only bound and executed. */
const BOOK_DEMO = 'SELECT * FROM book_demo($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)';

/**
 * Books in one statement (one round trip): under the recipient domain's lock and the slot's lock, in that order,
 * the 24-hour ceilings (bookings per recipient and per domain, e-mails per recipient), the slot's capacity and the
 * person's own bookings are checked, then the row, its follow-up rows and the key's answer are stored, all in the
 * statement's transaction.
 */
export async function bookDemo(db: Db, request: BookingRequest): Promise<BookingOutcome> {
  const { input } = request;
  const timeSlot = new Date(input.timeSlot);
  try {
    const rows = await preparedQuery<BookDemoRow>(db, 'book_demo', BOOK_DEMO, [
      request.id,
      input.name,
      input.email,
      request.recipient.address,
      request.recipient.domain,
      input.company,
      input.phone ?? null,
      input.message ?? null,
      timeSlot,
      input.attribution ? JSON.stringify(input.attribution) : null,
      // The slot lock's key is the slot's ISO instant, as lockSlot writes it.
      timeSlot.toISOString(),
      request.limits.perEmailPerDay,
      request.limits.perDomainPerDay,
      request.limits.emailsPerRecipientPerDay,
      request.limits.slotCapacity,
      JSON.stringify(request.followUps.map((row) => ({ kind: row.kind, recipient: row.recipient ?? null, change: row.change ?? null, due_at: row.due_at ?? null }))),
      request.idempotency?.key ?? null,
      request.idempotency?.hash ?? null,
      request.invitePath,
    ]);
    const row = rows[0];
    if (!row) throw new Error('book_demo gave no row');
    if (row.outcome === 'replayed') return { outcome: 'replayed', status: row.replay_status ?? 0, body: row.replay_body };
    if (!row.created_at) throw new Error('book_demo stored a booking without its creation time');
    return { outcome: 'stored', createdAt: row.created_at, emails: row.emails ?? [] };
  } catch (err) {
    const refusal = refusalOf(err);
    if (refusal) return { outcome: 'refused', refusal };
    throw err;
  }
}

function refusalOf(err: unknown): BookingRefusal | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const { code, message, detail } = err as { code?: unknown; message?: unknown; detail?: unknown };
  if (code !== 'P0001' || typeof message !== 'string' || !message.endsWith('booking refused') || typeof detail !== 'string') return undefined;
  return JSON.parse(detail) as BookingRefusal;
}

/** How many bookings each of the given slots holds (slots with none are left out). */
/** Whether the recipient (its canonical address) already holds the slot: book_demo's first question of a slot. */
export async function holdsSlot(db: Db, recipient: string, timeSlot: Date): Promise<boolean> {
  return (await db('demo_requests').where({ recipient, time_slot: timeSlot, status: 'booked' }).first('id')) !== undefined;
}

export async function bookingsPerSlot(db: Db, slots: readonly Date[]): Promise<Map<string, number>> {
  const rows: { time_slot: Date; n: number }[] = await db('demo_requests')
    .select('time_slot')
    .count({ n: '*' })
    .whereIn('time_slot', slots)
    .where({ status: 'booked' })
    .groupBy('time_slot');
  return new Map(rows.map((row) => [row.time_slot.toISOString(), Number(row.n)]));
}
