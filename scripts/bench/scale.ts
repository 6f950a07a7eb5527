/**
 * Section `scale` of `npm run bench`: the same figures at several sizes of the data (--sizes, default 10k,1m,10m
 * bookings), each size on a database of its own, made in SQL with generate_series and dropped when done, and the
 * ratio of the largest size's figures to the smallest's, side by side in one run.
 *
 * The data: two years of bookings whose slots are past (their history, which grows with the size), each with its
 * e-mail rows (confirmation, reminder, the sales desk's notice: old ones sent, some failed, some dropped), its
 * idempotency key and, for a share, attribution, over 50,000 company domains; and at every size the same 1,000
 * bookings to come over the next four weeks (the live window, which a slot's capacity bounds whatever the history).
 *
 * The figures, per size: a booking through the API (a fixed number of new bookings on domains of the history, the
 * ceilings at their defaults): p50/p99 and the API's CPU per booking; GET /api/slots for a day of the coming weeks;
 * GET /api/bookings/{token} of the latest 2,000 bookings (the links prospects open); the operations list's first page and a page in the
 * middle of the history; the sales page's list searched and filtered (p50/p99 over a mix of each); the sweep's query
 * for due e-mails and a claim of 500 of them with 100,000 due (about the latest 10,000 bookings); the API's
 * and the worker's memory after a full collection (read through the inspector: both run with --inspect on a port
 * of 127.0.0.1 for this bench only).
 */
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import autocannon from 'autocannon';
import knex from 'knex';
import pg from 'pg';
import { migrateLatest, migrateSchema } from '../../api/db.js';
import { knexConfig } from '../../knexfile.js';
import { availableSlots, calendarDayOf, formatCalendarDay } from '../../domain/booking.js';
import { bookingToken } from '../../server-shared/booking-link.js';
import { SWEEP_GRACE_MS } from '../../server-shared/jobs.js';
import { clearQueuePrefix } from '../../test/stack.js';
import { claim, findDue } from '../../worker/outbox.js';
import { anonymiseBatch } from '../../worker/retention.js';
import { cursorOf } from '../../api/admin/booking-routes.js';
import { bookingsPerSlot, findBooking } from '../../api/bookings/repository.js';
import { listBookings, SearchTooBroad, type ListPosition } from '../../api/admin/bookings-list.js';
import { DEFAULT_RETENTION_DAYS } from '../../domain/retention.js';
import { pendingJobs } from '../../worker/sweep.js';
import { REPO_ROOT } from '../dev-services/config.js';
import { cpuMs, delay, percentile, start, startWithPort, stop, waitUntil } from './processes.js';

export interface ScaleOptions {
  sizes: number[];
  /** Seconds each read figure is loaded for. */
  duration: number;
  adminUrl: string;
  redisUrl: string;
  say: (line?: string) => void;
  /** Print the hot queries' plans at the largest size. */
  explain: boolean;
  /**
   * Keep each size's generated data as a database of its own (converge_scale_data_…) and measure on copies of it: a
   * later run with the same statements, within a day, copies it (minutes) instead of making it again (39 minutes at 10M).
   */
  keepData?: boolean;
}

/** "10k,1m,10m" as numbers. */
export function parseSizes(text: string): number[] {
  return text.split(',').map((size) => {
    const match = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(size.trim());
    if (!match) throw new Error(`--sizes: "${size}" is not a size such as 10k or 1m`);
    return Math.round(
      Number(match[1]) * ({ k: 1e3, m: 1e6, '': 1 } as Record<string, number>)[match[2]!.toLowerCase()]!,
    );
  });
}

/** The databases this run made and has not dropped yet: dropped on an interrupt too (dropScaleDatabases). */
const made = new Set<string>();

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

const label = (size: number) => (size >= 1e6 ? `${size / 1e6}M` : size >= 1e3 ? `${size / 1e3}k` : String(size));

const DOMAINS = 50_000;
const FUTURE_BOOKINGS = 1000;
/** Bookings the booking figure makes at each size, from this many connections. */
const BOOKINGS = 2000;
const CONNECTIONS = 10;
const DUE_EMAILS = 100_000;
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
function keptDataName(size: number): string {
  const statements = createHash('md5').update(
    [HISTORY_SQL, HISTORY_EMAILS_SQL, HISTORY_KEYS_SQL, FUTURE_SQL, DOMAINS, FUTURE_BOOKINGS].join('\n'),
  );
  return `converge_scale_data_${label(size).toLowerCase()}_${statements.digest('hex').slice(0, 8)}`;
}

/** Whether the kept data is there and made within KEPT_DATA_HOURS (the time it was made is its database's comment). */
async function keptDataUsable(admin: pg.Client, name: string): Promise<boolean> {
  const { rows } = await admin.query<{ made: string | null }>(
    "SELECT shobj_description(oid, 'pg_database') AS made FROM pg_database WHERE datname = $1",
    [name],
  );
  const madeAt = rows[0]?.made ? Date.parse(rows[0].made) : NaN;
  return Date.now() - madeAt < KEPT_DATA_HOURS * 3_600_000;
}

async function generate(databaseUrl: string, size: number, say: (line: string) => void): Promise<void> {
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
interface HistoryIds {
  middle: ListPosition;
  third: string;
  latest: string[];
}

async function namedHistoryIds(db: knex.Knex, size: number): Promise<HistoryIds> {
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

/** The process's memory after a full collection, through the inspector on `port`: the JavaScript heap and the RSS. */
async function memoryAfterGc(port: number): Promise<{ heapMb: number; rssMb: number }> {
  let result = '';
  const child = start(
    [
      '--experimental-websocket',
      '--import',
      'tsx',
      path.join(REPO_ROOT, 'scripts', 'bench', 'heap-after-gc.ts'),
      String(port),
    ],
    {},
    (line) => {
      result = line;
    },
  );
  await new Promise((resolve) => child.once('exit', resolve));
  const usage = JSON.parse(result) as { heapUsed: number; rss: number };
  return { heapMb: usage.heapUsed / 2 ** 20, rssMb: usage.rss / 2 ** 20 };
}

/** The booking's own questions of the table (db/functions/bookings.sql, in `book`), as it asks them. */
const BOOK_QUERIES: [title: string, sql: string, bindings: (domain: string, recipient: string) => unknown[]][] = [
  [
    "book: the recipient's bookings of the last 24 hours (its ceiling)",
    'SELECT count(*)::int, min(d.created_at) FROM bookings d WHERE d.recipient = $1 AND d.created_at > now() - booking_ceiling_window()',
    (_domain, recipient) => [recipient],
  ],
  [
    "book: the domain's bookings of the last 24 hours (its ceiling)",
    'SELECT count(*)::int, min(d.created_at) FROM bookings d WHERE d.recipient_domain = $1 AND d.created_at > now() - booking_ceiling_window()',
    (domain) => [domain],
  ],
  [
    'book: e-mails to the recipient in the last 24 hours (recipient_email_ceiling)',
    'SELECT * FROM recipient_email_ceiling($1, 2, 10)',
    (_domain, recipient) => [recipient],
  ],
];

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the hot queries, as the code sends them: the repository's and the worker's functions
 * are called on a handle whose queries are caught and explained with the same parameters (an UPDATE's inside a
 * transaction rolled back).
 */
async function explainHotQueries(
  databaseUrl: string,
  size: number,
  ids: HistoryIds,
  day: Date[],
  say: (line?: string) => void,
): Promise<void> {
  const config = knexConfig(databaseUrl, { min: 0, max: 1 });
  const caught = knex(config);
  // Explained on a connection with the product's own settings (knexfile.ts: no parallel plans).
  const client = new pg.Client(config.connection as pg.ClientConfig);
  await client.connect();
  const explain = async (title: string, sql: string, bindings: readonly unknown[]) => {
    await client.query('BEGIN');
    try {
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql}`, [
        ...bindings,
      ]);
      say(`\n    ${title}\n    ${sql.replace(/\s+/g, ' ')}`);
      for (const row of rows) say(`      ${row['QUERY PLAN']}`);
    } finally {
      await client.query('ROLLBACK');
    }
  };
  /** The queries `act` sends, each explained. */
  const explainWhat = async (
    title: string,
    act: (db: knex.Knex) => Promise<unknown>,
    undo?: () => Promise<unknown>,
  ) => {
    const queries: { sql: string; bindings: readonly unknown[] }[] = [];
    const listener = (query: { sql: string; bindings?: readonly unknown[] }) =>
      void queries.push({ sql: query.sql, bindings: query.bindings ?? [] });
    caught.on('query', listener);
    try {
      await act(caught);
    } finally {
      caught.off('query', listener);
    }
    await undo?.();
    for (const query of queries.filter(
      (one) => !/^(BEGIN|COMMIT|ROLLBACK|SET LOCAL|SELECT pg_try_advisory)/i.test(one.sql),
    ))
      await explain(title, query.sql, query.bindings);
  };
  try {
    say(`\n    Query plans at ${label(size)} (EXPLAIN ANALYZE, BUFFERS; the machine is shared):`);
    // Before: the list as it was read until keyset pagination (the latest 100 by created_at, no index on it).
    await client.query('BEGIN');
    await client.query('DROP INDEX bookings_newest_idx');
    // And with PostgreSQL's default of two parallel workers, as the connections had then.
    await client.query('SET LOCAL max_parallel_workers_per_gather = 2');
    const { rows: before } = await client.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) SELECT b.id, b.name, c.sent_at FROM bookings b
         LEFT JOIN deliveries c ON c.booking_id = b.id AND c.kind = 'confirmation' ORDER BY b.created_at DESC LIMIT 100`,
    );
    await client.query('ROLLBACK');
    say(
      '\n    BEFORE: operations list, first page, as it was read (ORDER BY created_at DESC LIMIT 100, no index on created_at)',
    );
    for (const row of before) say(`      ${row['QUERY PLAN']}`);
    await explainWhat('operations list, first page', (db) => listBookings(db, 100));
    await explainWhat('operations list, middle page', (db) => listBookings(db, 100, ids.middle));
    await explainWhat('sales list, a search of a few', (db) =>
      listBookings(db, 100, undefined, { search: `Prospect ${Math.ceil(size / 3)}` }),
    );
    await explainWhat('sales list, a search of thousands', (db) =>
      listBookings(db, 100, undefined, { search: `Company ${Math.ceil(size / 3) % DOMAINS}` }),
    );
    await explainWhat(
      'sales list, a search of a tenth of the bookings, all of them in the oldest fifth (the worst case; explained without its time limit)',
      (db) =>
        // Past BROAD_SEARCH_TIME_LIMIT_MS the API answers 422; the query it sent is still caught and explained.
        listBookings(db, 100, undefined, { search: 'Prospect 1' }).catch((err: unknown) => {
          if (!(err instanceof SearchTooBroad)) throw err;
        }),
    );
    await explainWhat('sales list, a source', (db) => listBookings(db, 100, undefined, { source: 'partner' }));
    await explainWhat('sales list, a week of slots', (db) =>
      listBookings(db, 100, undefined, {
        slotFrom: new Date(Date.now() - 372 * 86_400_000),
        slotTo: new Date(Date.now() - 365 * 86_400_000),
      }),
    );
    await explainWhat('GET /api/bookings/{token}', (db) => findBooking(db, ids.third));
    await explainWhat('GET /api/slots: bookings per slot of a day', (db) => bookingsPerSlot(db, day));
    await explainWhat("the sweep's query for due rows of every kind", (db) => findDue(db, SWEEP_GRACE_MS));
    const due = (await findDue(caught, SWEEP_GRACE_MS)).slice(0, 500);
    await explainWhat(
      'a claim of 500 due e-mails',
      (db) => Promise.all(due.map((row) => claim(db, row.id))),
      // Let go again, so that the claim explained finds them open, as the worker's does.
      () =>
        client.query('UPDATE deliveries SET claimed_until = NULL WHERE id = ANY($1::uuid[])', [
          due.map((row) => row.id),
        ]),
    );
    const person = await findBooking(caught, ids.latest[0]!);
    for (const [title, sql, bindings] of BOOK_QUERIES) {
      const domain = person!.email.split('@')[1]!;
      await explain(title, sql, bindings(domain, person!.email));
    }
    await explainWhat('retention: a batch (nothing past RETENTION_DAYS in this history)', (db) =>
      db
        .transaction(async (trx) => {
          await anonymiseBatch(trx, DEFAULT_RETENTION_DAYS);
          await trx.rollback();
        })
        .catch(() => undefined),
    );
  } finally {
    await client.end();
    await caught.destroy();
  }
}

interface Figure {
  title: string;
  unit: string;
  value: number;
  /** The smallest step the figure is counted in: a value below it counts as it in a ratio (0 is not infinitely fast). */
  resolution?: number;
}

/** A latency autocannon measured: it counts whole milliseconds, so a request under 1 ms reads 0. */
const loadLatency = (title: string, value: number): Figure => ({ title, unit: 'ms', value, resolution: 1 });

/** p50 and p99 of a route, loaded from `CONNECTIONS` connections for `duration` seconds; each request's path from `pathOf`. */
async function loadRoute(
  url: string,
  duration: number,
  pathOf: () => string,
  headers: Record<string, string> = {},
): Promise<autocannon.Result> {
  return autocannon({
    url,
    connections: CONNECTIONS,
    duration,
    requests: [{ method: 'GET', headers, setupRequest: (request) => ({ ...request, path: pathOf() }) }],
  });
}

/**
 * The sales page's searches at a size: prefixes that select a handful of bookings, tens, and a fifth of them. (A prefix
 * of many bookings that are all old, "Prospect 1" here, is the list's worst case: --explain shows its plan.)
 */
function salesSearches(size: number): string[] {
  const n = Math.ceil(size / 3);
  return [
    `Prospect ${n}`,
    `person${Math.ceil(size / 7)}`,
    `Company ${n % DOMAINS}`,
    `company${n % 997}.example`,
    'company4',
  ].map((q) => `/api/demo-requests?q=${encodeURIComponent(q)}`);
}

/** The sales page's filters: a source (10% of the history), cancelled (8%), a week of slots a year ago, all of them together. */
function salesFilters(): string[] {
  const day = (daysAgo: number) =>
    formatCalendarDay(calendarDayOf(new Date(Date.now() - daysAgo * 86_400_000), 'Europe/Berlin'));
  const week = `from=${day(372)}&to=${day(365)}`;
  return ['source=partner', 'status=cancelled', week, `source=newsletter&status=cancelled&${week}`].map(
    (query) => `/api/demo-requests?${query}`,
  );
}

async function measure(size: number, options: ScaleOptions, run: string, explain: boolean): Promise<Figure[]> {
  const { say } = options;
  const database = `converge_scale_${run}_${label(size).toLowerCase()}`;
  const prefix = `converge-scale-${run}`;
  const urlOf = (name: string) => Object.assign(new URL(options.adminUrl), { pathname: `/${name}` }).toString();
  const databaseUrl = urlOf(database);
  const admin = new pg.Client({ connectionString: options.adminUrl });
  await admin.connect();
  const kept = options.keepData ? keptDataName(size) : undefined;
  const db = knex(knexConfig(databaseUrl, { min: 0, max: 4 }));
  const figures: Figure[] = [];
  try {
    const preparing = Date.now();
    const seconds = () => ((Date.now() - preparing) / 1000).toFixed(0);
    // The data is made into the measured database, or into the kept one when there is none usable.
    const target = kept ?? database;
    if (!kept || !(await keptDataUsable(admin, kept))) {
      if (kept) await admin.query(`DROP DATABASE IF EXISTS ${admin.escapeIdentifier(kept)} WITH (FORCE)`);
      made.add(target);
      await admin.query(`CREATE DATABASE ${admin.escapeIdentifier(target)}`);
      await migrateLatest(urlOf(target));
      await generate(urlOf(target), size, say);
      const { rows } = await admin.query<{ size: string }>('SELECT pg_size_pretty(pg_database_size($1)) AS size', [
        target,
      ]);
      say(`    ${label(size)}: made in ${seconds()} s, ${rows[0]!.size} on disk${kept ? ` (kept as ${kept})` : ''}`);
      if (kept) {
        await admin.query(
          `COMMENT ON DATABASE ${admin.escapeIdentifier(kept)} IS ${admin.escapeLiteral(new Date().toISOString())}`,
        );
        made.delete(kept);
      }
    }
    if (kept) {
      made.add(database);
      await admin.query(
        `CREATE DATABASE ${admin.escapeIdentifier(database)} TEMPLATE ${admin.escapeIdentifier(kept)} STRATEGY FILE_COPY`,
      );
      // Migrations newer than the kept data run on the copy.
      const applied = await migrateSchema(db);
      say(
        `    ${label(size)}: copied from ${kept}, ${seconds()} s in all${applied.length ? `, then migrated: ${applied.join(', ')}` : ''}`,
      );
    }

    const ids = await namedHistoryIds(db, size);
    const smtp = await startWithPort('smtp-counter.ts', {}, () => {});
    const linkSecret = randomBytes(32).toString('hex');
    const adminToken = randomBytes(24).toString('hex');
    const env = {
      DATABASE_URL: databaseUrl,
      REDIS_URL: options.redisUrl,
      QUEUE_PREFIX: prefix,
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      BOOKING_LINK_SECRET: linkSecret,
      ADMIN_TOKEN: adminToken,
      // Every connection of the load comes from this one address; the ceilings per recipient and domain stay on.
      DEMO_REQUESTS_PER_HOUR: '0',
      CONNECTIONS_PER_CLIENT: '0',
      SLOT_CAPACITY: '1000000',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
    };
    const port = 20000 + Math.floor(Math.random() * 20000);
    const apiInspector = port + 1;
    const workerInspector = port + 2;
    const api = `http://127.0.0.1:${port}`;
    const apiProcess = start([`--inspect=127.0.0.1:${apiInspector}`, path.join(REPO_ROOT, 'dist', 'api', 'main.js')], {
      ...env,
      PORT: String(port),
    });
    await waitUntil(
      () =>
        fetch(`${api}/readyz`).then(
          (response) => response.ok,
          () => false,
        ),
      'the API to be ready',
    );

    // The booking: new people on the history's domains, in slots of the coming weeks.
    const now = new Date();
    const slots: string[] = [];
    for (let day = 2; day <= 28; day += 1) {
      for (const slot of availableSlots(
        calendarDayOf(new Date(now.getTime() + day * 86_400_000), 'Europe/Berlin'),
        now,
        'Europe/Berlin',
      ))
        slots.push(slot.iso);
    }
    let sent = 0;
    const bookingBody = () => {
      sent += 1;
      return JSON.stringify({
        name: `Scale Prospect ${sent}`,
        email: `scale${sent}.${run}@company${(sent * 7919) % DOMAINS}.example`,
        company: `Company ${sent}`,
        timeSlot: slots[sent % slots.length],
      });
    };
    const book = (amount: number) =>
      autocannon({
        url: api,
        connections: CONNECTIONS,
        amount,
        requests: [
          {
            method: 'POST',
            path: '/api/demo-request',
            headers: { 'content-type': 'application/json' },
            setupRequest: (request) => ({ ...request, body: bookingBody() }),
          },
        ],
      });
    await book(200); // warm-up: code optimised, pools filled
    const cpuBefore = cpuMs(apiProcess.pid);
    const booked = await book(BOOKINGS);
    const cpuAfter = cpuMs(apiProcess.pid);
    if (booked.non2xx || booked.errors) say(`    (bookings: non-2xx ${booked.non2xx}, errors ${booked.errors})`);
    figures.push(loadLatency('booking p50', booked.latency.p50));
    figures.push(loadLatency('booking p99', booked.latency.p99));
    figures.push({
      title: "booking, API's CPU",
      unit: 'µs',
      value: (((cpuAfter ?? NaN) - (cpuBefore ?? NaN)) * 1000) / BOOKINGS,
    });

    const day = formatCalendarDay(calendarDayOf(new Date(slots[slots.length >> 1]!), 'Europe/Berlin'));
    await loadRoute(api, 2, () => `/api/slots?date=${day}`);
    figures.push(
      loadLatency(
        'GET /api/slots (a day) p50',
        (await loadRoute(api, options.duration, () => `/api/slots?date=${day}`)).latency.p50,
      ),
    );

    // The links prospects open: those of the latest bookings (the newest 2,000 of the history, whatever its size).
    const tokens = ids.latest.slice(0, 2000).map((id) => bookingToken(id, linkSecret));
    let nextToken = 0;
    const tokenPath = () => `/api/bookings/${tokens[(nextToken += 1) % tokens.length]!}`;
    await loadRoute(api, 2, tokenPath);
    figures.push(
      loadLatency('GET /api/bookings/{token} p50', (await loadRoute(api, options.duration, tokenPath)).latency.p50),
    );

    const authorised = { Authorization: `Bearer ${adminToken}` };
    await loadRoute(api, 2, () => '/api/demo-requests', authorised);
    figures.push(
      loadLatency(
        'operations list, first page p50',
        (await loadRoute(api, options.duration, () => '/api/demo-requests', authorised)).latency.p50,
      ),
    );
    // A page in the middle of the history: the cursor of the booking there, as the list would have given it.
    const deep = `/api/demo-requests?cursor=${cursorOf(ids.middle)}`;
    const deepStatus = (await fetch(`${api}${deep}`, { headers: authorised })).status;
    if (deepStatus !== 200) throw new Error(`the middle page answered ${deepStatus}`);
    await loadRoute(api, 2, () => deep, authorised);
    figures.push(
      loadLatency(
        'operations list, middle page p50',
        (await loadRoute(api, options.duration, () => deep, authorised)).latency.p50,
      ),
    );

    // The sales page's list: searches (a prefix of a name, an e-mail address, a company, a domain) and filters (source,
    // status, a week of slots, all together), each in turn, first pages as the page asks for them.
    const salesFigures = async (title: string, paths: readonly string[]) => {
      // Each asked once before the load, timed: a slow one is named here rather than hidden in the p99. A 503 (the
      // pool still held by the queries of the load before) is asked again after a pause; one still refused is
      // reported, and the figures go on without it.
      const once: string[] = [];
      for (const one of paths) {
        const started = performance.now();
        let status = 0;
        for (let attempt = 0; attempt < 6 && status !== 200; attempt += 1) {
          if (attempt > 0) await delay(5000);
          status = (await fetch(`${api}${one}`, { headers: authorised })).status;
        }
        const query = decodeURIComponent(one.slice(one.indexOf('?') + 1));
        once.push(
          `${query}: ${status === 200 ? `${Math.round(performance.now() - started)} ms` : `answered ${status}`}`,
        );
      }
      say(`      sales list, ${title}, each asked once: ${once.join('; ')}`);
      let next = 0;
      const pathOf = () => paths[(next += 1) % paths.length]!;
      await loadRoute(api, 2, pathOf, authorised);
      const { latency, non2xx, requests } = await loadRoute(api, options.duration, pathOf, authorised);
      if (non2xx) say(`      sales list, ${title}: ${non2xx} of ${requests.total} answers not 2xx`);
      figures.push(loadLatency(`sales list, ${title} p50`, latency.p50));
      figures.push(loadLatency(`sales list, ${title} p99`, latency.p99));
    };
    await salesFigures('searches', salesSearches(size));
    await salesFigures('filters', salesFilters());

    // The worker: it sends what the bookings above stored, sweeps and applies retention over the whole history.
    const workerProcess = start(
      [`--inspect=127.0.0.1:${workerInspector}`, path.join(REPO_ROOT, 'dist', 'worker', 'main.js')],
      { ...env, PUBLIC_URL: api },
    );
    await waitUntil(
      async () =>
        (
          await db('deliveries')
            .whereNull('sent_at')
            .whereNull('failed_at')
            .whereNull('dropped_at')
            .where('due_at', '<', db.fn.now())
            .count({ n: '*' })
        )[0]!.n === '0',
      'the worker to send what was due',
      300_000,
    );
    await delay(2000);
    const apiMemory = await memoryAfterGc(apiInspector);
    const workerMemory = await memoryAfterGc(workerInspector);
    await Promise.all([stop(workerProcess), stop(apiProcess), stop(smtp.child)]);

    // The sweep with 100,000 e-mails due (stored while Redis was away, say): its query, and claims of 500 of them.
    // About the latest 10,000 bookings of the history, as e-mails due are, each in turn.
    await db.raw(
      `INSERT INTO deliveries (channel, booking_id, kind, time_slot, sequence, due_at, created_at)
         SELECT 'email', (?::uuid[])[1 + n % ?], 'update', now() + interval '1 day', 1, now() - interval '1 hour', now() - interval '1 hour'
         FROM generate_series(1, ?::int) AS n`,
      // The array as one literal, as in historyIds.
      [`{${ids.latest.join(',')}}`, ids.latest.length, DUE_EMAILS],
    );
    await db.raw('ANALYZE deliveries');
    const sweeps: number[] = [];
    const claims: number[] = [];
    for (let round = 0; round < 21; round += 1) {
      const swept = performance.now();
      const jobs = await pendingJobs(db, SWEEP_GRACE_MS);
      sweeps.push(performance.now() - swept);
      const claimed = performance.now();
      // Claims made in one turn of the event loop go to the database as one statement, as a worker's do.
      const ids = jobs.map((job) => job.payload.deliveryId);
      const got = await Promise.all(ids.slice(0, 500).map((id) => claim(db, id)));
      claims.push(performance.now() - claimed);
      if (got.filter((one) => one.claimed).length !== 500) throw new Error('the claim did not take 500 rows');
    }
    // The first round reads cold pages: the median of the rest.
    const median = (values: number[]) =>
      percentile(
        values.slice(1).sort((a, b) => a - b),
        50,
      );
    figures.push({ title: "sweep's query, 100k due", unit: 'ms', value: median(sweeps) });
    figures.push({ title: 'claim of 500, 100k due', unit: 'ms', value: median(claims) });
    figures.push({ title: "API's heap after full GC", unit: 'MB', value: apiMemory.heapMb });
    figures.push({ title: "API's RSS after full GC", unit: 'MB', value: apiMemory.rssMb });
    figures.push({ title: "worker's heap after full GC", unit: 'MB', value: workerMemory.heapMb });
    figures.push({ title: "worker's RSS after full GC", unit: 'MB', value: workerMemory.rssMb });
    if (explain) {
      const daySlots = availableSlots(
        calendarDayOf(new Date(slots[slots.length >> 1]!), 'Europe/Berlin'),
        now,
        'Europe/Berlin',
      ).map((slot) => new Date(slot.iso));
      await explainHotQueries(databaseUrl, size, ids, daySlots, say);
    }
    for (const figure of figures)
      say(
        `      ${figure.title.padEnd(36)} ${figure.value.toFixed(figure.value < 10 ? 2 : 0).padStart(8)} ${figure.unit}`,
      );
    return figures;
  } finally {
    await db.destroy();
    await admin
      .query(`DROP DATABASE IF EXISTS ${admin.escapeIdentifier(database)} WITH (FORCE)`)
      .finally(() => admin.end());
    made.delete(database);
    await clearQueuePrefix(prefix, options.redisUrl);
  }
}

/**
 * The section: each size in turn, then the smallest again (the machine is shared: what it did meanwhile shows as the
 * smallest size's drift), then every figure side by side with the ratio of the largest size to the mean of the
 * smallest size's two runs.
 */
export async function scaleSection(options: ScaleOptions): Promise<void> {
  const { say } = options;
  const run = randomBytes(4).toString('hex');
  const smallest = Math.min(...options.sizes);
  const largest = Math.max(...options.sizes);
  const order = [...options.sizes, smallest];
  say(
    `\n6. Cost as the data grows: ${order.map(label).join(', ')} (again) bookings of history (with e-mails, keys, attribution), each on a database of its own`,
  );
  say(
    `   (${BOOKINGS} bookings from ${CONNECTIONS} connections; reads loaded ${options.duration} s from ${CONNECTIONS} connections; the machine is shared)`,
  );
  const bySize: Figure[][] = [];
  for (const [i, size] of order.entries())
    bySize.push(
      await measure(size, options, `${run}${i}`, options.explain && size === largest && i < options.sizes.length),
    );
  const columns = [...options.sizes.map(label), `${label(smallest)} again`];
  const small = options.sizes.indexOf(smallest);
  const big = options.sizes.indexOf(largest);
  say(
    `\n    ${'figure'.padEnd(36)} ${columns.map((column) => column.padStart(10)).join(' ')}   ${`${label(largest)}/${label(smallest)}`.padStart(9)}  goal`,
  );
  bySize[0]!.forEach((figure, i) => {
    const values = bySize.map((figures) => figures[i]!.value);
    const counted = (value: number) => Math.max(value, figure.resolution ?? 0);
    const ratio = counted(values[big]!) / counted((values[small]! + values.at(-1)!) / 2);
    say(
      `    ${`${figure.title} (${figure.unit})`.padEnd(36)} ${values.map((value) => value.toFixed(value < 10 ? 2 : 0).padStart(10)).join(' ')}   ${`${ratio.toFixed(2)}x`.padStart(9)}  <= 1.20x ${ratio <= 1.2 ? 'met' : 'NOT met'}`,
    );
  });
  say(
    `    (ratio: the ${label(largest)} figure over the mean of the two ${label(smallest)} runs; autocannon counts whole milliseconds,`,
  );
  say('    so a request under 1 ms reads 0.00 and counts as 1 ms in its ratio)');
}
