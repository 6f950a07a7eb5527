/** The hot queries' plans at the largest size of the bench's section `scale`, with --explain. */
import knex from 'knex';
import pg from 'pg';
import { knexConfig } from '../../knexfile.js';
import { SWEEP_GRACE_MS } from '../../server-shared/jobs.js';
import { claim, findDue } from '../../worker/outbox.js';
import { anonymiseBatch } from '../../worker/retention.js';
import { bookingsPerSlot, findBooking } from '../../api/bookings/repository.js';
import { listBookings, SearchTooBroad } from '../../api/admin/bookings-list.js';
import { DEFAULT_RETENTION_DAYS } from '../../domain/retention.js';
import { DOMAINS, label, type HistoryIds } from './scale-data.js';

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
export async function explainHotQueries(
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
