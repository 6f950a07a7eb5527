/**
 * The worker's SQL for the outbox, `deliveries`: every delivery a booking causes is a row, claimed with a lease, marked
 * sent, failed or dropped. Here the lease, its release and the open rows' predicate; the one claim of every channel,
 * which returns the row with its booking as it stands at that moment (and a webhook delivery's endpoint and event);
 * the marks of a try; and the sweep's query. A row's turn in its line is delivery-order.ts.
 */
import type { RoutingAnswers } from '../domain/routing.js';
import type { Knex } from 'knex';
import {
  DELIVERY_KINDS,
  DELIVERY_KIND_NAMES,
  type DeliveryKindData,
  ORDER_GROUPS,
} from '../server-shared/delivery-kinds.js';
import type { Attribution } from '../domain/attribution.js';
import { batched } from './batch.js';
import type { Tried } from './channels/sender.js';
import type { Claimed, DeliveryRow } from './delivery-row.js';

/**
 * How long a claim holds, on every channel. Longer than a send may take (the transport gives up on a silent server
 * after 30 s, a webhook's try after its timeout), so a live worker never loses its claim mid-send; a dead worker's
 * claim runs out and the sweep hands the row on.
 */
export const CLAIM_LEASE_MS = 60_000;

/**
 * Why a row was not claimed. 'rescheduled': its due time is no longer the job's (a webhook's later try is a job of
 * its own); 'claimed-elsewhere': held by a live claim, or a webhook whose endpoint takes no tries now.
 */
export type ClaimRefusal = 'missing' | 'rescheduled' | 'already-sent' | 'refused' | 'dropped' | 'claimed-elsewhere';

/** A refused claim names the row's channel and booking when there is a row (for the log line about it). */
export type Claim =
  ({ claimed: true } & Claimed) | { claimed: false; reason: ClaimRefusal; channel?: string; bookingId?: string };

/** Row ids are UUIDs; anything else would fail the whole batch it went to the database in. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Rows still to send (neither sent, given up nor dropped) and held by no live claim. */
export const OPEN = (table: string) =>
  `${table}.sent_at is null and ${table}.failed_at is null and ${table}.dropped_at is null ` +
  `and (${table}.claimed_until is null or ${table}.claimed_until < CURRENT_TIMESTAMP)`;

/** The due time as a job carries it (server-shared/jobs.ts): epoch milliseconds. */
export const DUE_MS = (table: string) => `(extract(epoch FROM ${table}.due_at) * 1000)::bigint`;

/** An endpoint (`e`) that takes tries: not removed, not stopped by a 410, not failing (its events wait for a replay). */
export const ENDPOINT_TAKES = 'e.removed_at IS NULL AND e.stopped_at IS NULL AND e.failing_since IS NULL';

/**
 * Claims the open rows among the ids, of any channel, and reads what each needs, in one statement: an e-mail's or a
 * calendar write's booking as it stands (a change committed before the claim is seen here), a webhook delivery's
 * endpoint and event. A row is claimed for the try its job was queued for (a due time of null: whichever is due), a
 * webhook delivery only while its endpoint takes tries. The rows are locked in the order of their ids (as every batch
 * locks them), so that two workers' batches cannot wait on each other; each row's openness is checked again once its
 * lock is held, so of two claims of one row only one gets it.
 */
const CLAIM_SQL = `
  WITH wanted AS (SELECT * FROM unnest(?::uuid[], ?::bigint[]) AS w(id, due)),
  claimed AS (
    UPDATE deliveries d SET claimed_until = now() + make_interval(secs => ?)
    WHERE d.id IN (
      SELECT o.id FROM deliveries o JOIN wanted w ON w.id = o.id LEFT JOIN webhook_endpoints e ON e.id = o.endpoint_id
      WHERE (w.due IS NULL OR ${DUE_MS('o')} = w.due) AND ${OPEN('o')} AND (o.endpoint_id IS NULL OR (${ENDPOINT_TAKES}))
      ORDER BY o.id FOR UPDATE OF o) AND ${OPEN('d')}
    RETURNING d.id, d.channel, d.booking_id, d.kind, d.time_slot, d.sequence, d.recipient, d.change, d.previous_time_slot,
      d.created_at, d.event_id, d.endpoint_id, d.position, d.attempts, d.failing_since)
  SELECT c.*, b.name, b.email, b.company, b.phone, b.message, b.time_slot AS booking_time_slot, b.attribution,
    b.visitor_time_zone, b.status, b.sequence AS booking_sequence, b.meeting_url, b.host_email, b.host_name, b.host_title,
    b.answers, CASE WHEN b.routing IS NULL THEN NULL
      ELSE jsonb_build_object('rule', b.routing->'rule', 'label', b.routing->'label') END AS route,
    e.url, e.secret, ev.type, ev.payload, ev.created_at AS event_created_at
  FROM claimed c LEFT JOIN bookings b ON b.id = c.booking_id LEFT JOIN webhook_endpoints e ON e.id = c.endpoint_id
    LEFT JOIN webhook_events ev ON ev.id = c.event_id`;

interface JoinedRow extends DeliveryRow {
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
  answers: RoutingAnswers | null;
  route: { rule: number | null; label: string } | null;
  url: string | null;
  secret: string | null;
  type: string | null;
  payload: unknown;
  event_created_at: Date | null;
}

function claimedOf(joined: JoinedRow): Claimed {
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
    answers,
    route,
    url,
    secret,
    type,
    payload,
    event_created_at: eventCreatedAt,
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
          answers,
          route,
        };
  const event =
    url === null || secret === null || type === null || eventCreatedAt === null
      ? null
      : { url, secret, type, payload, created_at: eventCreatedAt };
  return { row, lead, event };
}

/** A batch's key: the row's id and the due time its job carries (empty: whichever is due). */
const keyOf = (id: string, dueAt: number | undefined) => `${id}@${dueAt ?? ''}`;

async function claimMany(db: Knex, keys: string[], leaseMs: number): Promise<Map<string, Claimed>> {
  const wanted = keys.map((key) => key.split('@') as [string, string]);
  const dues = wanted.map(([, due]) => (due === '' ? 'NULL' : String(Number(due))));
  const { rows } = (await db.raw(CLAIM_SQL, [
    uuidArray(wanted.map(([id]) => id)),
    `{${dues.join(',')}}`,
    leaseMs / 1000,
  ])) as { rows: JoinedRow[] };
  // A row is claimed at most once however many keys name it; its key is the first that asked for it.
  const byId = new Map(rows.map((row) => [row.id, claimedOf(row)]));
  const claimed = new Map<string, Claimed>();
  for (const [key, [id]] of keys.map((one, i) => [one, wanted[i]!] as const)) {
    const row = byId.get(id);
    if (row) {
      claimed.set(key, row);
      byId.delete(id);
    }
  }
  return claimed;
}

const MARK_SENT_SQL =
  'update deliveries set sent_at = CURRENT_TIMESTAMP, claimed_until = null, last_error = null, attempts = attempts + 1 where id = any(?::uuid[])';

/** The ids as one PostgreSQL array literal: one bound value however many ids (each checked to be a UUID). */
function uuidArray(ids: readonly string[]): string {
  if (!ids.every((id) => UUID.test(id))) throw new Error('an outbox row id that is not a UUID');
  return `{${ids.join(',')}}`;
}

/** Per database handle and lease, the batch of claims; per database handle, the batch of marks. */
const claimBatches = new WeakMap<Knex, Map<number, (key: string) => Promise<Claimed | undefined>>>();
const markBatches = new WeakMap<Knex, (id: string) => Promise<true | undefined>>();

/**
 * Claims the row for this worker, for the try due at `dueAt` (its job's; unset: whichever is due): only one of two
 * workers handed the same job at once gets it. A claim past its lease may be taken over. Claims made in the same turn
 * of the event loop go to the database together.
 */
export async function claim(db: Knex, id: string, dueAt?: number, leaseMs = CLAIM_LEASE_MS): Promise<Claim> {
  // No row of this database has an id that is not a UUID.
  if (!UUID.test(id)) return { claimed: false, reason: 'missing' };
  let byLease = claimBatches.get(db);
  if (!byLease) claimBatches.set(db, (byLease = new Map()));
  let claimOne = byLease.get(leaseMs);
  if (!claimOne) byLease.set(leaseMs, (claimOne = batched((ids) => claimMany(db, ids, leaseMs))));
  const claimed = await claimOne(keyOf(id, dueAt));
  if (claimed) return { claimed: true, ...claimed };
  const current:
    | {
        channel: string;
        booking_id: string;
        sent_at: Date | null;
        failed_at: Date | null;
        dropped_at: Date | null;
        due: string;
      }
    | undefined = await db('deliveries')
    .select('channel', 'booking_id', 'sent_at', 'failed_at', 'dropped_at', db.raw(`${DUE_MS('deliveries')} AS due`))
    .where({ id })
    .first();
  if (!current) return { claimed: false, reason: 'missing' };
  const row = { channel: current.channel, bookingId: String(current.booking_id) };
  if (current.sent_at) return { claimed: false, reason: 'already-sent', ...row };
  if (current.failed_at) return { claimed: false, reason: 'refused', ...row };
  if (current.dropped_at) return { claimed: false, reason: 'dropped', ...row };
  if (dueAt !== undefined && Number(current.due) !== dueAt) return { claimed: false, reason: 'rescheduled', ...row };
  return { claimed: false, reason: 'claimed-elsewhere', ...row };
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
 * Records a try on its row (the claim let go, the try counted, the receiver's status and error kept) with what it
 * came to: sent; to try again, at `at` under a retry window; given up (refused, or tried for its whole window); or
 * nothing more, its receiver gone. `alsoRecord` writes the channel's own record of it in the same transaction.
 */
export async function recordTry(
  db: Knex,
  id: string,
  tried: Tried,
  alsoRecord?: (trx: Knex.Transaction) => Promise<void>,
): Promise<void> {
  await db.transaction(async (trx) => {
    const common = {
      claimed_until: null,
      attempts: trx.raw('attempts + 1'),
      last_status: tried.status,
      last_error: tried.error?.slice(0, 2000) ?? null,
    };
    const failing = { failing_since: trx.raw('coalesce(failing_since, now())') };
    const row = trx('deliveries').where({ id });
    switch (tried.outcome) {
      case 'sent':
        await row.update({ ...common, sent_at: trx.fn.now(), failing_since: null });
        break;
      case 'retry':
        await row.update({ ...common, ...failing, ...(tried.at ? { due_at: tried.at } : {}) });
        break;
      case 'refused':
      case 'exhausted':
        await row.update({ ...common, ...failing, failed_at: trx.fn.now() });
        break;
      case 'gone':
        await row.update(common);
        break;
    }
    await alsoRecord?.(trx);
  });
}

/** A row the sweep enqueues again: its id and its due time as its job carries it. */
export interface DueRow {
  id: string;
  due: number;
}

/**
 * The rows the sweep enqueues again, kind by kind as the registry says (server-shared/delivery-kinds.ts), in one
 * statement: those sent at once (which the API enqueued) once they have waited out the grace period, those sent when
 * due (reminders, which only the sweep enqueues, so that Redis holds no timer that could be lost) from their due time;
 * under no live claim; with tries left under a 'backoff' policy; and of a line of events (ORDER_GROUPS) only while the
 * endpoint takes tries and the row is first in its booking's line to it. Oldest first, at most `limit` of each kind.
 */
export async function findDue(db: Knex, graceMs: number, limit = 500): Promise<DueRow[]> {
  const kinds = DELIVERY_KIND_NAMES.map((kind) => {
    const { sent, retry, order }: DeliveryKindData = DELIVERY_KINDS[kind];
    return [
      kind,
      sent === 'at once' ? graceMs / 1000 : 0,
      retry.policy === 'backoff' ? retry.maxAttempts : null,
      order !== undefined && ORDER_GROUPS[order].by === 'event',
    ] as const;
  });
  const { rows } = (await db.raw(
    `SELECT due.id, due.due FROM (VALUES ${kinds.map(() => '(?::text, ?::float8, ?::int, ?::boolean)').join(', ')})
       AS k(kind, grace, max_attempts, by_event)
     CROSS JOIN LATERAL (
       SELECT d.id, ${DUE_MS('d')} AS due FROM deliveries d LEFT JOIN webhook_endpoints e ON e.id = d.endpoint_id
       WHERE d.kind = k.kind AND ${OPEN('d')} AND d.due_at <= now() - make_interval(secs => k.grace)
         AND (k.max_attempts IS NULL OR d.attempts < k.max_attempts)
         AND (NOT k.by_event OR (${ENDPOINT_TAKES} AND NOT EXISTS (SELECT 1 FROM deliveries p
           WHERE p.endpoint_id = d.endpoint_id AND p.booking_id = d.booking_id
             AND p.position < d.position AND p.sent_at IS NULL)))
       ORDER BY d.due_at LIMIT ?) due`,
    [...kinds.flat(), limit],
  )) as { rows: { id: string; due: string }[] };
  return rows.map((row) => ({ id: row.id, due: Number(row.due) }));
}
