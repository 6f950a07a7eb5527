/**
 * The worker's SQL for its outboxes: the confirmation's columns on bookings, and booking_emails, the rows of
 * every later e-mail about a booking. Both are claimed with a lease, marked sent, and failed the same way.
 */
import type { Knex } from 'knex';
import type { BookingEmailKind } from '../server-shared/jobs.js';
import type { Booking } from '../server-shared/invitation.js';
import { PROSPECT_EMAIL_KINDS, settleEarlierProspectEmails, unsettledEarlierProspectEmails } from '../server-shared/prospect-emails.js';
import type { Attribution } from '../domain/attribution.js';
import { batched } from './batch.js';

/**
 * How long a claim holds. Longer than a send may take (the transport gives up on a silent server after 30 s), so a
 * live worker never loses its claim mid-send; a dead worker's claim runs out and the sweep hands the row on.
 */
export const CLAIM_LEASE_MS = 60_000;

/** Where an outbox keeps the state of its e-mails. */
export interface Outbox {
  table: 'bookings' | 'booking_emails';
  sentAt: string;
  claimedUntil: string;
  failedAt: string;
  attempts: string;
  lastError: string;
  /** Set on a row that is no longer to be sent: its booking moved on before it went out. */
  droppedAt: string;
}

export const CONFIRMATIONS: Outbox = {
  table: 'bookings',
  sentAt: 'confirmation_sent_at',
  claimedUntil: 'confirmation_claimed_until',
  failedAt: 'confirmation_failed_at',
  attempts: 'confirmation_attempts',
  lastError: 'confirmation_last_error',
  droppedAt: 'confirmation_dropped_at',
};

export const BOOKING_EMAILS: Outbox = {
  table: 'booking_emails',
  sentAt: 'sent_at',
  claimedUntil: 'claimed_until',
  failedAt: 'failed_at',
  attempts: 'attempts',
  lastError: 'last_error',
  droppedAt: 'dropped_at',
};

export type ClaimRefusal = 'missing' | 'already-sent' | 'refused' | 'dropped' | 'claimed-elsewhere';
/** An e-mail not sent now because an earlier one about its booking is still in flight; its job tries again shortly. */
export type Postponed = 'waiting';
export type Claim<Row> = { claimed: true; row: Row } | { claimed: false; reason: ClaimRefusal };

/** Rows still to send (neither sent, refused for good nor dropped) and held by no live claim. */
function openToClaim(query: Knex.QueryBuilder, db: Knex, outbox: Outbox): Knex.QueryBuilder {
  query.whereNull(outbox.sentAt).whereNull(outbox.failedAt).whereNull(outbox.droppedAt);
  return query.where((open) => open.whereNull(outbox.claimedUntil).orWhere(outbox.claimedUntil, '<', db.fn.now()));
}

/** Row ids are UUIDs; anything else would fail the whole batch it went to the database in. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Per database handle, the batches of claims (by outbox, columns and lease) and of marks (by outbox). */
const claimBatches = new WeakMap<Knex, Map<string, (id: string) => Promise<Record<string, unknown> | undefined>>>();
const markBatches = new WeakMap<Knex, Map<string, (id: string) => Promise<true | undefined>>>();

function batchOf<V>(cache: WeakMap<Knex, Map<string, (id: string) => Promise<V | undefined>>>, db: Knex, key: string, run: (ids: string[]) => Promise<Map<string, V>>) {
  let byKey = cache.get(db);
  if (!byKey) cache.set(db, (byKey = new Map()));
  let batch = byKey.get(key);
  if (!batch) byKey.set(key, (batch = batched(run)));
  return batch;
}

/**
 * Claims the pending rows among `ids` in one statement and returns them by id. The rows are locked in the order of
 * their ids (as every batch locks them), so that two workers' batches cannot wait on each other; each row's
 * openness is checked again once its lock is held, so of two claims of one row only one gets it.
 */
async function claimMany(db: Knex, outbox: Outbox, ids: string[], columns: readonly string[], leaseMs: number): Promise<Map<string, Record<string, unknown>>> {
  const { rows } = (await db.raw(claimSql(outbox, columns), [leaseMs / 1000, uuidArray(ids)])) as { rows: Record<string, unknown>[] };
  return new Map(rows.map((row) => [row.id as string, row]));
}

/**
 * The statements of the hot path are written out once per outbox (and columns) rather than built by knex for each
 * batch; knex only runs them. Identifiers come from this file and the job kinds, never from a job.
 */
const statements = new Map<string, string>();
const quoted = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;
const openSql = (outbox: Outbox) =>
  [outbox.sentAt, outbox.failedAt, outbox.droppedAt].map((column) => `${quoted(column)} is null`).join(' and ') +
  ` and (${quoted(outbox.claimedUntil)} is null or ${quoted(outbox.claimedUntil)} < CURRENT_TIMESTAMP)`;

/** The same statement openToClaim and knex's builder would make: rows locked in id order, openness checked again. */
function claimSql(outbox: Outbox, columns: readonly string[]): string {
  const key = `claim:${outbox.table}:${columns.join(',')}`;
  let sql = statements.get(key);
  if (sql === undefined) {
    const table = quoted(outbox.table);
    const returning = ['id', ...columns.filter((column) => column !== 'id')].map(quoted).join(', ');
    sql =
      `update ${table} set ${quoted(outbox.claimedUntil)} = now() + make_interval(secs => ?) ` +
      `where "id" in (select "id" from ${table} where "id" = any(?::uuid[]) and ${openSql(outbox)} order by "id" asc for update) ` +
      `and ${openSql(outbox)} returning ${returning}`;
    statements.set(key, sql);
  }
  return sql;
}

function markSentSql(outbox: Outbox): string {
  const key = `mark:${outbox.table}`;
  let sql = statements.get(key);
  if (sql === undefined) {
    sql =
      `update ${quoted(outbox.table)} set ${quoted(outbox.sentAt)} = CURRENT_TIMESTAMP, ${quoted(outbox.claimedUntil)} = null, ` +
      `${quoted(outbox.lastError)} = null, ${quoted(outbox.attempts)} = ${quoted(outbox.attempts)} + 1 where "id" = any(?::uuid[])`;
    statements.set(key, sql);
  }
  return sql;
}

/** The ids as one PostgreSQL array literal: one bound value however many ids (each checked to be a UUID). */
function uuidArray(ids: readonly string[]): string {
  if (!ids.every((id) => UUID.test(id))) throw new Error('an outbox row id that is not a UUID');
  return `{${ids.join(',')}}`;
}

/**
 * Claims the row's pending e-mail for this worker: only one of two workers handed the same job at once gets it. A
 * claim past its lease may be taken over. Returns the row's `columns`. Claims made in the same turn of the event
 * loop go to the database together.
 */
export async function claim<Row>(db: Knex, outbox: Outbox, id: string, columns: readonly string[], leaseMs = CLAIM_LEASE_MS): Promise<Claim<Row>> {
  // No row of this database has an id that is not a UUID.
  if (!UUID.test(id)) return { claimed: false, reason: 'missing' };
  const claimOne = batchOf(claimBatches, db, `${outbox.table}:${leaseMs}:${columns.join(',')}`, (ids) => claimMany(db, outbox, ids, columns, leaseMs));
  const row = await claimOne(id);
  if (row) return { claimed: true, row: row as Row };
  const current = await db(outbox.table)
    .select(outbox.sentAt, outbox.failedAt, outbox.droppedAt)
    .where({ id })
    .first();
  if (!current) return { claimed: false, reason: 'missing' };
  if (current[outbox.sentAt]) return { claimed: false, reason: 'already-sent' };
  if (current[outbox.failedAt]) return { claimed: false, reason: 'refused' };
  if (current[outbox.droppedAt]) return { claimed: false, reason: 'dropped' };
  return { claimed: false, reason: 'claimed-elsewhere' };
}

async function markManySent(db: Knex, outbox: Outbox, ids: string[]): Promise<Map<string, true>> {
  await db.raw(markSentSql(outbox), [uuidArray(ids)]);
  return new Map(ids.map((id) => [id, true]));
}

/** Marks the row sent; marks made in the same turn of the event loop go to the database together. */
export async function markSent(db: Knex, outbox: Outbox, id: string): Promise<void> {
  await batchOf(markBatches, db, outbox.table, (ids) => markManySent(db, outbox, ids))(id);
}

/** Records a failed try and lets go of the claim; a permanent failure (refused for good) also ends the tries. */
export async function recordFailure(db: Knex, outbox: Outbox, id: string, error: string, permanent: boolean): Promise<void> {
  await db(outbox.table)
    .where({ id })
    .update({
      [outbox.claimedUntil]: null,
      [outbox.lastError]: error.slice(0, 2000),
      [outbox.attempts]: db.raw('?? + 1', [outbox.attempts]),
      ...(permanent ? { [outbox.failedAt]: db.fn.now() } : {}),
    });
}

/** A claimed e-mail that is no longer true (its booking moved or was cancelled): never to be sent. */
export async function markDropped(db: Knex, outbox: Outbox, id: string): Promise<void> {
  await db(outbox.table)
    .where({ id })
    .update({ [outbox.droppedAt]: db.fn.now(), [outbox.claimedUntil]: null });
}

/**
 * Whether the booking_emails row must wait its turn: it goes to the prospect and an earlier e-mail about its booking
 * (a lower sequence) is still in flight. Earlier ones still to send and under no live claim are dropped first, since
 * this row's change has overtaken them (server-shared/prospect-emails.ts).
 */
export async function behindEarlierEmail(db: Knex, id: string): Promise<boolean> {
  if (!UUID.test(id)) return false;
  const row: { booking_id: string; kind: BookingEmailKind; sequence: number } | undefined = await db('booking_emails')
    .where({ id })
    .first('booking_id', 'kind', 'sequence');
  if (!row || !PROSPECT_EMAIL_KINDS.includes(row.kind)) return false;
  await settleEarlierProspectEmails(db, row.booking_id, row.sequence);
  return (await unsettledEarlierProspectEmails(db, row.booking_id, row.sequence)) > 0;
}

/** Confirmations still pending after the grace period and not claimed by a live worker, oldest first. */
export async function findStalePending(db: Knex, graceMs: number, maxAttempts: number, limit = 500): Promise<string[]> {
  const rows: { id: string }[] = await openToClaim(db('bookings').select('id'), db, CONFIRMATIONS)
    .where('created_at', '<', db.raw('now() - make_interval(secs => ?)', [graceMs / 1000]))
    .where('confirmation_attempts', '<', maxAttempts)
    .orderBy('created_at')
    .limit(limit);
  return rows.map((row) => row.id);
}

/** Booking e-mails of a kind due `graceMs` ago or earlier and not claimed by a live worker, oldest first. */
export async function findDueBookingEmails(db: Knex, kind: BookingEmailKind, graceMs: number, maxAttempts: number, limit = 500): Promise<string[]> {
  const rows: { id: string }[] = await openToClaim(db('booking_emails').select('id'), db, BOOKING_EMAILS)
    .where({ kind })
    .where('due_at', '<=', db.raw('now() - make_interval(secs => ?)', [graceMs / 1000]))
    .where('attempts', '<', maxAttempts)
    .orderBy('due_at')
    .limit(limit);
  return rows.map((row) => row.id);
}

/** A booking_emails row as its worker claims it. */
export interface BookingEmailRow {
  id: string;
  booking_id: string;
  kind: BookingEmailKind;
  time_slot: Date;
  sequence: number;
  recipient: string | null;
  change: 'booked' | 'rescheduled' | 'cancelled' | null;
}
export const BOOKING_EMAIL_COLUMNS = ['id', 'booking_id', 'kind', 'time_slot', 'sequence', 'recipient', 'change'] as const;

/** Everything the e-mails about a booking may tell: the lead as stored, and where the booking stands now. */
export interface Lead extends Booking {
  phone: string | null;
  message: string | null;
  attribution: Attribution | null;
  status: 'booked' | 'cancelled';
  sequence: number;
}

export async function findLead(db: Knex, id: string): Promise<Lead | undefined> {
  const row = await db('bookings')
    .where({ id })
    .first('id', 'name', 'email', 'company', 'phone', 'message', 'time_slot', 'attribution', 'status', 'sequence');
  if (!row) return undefined;
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    company: row.company,
    phone: row.phone,
    message: row.message,
    timeSlot: row.time_slot,
    attribution: row.attribution,
    status: row.status,
    sequence: row.sequence,
  };
}
