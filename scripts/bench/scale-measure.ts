/**
 * The figures of the bench's section `scale` at one size: its database (made or copied from kept data), the built API
 * and worker started on it, and each figure measured.
 */
import { randomBytes } from 'node:crypto';
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
import { claim } from '../../worker/outbox.js';
import { cursorOf } from '../../api/admin/booking-routes.js';
import { pendingJobs } from '../../worker/sweep.js';
import { REPO_ROOT } from '../dev-services/config.js';
import { cpuMs, delay, percentile, start, startWithPort, stop, waitUntil } from './processes.js';
import {
  DOMAINS,
  DUE_EMAILS,
  generate,
  keptDataName,
  keptDataUsable,
  label,
  made,
  namedHistoryIds,
} from './scale-data.js';
import { explainHotQueries } from './scale-explain.js';
import type { ScaleOptions } from './scale.js';

/** Bookings the booking figure makes at each size, from this many connections. */
export const BOOKINGS = 2000;
export const CONNECTIONS = 10;

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

export interface Figure {
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

export async function measure(size: number, options: ScaleOptions, run: string, explain: boolean): Promise<Figure[]> {
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
