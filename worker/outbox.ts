/**
 * The worker's SQL for the outbox, `deliveries`: every delivery a booking causes is a row, claimed with a lease, marked
 * sent, failed or dropped. Here the lease, its release and the open rows' predicate for every channel, and the claim of
 * the e-mails and host-calendar writes, which returns the row with its booking as it stands at that moment (a webhook
 * delivery's claim, with its endpoint and event, is webhook-outbox.ts's).
 */
import type { Knex } from 'knex';
import type { DeliveryKind, OrderGroup } from '../server-shared/delivery-kinds.js';
import type { Booking } from '../server-shared/invitation.js';
import {
  CONFIRMATION_SEQUENCE,
  settleEarlierProspectEmails,
  unsettledEarlierProspectEmails,
  type OrderedLine,
} from '../server-shared/prospect-emails.js';
import type { Attribution } from '../domain/attribution.js';
import { batched } from './batch.js';

/**
 * How long a claim holds, on every channel. Longer than a send may take (the transport gives up on a silent server
 * after 30 s, a webhook's try after its timeout), so a live worker never loses its claim mid-send; a dead worker's
 * claim runs out and the sweep hands the row on.
 */
export const CLAIM_LEASE_MS = 60_000;

/** 'webhook': the row is a webhook delivery, which webhook-outbox.ts claims. */
export type ClaimRefusal = 'missing' | 'webhook' | 'already-sent' | 'refused' | 'dropped' | 'claimed-elsewhere';
/** An e-mail not sent now because an earlier one about its booking is still in flight; its job tries again shortly. */
export type Postponed = 'waiting';

/** An outbox row as its worker claims it. `kind` is what the row says; the registry may not know it. */
export interface EmailRow {
  id: string;
  booking_id: string;
  kind: DeliveryKind | (string & {});
  /** The slot and the sequence of the change the e-mail tells. */
  time_slot: Date;
  sequence: number;
  /** Its own recipient (the sales desk's address); null: the booking's prospect. */
  recipient: string | null;
  change: 'booked' | 'rescheduled' | 'cancelled' | null;
  /** A move's e-mail: the slot the booking left. */
  previous_time_slot?: Date | null;
  /** When the row was stored: with its booking or its change, in the same transaction. */
  created_at?: Date;
}

/** Everything the e-mails about a booking may tell: the lead as stored, and where the booking stands now. */
export interface Lead extends Booking {
  phone: string | null;
  message: string | null;
  attribution: Attribution | null;
  status: 'booked' | 'cancelled';
  sequence: number;
}

export interface Claimed {
  row: EmailRow;
  /** Null when the booking is gone. */
  lead: Lead | null;
}

/** A refused claim names the row's booking when there is a row (for the log line about it). */
export type Claim = { claimed: true; email: Claimed } | { claimed: false; reason: ClaimRefusal; bookingId?: string };

/** Row ids are UUIDs; anything else would fail the whole batch it went to the database in. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The e-mails and host-calendar writes, of the rows of every channel. */
export const BOOKING_CHANNELS = `channel IN ('email', 'calendar')`;

/** Rows still to send (neither sent, given up nor dropped) and held by no live claim. */
export const OPEN = (table: string) =>
  `${table}.sent_at is null and ${table}.failed_at is null and ${table}.dropped_at is null ` +
  `and (${table}.claimed_until is null or ${table}.claimed_until < CURRENT_TIMESTAMP)`;

/**
 * Claims the open rows among the ids and reads their bookings, in one statement. The rows are locked in the order of
 * their ids (as every batch locks them), so that two workers' batches cannot wait on each other; each row's openness
 * is checked again once its lock is held, so of two claims of one row only one gets it. The booking is read as it
 * stands: a change committed before the claim is seen here.
 */
const CLAIM_SQL =
  'with claimed as (update deliveries e set claimed_until = now() + make_interval(secs => ?) ' +
  `where e.id in (select o.id from deliveries o where o.id = any(?::uuid[]) and o.${BOOKING_CHANNELS} and ${OPEN('o')} order by o.id for update) and ${OPEN('e')} ` +
  'returning e.id, e.booking_id, e.kind, e.time_slot, e.sequence, e.recipient, e.change, e.previous_time_slot, e.created_at) ' +
  'select c.*, b.name, b.email, b.company, b.phone, b.message, b.time_slot as booking_time_slot, b.attribution, b.visitor_time_zone, b.status, ' +
  'b.sequence as booking_sequence, b.meeting_url, b.host_email, b.host_name, b.host_title ' +
  'from claimed c left join bookings b on b.id = c.booking_id';

interface ClaimedRow extends EmailRow {
  name: string | null;
  email: string;
  company: string;
  phone: string | null;
  message: string | null;
  booking_time_slot: Date | null;
  attribution: Attribution | null;
  visitor_time_zone: string | null;
  status: 'booked' | 'cancelled';
  booking_sequence: number;
  meeting_url: string | null;
  host_email: string | null;
  host_name: string | null;
  host_title: string | null;
}

function claimedOf(joined: ClaimedRow): Claimed {
  const {
    name,
    email,
    company,
    phone,
    message,
    booking_time_slot: timeSlot,
    attribution,
    visitor_time_zone: visitorTimeZone,
    status,
    booking_sequence: sequence,
    meeting_url: meetingUrl,
    host_email: hostEmail,
    host_name: hostName,
    host_title: hostTitle,
    ...row
  } = joined;
  const host = hostEmail === null ? null : { email: hostEmail, name: hostName ?? '', title: hostTitle ?? '' };
  const lead =
    name === null || timeSlot === null
      ? null
      : {
          id: row.booking_id,
          name,
          email,
          company,
          phone,
          message,
          timeSlot,
          attribution,
          visitorTimeZone,
          status,
          sequence,
          meetingUrl,
          host,
        };
  return { row, lead };
}

async function claimMany(db: Knex, ids: string[], leaseMs: number): Promise<Map<string, Claimed>> {
  const { rows } = (await db.raw(CLAIM_SQL, [leaseMs / 1000, uuidArray(ids)])) as { rows: ClaimedRow[] };
  return new Map(rows.map((row) => [row.id, claimedOf(row)]));
}

const MARK_SENT_SQL =
  'update deliveries set sent_at = CURRENT_TIMESTAMP, claimed_until = null, last_error = null, attempts = attempts + 1 where id = any(?::uuid[])';

/** The ids as one PostgreSQL array literal: one bound value however many ids (each checked to be a UUID). */
function uuidArray(ids: readonly string[]): string {
  if (!ids.every((id) => UUID.test(id))) throw new Error('an outbox row id that is not a UUID');
  return `{${ids.join(',')}}`;
}

/** Per database handle and lease, the batch of claims; per database handle, the batch of marks. */
const claimBatches = new WeakMap<Knex, Map<number, (id: string) => Promise<Claimed | undefined>>>();
const markBatches = new WeakMap<Knex, (id: string) => Promise<true | undefined>>();

/**
 * Claims the row's pending e-mail for this worker: only one of two workers handed the same job at once gets it. A
 * claim past its lease may be taken over. Claims made in the same turn of the event loop go to the database together.
 */
export async function claim(db: Knex, id: string, leaseMs = CLAIM_LEASE_MS): Promise<Claim> {
  // No row of this database has an id that is not a UUID.
  if (!UUID.test(id)) return { claimed: false, reason: 'missing' };
  let byLease = claimBatches.get(db);
  if (!byLease) claimBatches.set(db, (byLease = new Map()));
  let claimOne = byLease.get(leaseMs);
  if (!claimOne) byLease.set(leaseMs, (claimOne = batched((ids) => claimMany(db, ids, leaseMs))));
  const email = await claimOne(id);
  if (email) return { claimed: true, email };
  const current = await db('deliveries')
    .select('channel', 'booking_id', 'sent_at', 'failed_at', 'dropped_at')
    .where({ id })
    .first();
  if (!current) return { claimed: false, reason: 'missing' };
  if (current.channel === 'webhook') return { claimed: false, reason: 'webhook' };
  const bookingId = String(current.booking_id);
  if (current.sent_at) return { claimed: false, reason: 'already-sent', bookingId };
  if (current.failed_at) return { claimed: false, reason: 'refused', bookingId };
  if (current.dropped_at) return { claimed: false, reason: 'dropped', bookingId };
  return { claimed: false, reason: 'claimed-elsewhere', bookingId };
}

/** Lets go of a claim (of any channel) without counting a try: the row waits for its turn. */
export async function releaseClaim(db: Knex, id: string): Promise<void> {
  await db('deliveries').where({ id }).update({ claimed_until: null });
}

/** Marks the row sent; marks made in the same turn of the event loop go to the database together. */
export async function markSent(db: Knex, id: string): Promise<void> {
  let markOne = markBatches.get(db);
  if (!markOne) {
    markOne = batched(async (ids: string[]) => {
      await db.raw(MARK_SENT_SQL, [uuidArray(ids)]);
      return new Map(ids.map((one) => [one, true as const]));
    });
    markBatches.set(db, markOne);
  }
  await markOne(id);
}

/** Records a failed try and lets go of the claim; a permanent failure (refused for good) also ends the tries. */
export async function recordFailure(db: Knex, id: string, error: string, permanent: boolean): Promise<void> {
  await db('deliveries')
    .where({ id })
    .update({
      claimed_until: null,
      last_error: error.slice(0, 2000),
      attempts: db.raw('attempts + 1'),
      ...(permanent ? { failed_at: db.fn.now() } : {}),
    });
}

/** A claimed e-mail that is no longer true (its booking moved or was cancelled): never to be sent. */
export async function markDropped(db: Knex, id: string): Promise<void> {
  await db('deliveries').where({ id }).update({ dropped_at: db.fn.now(), claimed_until: null });
}

/**
 * Whether the claimed row must wait its turn: it belongs to an ordered line (`order`: the prospect's e-mails, or a
 * host's calendar writes) and an earlier row of that line about its booking (a lower sequence) is still in flight.
 * Earlier ones still to send and under no live claim are dropped first, since this row's change has overtaken them
 * (server-shared/prospect-emails.ts). Nothing comes before sequence 0 (the booking itself): such a row never waits.
 */
export async function behindEarlierEmail(db: Knex, row: EmailRow, order: OrderGroup | undefined): Promise<boolean> {
  if (!order || row.sequence <= CONFIRMATION_SEQUENCE) return false;
  if (order === 'prospect' && row.recipient !== null) return false;
  if (order !== 'prospect' && row.recipient === null) return false;
  const line: OrderedLine = order === 'prospect' ? { prospect: true } : { kind: row.kind, recipient: row.recipient! };
  await settleEarlierProspectEmails(db, row.booking_id, row.sequence, line);
  return (await unsettledEarlierProspectEmails(db, row.booking_id, row.sequence, line)) > 0;
}

/** The due time as a job carries it (server-shared/jobs.ts): epoch milliseconds. */
export const DUE_MS = (table: string) => `(extract(epoch FROM ${table}.due_at) * 1000)::bigint`;

/** A row the sweep enqueues again: its id and its due time as its job carries it. */
export interface DueRow {
  id: string;
  due: number;
}

/** Rows of a kind due `graceMs` ago or earlier, with tries left and not claimed by a live worker, oldest first. */
export async function findDueEmails(
  db: Knex,
  kind: DeliveryKind,
  graceMs: number,
  maxAttempts: number,
  limit = 500,
): Promise<DueRow[]> {
  const rows: { id: string; due: string }[] = await db('deliveries')
    .select('id', db.raw(`${DUE_MS('deliveries')} AS due`))
    .whereRaw(OPEN('deliveries'))
    .where({ kind })
    .where('due_at', '<=', db.raw('now() - make_interval(secs => ?)', [graceMs / 1000]))
    .where('attempts', '<', maxAttempts)
    .orderBy('due_at')
    .limit(limit);
  return rows.map((row) => ({ id: row.id, due: Number(row.due) }));
}
