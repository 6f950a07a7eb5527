/**
 * A booking's SQL: a new booking, a move and a cancellation through its link, each in one statement (`book`,
 * booking_move and booking_cancel, of db/functions/bookings.sql and booking-changes.sql; the rules and locks are booking-rules.sql's), and a
 * booking read; the operations list's is api/admin/bookings-list.ts.
 */
import type { Knex } from 'knex';
import type { NeedsNewTime } from '../../domain/sales.js';
import type { BookingCreated, BookingHost, DemoRequestInput } from '../../domain/demo-request.js';
import type { CanonicalRecipient } from '../email-rules.js';
import type { Booking } from '../../server-shared/invitation.js';
import { preparedQuery, type Db } from '../db.js';
import { emailsParameter, type EmailRow, type StoredRow } from './emails.js';
import type { StoredDelivery } from '../webhooks/repository.js';
import type { HostCandidate } from './hosts.js';
import type { RoutingAnswers } from '../../domain/routing.js';
import type { RoutingDraft } from './routed-hosts.js';

/** What `book` (db/functions/bookings.sql) is given: the booking and its rules. */
export interface BookingRequest {
  id: string;
  input: DemoRequestInput;
  /** The recipient as the ceilings and "one person holds a slot once" count it (canonicalRecipient). */
  recipient: CanonicalRecipient;
  /** The ceilings (0: off) and the slot's capacity. */
  limits: { perEmailPerDay: number; perDomainPerDay: number; emailsPerRecipientPerDay: number; slotCapacity: number };
  /** Its e-mails, stored in the outbox with it. */
  emails: readonly EmailRow[];
  /** The idempotency key and the request's hash, when the request carries a key. */
  idempotency?: { key: string; hash: string };
  /** The invitation's path in the answer, kept with the key. */
  invitePath: string;
  /** The booking's video room, kept across moves. */
  meetingUrl: string;
  /** With a team: the hosts who could take the slot, as hostCandidates found them; the host is chosen among them. */
  hosts?: readonly HostCandidate[];
  /** With a team: the account's owner among `hosts`, chosen when free; the answers and the routing record kept. */
  owner?: string;
  answers?: RoutingAnswers;
  routing?: RoutingDraft;
  /**
   * The texts' consent: the number (E.164) and the words the prospect ticked, kept with the booking's time; and the
   * digest of the texts' short link code (server-shared/booking-link.ts).
   */
  sms?: { phone: string; text: string; linkDigest: string };
}

/** Why a booking, or a move to a slot, was refused; nothing was stored. */
export type BookingRefusal =
  /** The bookings of the last 24 hours, and when the oldest of them leaves the window (by the database's clock). */
  | { reason: 'email-ceiling' | 'domain-ceiling'; count: number; freeAt: number | null; now: number }
  /** The recipient's e-mails of the last 24 hours, and when there will be room for this booking's (null: never). */
  | { reason: 'recipient-emails'; count: number; freeAt: number | null; now: number }
  | SlotRefusal
  | { reason: 'key-reused' };

/** Why the recipient cannot have a slot: they hold it already, or it is full. */
export interface SlotRefusal {
  reason: 'already-booked' | 'slot-taken';
}

/** What `book` came to: stored, the key's earlier answer replayed, or refused. */
export type BookResult =
  /** The 201 answer as `book` built it (booking_answer), and the e-mails stored with the booking. */
  | {
      outcome: 'stored';
      answer: BookingCreated;
      emails: StoredRow[];
      webhooks: StoredDelivery[];
    }
  | { outcome: 'replayed'; status: number; body: unknown }
  | { outcome: 'refused'; refusal: BookingRefusal };

interface BookRow {
  outcome: 'stored' | 'replayed';
  answer: unknown;
  emails: StoredRow[] | null;
  webhooks: StoredDelivery[] | null;
  replay_status: number;
}

/** Prepared once per connection (by the name book), then only bound and executed. */
const BOOK =
  'SELECT * FROM book($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25)';

/**
 * Books in one statement (one round trip): under the recipient domain's lock, the slot's lock and the hosts' locks,
 * in that order, the 24-hour ceilings (bookings per recipient and per domain, e-mails per recipient), the person's
 * own bookings and the slot's capacity (or, with a team, the choice of its host) are checked, then the row, its
 * e-mails and the key's answer are stored, all in the statement's transaction.
 */
export async function book(db: Db, request: BookingRequest): Promise<BookResult> {
  const { input } = request;
  const timeSlot = new Date(input.timeSlot);
  try {
    const rows = await preparedQuery<BookRow>(db, 'book', BOOK, [
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
      input.visitorTimeZone ?? null,
      request.limits.perEmailPerDay,
      request.limits.perDomainPerDay,
      request.limits.emailsPerRecipientPerDay,
      request.limits.slotCapacity,
      emailsParameter(request.emails),
      hostsParameter(request.hosts),
      request.meetingUrl,
      request.idempotency?.key ?? null,
      request.idempotency?.hash ?? null,
      request.invitePath,
      request.answers ? JSON.stringify(request.answers) : null,
      request.routing ? JSON.stringify(request.routing) : null,
      request.owner ?? null,
      request.sms ? JSON.stringify(request.sms) : null,
    ]);
    const row = rows[0];
    if (!row) throw new Error('book gave no row');
    if (row.outcome === 'replayed') return { outcome: 'replayed', status: row.replay_status, body: row.answer };
    return {
      outcome: 'stored',
      answer: row.answer as BookingCreated,
      emails: row.emails ?? [],
      webhooks: row.webhooks ?? [],
    };
  } catch (err) {
    const refusal = refusalOf<BookingRefusal>(err);
    if (refusal) return { outcome: 'refused', refusal };
    throw err;
  }
}

/** The hosts as `book`, book_trapped, booking_choose_host and booking_lock_hosts read them; null without a team. */
export function hostsParameter(hosts: readonly HostCandidate[]): string;
export function hostsParameter(hosts: readonly HostCandidate[] | undefined): string | null;
export function hostsParameter(hosts: readonly HostCandidate[] | undefined): string | null {
  if (!hosts) return null;
  return JSON.stringify(
    hosts.map((host, position) => ({
      position,
      email: host.email,
      name: host.name,
      title: host.title,
      weight: host.weight,
      daily_limit: host.dailyLimit ?? null,
      day_start: host.dayStart.toISOString(),
      day_end: host.dayEnd.toISOString(),
    })),
  );
}

/**
 * The refusal a statement of db/functions/booking*.sql raised ('booking refused', its reason in the detail: booking_refuse),
 * as `Refusal`, the reasons that statement raises; undefined for any other error.
 */
export function refusalOf<Refusal extends { reason: string }>(err: unknown): Refusal | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const { code, message, detail, constraint } = err as {
    code?: unknown;
    message?: unknown;
    detail?: unknown;
    constraint?: unknown;
  };
  // The database's own guard against one host twice at a time: what the locks already prevent, should it ever fire.
  if (code === '23P01' && constraint === 'bookings_host_once_at_a_time') return { reason: 'slot-taken' } as Refusal;
  if (
    code !== 'P0001' ||
    typeof message !== 'string' ||
    !message.endsWith('booking refused') ||
    typeof detail !== 'string'
  )
    return undefined;
  return JSON.parse(detail) as Refusal;
}

/** The booking's "needs a new time" as the sales views show it, from its two columns. */
export function needsNewTimeOf(row: {
  status: string;
  needs_new_time_at?: Date | null;
  needs_new_time_reason?: string | null;
}): NeedsNewTime | null {
  if (row.status !== 'booked' || !row.needs_new_time_at) return null;
  return {
    since: row.needs_new_time_at.toISOString(),
    reason: row.needs_new_time_reason === 'host-declined' ? 'host-declined' : 'host-deleted',
  };
}

/** How far either side of the slots asked a host's bookings are read: a day in any zone, for their daily limits. */
export const HOST_BOOKINGS_MARGIN_MS = 36 * 3_600_000;

/** Each host's booked slots and the slots they gave up (their starts, in ms) from HOST_BOOKINGS_MARGIN_MS before the first of `slots` to as long after the last. */
export async function hostBookingsAround(
  db: Db,
  slots: readonly Date[],
): Promise<ReadonlyMap<string, readonly number[]>> {
  const byHost = new Map<string, number[]>();
  if (slots.length === 0) return byHost;
  const margin = HOST_BOOKINGS_MARGIN_MS;
  const rows: { host_email: string; time_slot: Date }[] = await db('bookings')
    .select('host_email', 'time_slot')
    .where({ status: 'booked' })
    .whereNotNull('host_email')
    .where('time_slot', '>=', new Date(slots[0]!.getTime() - margin))
    .where('time_slot', '<=', new Date(slots[slots.length - 1]!.getTime() + margin));
  // A slot a host gave up by deleting or declining its event (booking_host_answer) is never offered by them again.
  const freed: { host_email: string; time_slot: Date }[] = await db('host_freed_slots')
    .select('host_email', 'time_slot')
    .where('time_slot', '>=', new Date(slots[0]!.getTime() - margin))
    .where('time_slot', '<=', new Date(slots[slots.length - 1]!.getTime() + margin));
  for (const row of [...rows, ...freed]) {
    const held = byHost.get(row.host_email) ?? [];
    held.push(row.time_slot.getTime());
    byHost.set(row.host_email, held);
  }
  return byHost;
}

/** How many bookings each of the given slots holds (slots with none are left out). */
export async function bookingsPerSlot(db: Db, slots: readonly Date[]): Promise<Map<string, number>> {
  const rows: { time_slot: Date; n: number }[] = await db('bookings')
    .select('time_slot')
    .count({ n: '*' })
    .whereIn('time_slot', slots)
    .where({ status: 'booked' })
    .groupBy('time_slot');
  return new Map(rows.map((row) => [row.time_slot.toISOString(), Number(row.n)]));
}

export interface BookingState extends Booking {
  status: 'booked' | 'cancelled';
  sequence: number;
  meetingUrl: string | null;
  /** Who gives the demo, with their address; null without a team. */
  host: (BookingHost & { email: string }) | null;
  /** Retention removed its personal data (worker/retention.ts): its link shows nothing any more. */
  anonymised: boolean;
}

const COLUMNS = [
  'id',
  'name',
  'email',
  'company',
  'time_slot',
  'status',
  'sequence',
  'meeting_url',
  'host_email',
  'host_name',
  'host_title',
  'anonymised_at',
] as const;

export interface BookingRow {
  id: string;
  name: string;
  email: string;
  company: string;
  time_slot: Date;
  status: 'booked' | 'cancelled';
  sequence: number;
  meeting_url: string | null;
  host_email: string | null;
  host_name: string | null;
  host_title: string | null;
  anonymised_at: Date | null;
}

export function stateOf(row: BookingRow): BookingState {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    company: row.company,
    timeSlot: row.time_slot,
    status: row.status,
    sequence: row.sequence,
    meetingUrl: row.meeting_url,
    host:
      row.host_email === null
        ? null
        : { email: row.host_email, name: row.host_name ?? '', title: row.host_title ?? '' },
    anonymised: row.anonymised_at !== null,
  };
}

/** One booking by its id; undefined when there is none. */
export async function findBooking(db: Db | Knex.Transaction, id: string): Promise<BookingState | undefined> {
  const row: BookingRow | undefined = await db('bookings')
    .where({ id })
    .first(...COLUMNS);
  return row && stateOf(row);
}

/** What routes a booking again when it moves: its prospect's e-mail, their answers (null: booked without routing), its host. */
export async function routingInputOf(
  db: Db,
  id: string,
): Promise<{ email: string; answers: RoutingAnswers | null; hostEmail: string | null } | undefined> {
  const row: { email: string; answers: RoutingAnswers | null; host_email: string | null } | undefined = await db(
    'bookings',
  )
    .where({ id })
    .first('email', 'answers', 'host_email');
  return row && { email: row.email, answers: row.answers, hostEmail: row.host_email };
}
