/**
 * The data of the bench's section `scale` (scripts/bench/scale.ts): each size's history and live window made in SQL,
 * the databases made for it (dropped when done), the data kept between runs with --keep-data, and the bookings of the
 * history the figures name.
 */
import { createHash } from 'node:crypto';
import type knex from 'knex';
import pg from 'pg';
import { type ListPosition } from '../../api/admin/bookings-list.js';

/** The databases this run made and has not dropped yet: dropped on an interrupt too (dropScaleDatabases). */
export const made = new Set<string>();

/** Drops what an interrupted run left. */
export async function dropScaleDatabases(adminUrl: string): Promise<void> {
  if (made.size === 0) return;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    for (const database of made)
      await admin.query(`DROP DATABASE IF EXISTS ${admin.escapeIdentifier(database)} WITH (FORCE)`);
    made.clear();
  } finally {
    await admin.end();
  }
}

export const label = (size: number) => (size >= 1e6 ? `${size / 1e6}M` : size >= 1e3 ? `${size / 1e3}k` : String(size));

export const DOMAINS = 50_000;
export const FUTURE_BOOKINGS = 1000;
export const DUE_EMAILS = 100_000;
/** Statements of generation: a size is made this many bookings at a time. */
const CHUNK = 500_000;

/**
 * The history's bookings from..to of `size`, one row each: slots spread evenly over the two years before now, newest
 * last, each booked 1 to 28 days ahead; 8% cancelled. Every statement below reads its rows from here, so that none
 * has to look a booking up: the three statements of a chunk run in one transaction, whose now() they share. Each id is
 * time-ordered as the product makes them (time_ordered_uuid(), migrations/…_time_ordered_ids.ts) from the booking's
 * creation, its random bits those of md5('scale-' || n), so that each statement makes the same id for n.
 */
const HISTORY = `
  SELECT n, time_ordered_uuid(created_at, md5('scale-' || n)::uuid) AS id, slot, created_at, n % 25 < 2 AS cancelled
  FROM generate_series($1::int, $2::int) AS n,
    LATERAL (SELECT date_trunc('hour', now() - interval '730 days' * (1 - n::float8 / $3) - interval '1 day') AS slot) AS s,
    LATERAL (SELECT slot - (1 + n % 28) * interval '1 day' - (n % 600) * interval '1 minute' AS created_at) AS c`;
/** Their rows: the prospect on one of DOMAINS company domains, a phone for a third, a message for a quarter, attribution for 40% (a referrer for 10%). */
const HISTORY_SQL = `
  INSERT INTO bookings (id, name, email, recipient, recipient_domain, company, phone, message, time_slot, created_at,
      status, cancelled_at, attribution, meeting_url)
    SELECT id, 'Prospect ' || n, 'person' || n || '@company' || (n % $4) || '.example',
      'person' || n || '@company' || (n % $4) || '.example', 'company' || (n % $4) || '.example', 'Company ' || (n % $4),
      CASE WHEN n % 3 = 0 THEN '+1 555 01' || lpad((n % 100)::text, 2, '0') END,
      CASE WHEN n % 4 = 0 THEN 'We send a few million SMS a month and want WhatsApp next to it.' END,
      slot, created_at, CASE WHEN cancelled THEN 'cancelled' ELSE 'booked' END, CASE WHEN cancelled THEN slot - interval '2 days' END,
      CASE WHEN n % 10 < 3 THEN jsonb_build_object('utm_source', 'newsletter', 'utm_medium', 'email', 'utm_campaign', 'q' || (n % 4 + 1))
           WHEN n % 10 = 3 THEN jsonb_build_object('utm_source', 'partner', 'referrer', 'https://partner' || (n % 300) || '.example/blog/' || n) END,
      'https://meet.converge.localhost/demo-' || substr(md5('room' || n), 1, 12)
    FROM (${HISTORY}) AS h`;
/**
 * Their e-mails: the confirmation (2% failed for good, 1% dropped, the rest sent), the reminder (sent, or dropped when
 * the booking was cancelled) and the sales desk's notice (sent).
 */
const HISTORY_EMAILS_SQL = `
  INSERT INTO deliveries (channel, booking_id, kind, time_slot, sequence, recipient, change, due_at, created_at, sent_at, attempts, last_error, failed_at, dropped_at)
    SELECT 'email', h.id, k.kind, h.slot, 0, k.recipient, k.change, k.due_at, h.created_at,
      CASE WHEN k.outcome = 'sent' THEN k.due_at + interval '2 seconds' END, CASE WHEN k.outcome = 'failed' THEN 5 WHEN k.outcome = 'sent' THEN 1 ELSE 0 END,
      CASE WHEN k.outcome = 'failed' THEN '550 mailbox unavailable' END, CASE WHEN k.outcome = 'failed' THEN k.due_at + interval '1 hour' END,
      CASE WHEN k.outcome = 'dropped' THEN h.slot - interval '2 days' END
    FROM (${HISTORY}) AS h,
    LATERAL (VALUES
      ('confirmation', NULL, NULL, h.created_at, CASE WHEN h.n % 50 = 7 THEN 'failed' WHEN h.n % 100 = 9 THEN 'dropped' ELSE 'sent' END),
      ('reminder', NULL, NULL, h.slot - interval '24 hours', CASE WHEN h.cancelled THEN 'dropped' ELSE 'sent' END),
      ('sales-notice', 'sales@converge.localhost', 'booked', h.created_at, 'sent')
    ) AS k(kind, recipient, change, due_at, outcome)`;
/** Their idempotency keys (kept here however old: what a purge that never ran would leave). */
const HISTORY_KEYS_SQL = `
  INSERT INTO idempotency_keys (key, request_hash, status_code, response, created_at)
    SELECT 'scale-key-' || n, md5('hash' || n), 201, jsonb_build_object('id', id), created_at FROM (${HISTORY}) AS h`;
/** The live window: the same bookings to come at every size, their reminders still to send. */
const FUTURE_SQL = `
  WITH future AS (
    INSERT INTO bookings (name, email, recipient, recipient_domain, company, time_slot, created_at)
      SELECT 'Upcoming ' || n, 'upcoming' || n || '@company' || (n % $2) || '.example', 'upcoming' || n || '@company' || (n % $2) || '.example',
        'company' || (n % $2) || '.example', 'Company ' || (n % $2), date_trunc('hour', now() + interval '28 days' * n / $1 + interval '1 day'), now() - interval '1 day'
      FROM generate_series(1, $1::int) AS n
    RETURNING id, time_slot, created_at)
  INSERT INTO deliveries (channel, booking_id, kind, time_slot, sequence, due_at, created_at, sent_at, attempts)
    SELECT 'email', id, 'confirmation', time_slot, 0, created_at, created_at, created_at, 1 FROM future
    UNION ALL SELECT 'email', id, 'reminder', time_slot, 0, time_slot - interval '24 hours', created_at, NULL, 0 FROM future`;

/** How long kept data is used: its bookings to come were placed from the day it was made. */
const KEPT_DATA_HOURS = 24;

/** The kept data's database for a size: its name changes with the statements that make it, so a kept one is never stale. */
export function keptDataName(size: number): string {
  const statements = createHash('md5').update(
    [HISTORY_SQL, HISTORY_EMAILS_SQL, HISTORY_KEYS_SQL, FUTURE_SQL, DOMAINS, FUTURE_BOOKINGS].join('\n'),
  );
  return `converge_scale_data_${label(size).toLowerCase()}_${statements.digest('hex').slice(0, 8)}`;
}

/** Whether the kept data is there and made within KEPT_DATA_HOURS (the time it was made is its database's comment). */
export async function keptDataUsable(admin: pg.Client, name: string): Promise<boolean> {
  const { rows } = await admin.query<{ made: string | null }>(
    "SELECT shobj_description(oid, 'pg_database') AS made FROM pg_database WHERE datname = $1",
    [name],
  );
  const madeAt = rows[0]?.made ? Date.parse(rows[0].made) : NaN;
  return Date.now() - madeAt < KEPT_DATA_HOURS * 3_600_000;
}

export async function generate(databaseUrl: string, size: number, say: (line: string) => void): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // The bench's own database: the foreign key's checks are skipped while it is filled (every row names its booking).
    await client.query("SET session_replication_role = 'replica'");
    await client.query("SET maintenance_work_mem = '512MB'");
    // The secondary indexes are built once the rows are in (as a restore does), the primary keys kept throughout.
    const { rows: indexes } = await client.query<{ name: string; definition: string }>(
      `SELECT i.indexname AS name, i.indexdef AS definition FROM pg_indexes i
         WHERE i.schemaname = 'public' AND i.tablename IN ('bookings', 'deliveries', 'idempotency_keys')
           AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
    );
    for (const index of indexes) await client.query(`DROP INDEX ${client.escapeIdentifier(index.name)}`);
    const started = Date.now();
    for (let from = 1; from <= size; from += CHUNK) {
      const to = Math.min(size, from + CHUNK - 1);
      await client.query('BEGIN');
      await client.query(HISTORY_SQL, [from, to, size, DOMAINS]);
      await client.query(HISTORY_EMAILS_SQL, [from, to, size]);
      await client.query(HISTORY_KEYS_SQL, [from, to, size]);
      await client.query('COMMIT');
      if (size > CHUNK)
        say(`      ${label(to)} of ${label(size)} bookings stored (${((Date.now() - started) / 1000).toFixed(0)} s)`);
    }
    for (const index of indexes) await client.query(index.definition);
    await client.query(FUTURE_SQL, [FUTURE_BOOKINGS, DOMAINS]);
    // What autovacuum would have done over two years: statistics, and the visibility map index-only scans read.
    for (const table of ['bookings', 'deliveries', 'idempotency_keys']) await client.query(`VACUUM (ANALYZE) ${table}`);
  } finally {
    await client.end();
  }
}

/**
 * The ids of the history's bookings ns, in that order: each is named "Prospect n" (its id was made from its creation
 * time), until retention takes the names of the oldest, so they are read before the worker starts.
 */
async function historyIds(db: knex.Knex, ns: number[]): Promise<string[]> {
  // The array as one literal: knex would spread an array into a list of values.
  const { rows } = (await db.raw(
    "SELECT n, b.id FROM unnest(?::int[]) AS n JOIN bookings b ON lower(b.name) = 'prospect ' || n",
    [`{${ns.join(',')}}`],
  )) as {
    rows: { n: number; id: string }[];
  };
  const byN = new Map(rows.map((row) => [row.n, row.id]));
  return ns.map((n) => {
    const id = byN.get(n);
    if (id === undefined) throw new Error(`no booking "Prospect ${n}" in the history`);
    return id;
  });
}

/**
 * The bookings of the history the bench names: the middle one (with its place in the list, as a cursor names it), the
 * one a third in, and the latest 10,000, newest first.
 */
export interface HistoryIds {
  middle: ListPosition;
  third: string;
  latest: string[];
}

export async function namedHistoryIds(db: knex.Knex, size: number): Promise<HistoryIds> {
  const [middle, third] = await historyIds(db, [Math.ceil(size / 2), Math.ceil(size / 3)]);
  const { rows } = (await db.raw(
    `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position FROM bookings WHERE id = ?`,
    [middle!],
  )) as { rows: { position: string }[] };
  return {
    middle: { createdAt: rows[0]!.position, id: middle! },
    third: third!,
    latest: await historyIds(
      db,
      Array.from({ length: Math.min(size, 10_000) }, (_, i) => size - i),
    ),
  };
}
