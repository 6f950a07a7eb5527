/**
 * `npm run bench`: the speed of the production build, side by side with bare baselines in the same run. It builds
 * nothing: run `npm run build` first. It starts, as child processes stopped by PID at the end, the API
 * (`node dist/api/main.js --migrate`) on a database and Redis key prefix of its own, a bare Koa server answering the
 * same JSON (scripts/bench/bare-koa.ts), an SMTP server that accepts everything (scripts/bench/smtp-counter.ts), and
 * the worker (`node dist/worker/main.js`) when a figure needs it. It prints:
 *
 *   1. each endpoint beside the bare Koa route: req/s, p50/p99, and the ratio, after both are warmed up alike; beside
 *      them the same bare route sending the API's headers too, and each server process's CPU time per request;
 *   2. POST /api/demo-request at `--connections` with a new person and slot each request: worker stopped; then the
 *      booking's statement alone, called as the API calls it with no HTTP in front (the database's own ceiling);
 *      then with the worker draining on the same cores;
 *   3. confirmations sent per second by one worker process, from a backlog of `--jobs`, beside nodemailer's own pooled
 *      transport sending the same messages to the same SMTP server (scripts/bench/nodemailer-floor.ts), and the ratio,
 *      of the rates and of each process's CPU time an e-mail;
 *   4. submit-to-SMTP-accepted latency p50/p95 at 100 bookings per second;
 *   5. Lighthouse mobile, median of 5 runs: LCP, TBT, JavaScript bytes; beside it, the Request Demo link's click to
 *      a form field that takes typing (scripts/bench/click-to-typing.ts), the click at the load event and 2 s after
 *      it, 5 fresh contexts each on desktop and 5 with the CPU slowed 4x, median and range, and the script files
 *      fetched before the load event; each beside its goal, with the machine's load average; then a booking's manage page (/booking/{token}, a booking the bench makes):
 *      Lighthouse mobile median of 5 (LCP, TBT, script bytes) and, in 5 fresh contexts on desktop and 5 with the CPU
 *      slowed 4x, the time from the navigation to the booking's details on screen and the script fetched before any
 *      interaction (scripts/bench/details-visible.ts);
 *   6. cost as the data grows (scripts/bench/scale.ts): at each of `--sizes` bookings of history made in SQL, on a
 *      database of its own dropped when done, a booking's p50/p99 and the API's CPU per booking, the slots of a day,
 *      a booking by its link, the operations list's first and middle pages, the sweep's query and claim with 100,000
 *      e-mails due, the API's and the worker's memory after a full collection; the smallest size again at the end
 *      (the shared machine's drift); and the ratio of the largest size to the mean of the smallest's two runs (goal
 *      <= 1.2x). With --explain, the hot queries' plans at the largest size;
 *   7. what routing adds (scripts/bench/routing.ts): a booking's and a slot list's p50 with the team file's questions,
 *      routes and an accounts file beside the same team without them, two apps in this process side by side, and the
 *      accounts file's reading time;
 *   8. the host's answers (scripts/bench/host-answers.ts): from a host's deletion of a demo's event to the prospect's
 *      e-mail naming the new host, p50 and max of 10, with the default poll;
 *   9. a prospect's Decline landing in the reply mailbox to their slot offered again (scripts/bench/replies.ts): p50
 *      and max of 10, at the default poll setting, on a dovecot started for the run.
 *
 * Figures only; it asserts nothing. Options: --duration <s> (10), --connections <n> (50), --jobs <n> (3000), --rounds <n>
 * (1: section 3 again with a new backlog, and the median ratio),
 * --only endpoints,booking,worker,latency,lighthouse,routing,host-answers,replies,scale (all), --sizes <list> (10k,1m,10m: section 6's sizes),
 * --explain (section 6 prints the query plans), --keep-data (section 6 keeps each size's generated data as a database
 * converge_scale_data_… and measures on copies: a run within a day copies it instead of making it again; drop those
 * databases by hand when done), --before-web <dir> (section 5 also for the site built
 * in <dir>, served by a second API process on the same database, printed first: a "before" beside this build), --profile (the API and the worker write V8 CPU profiles
 * into artifacts/profiles/, one per process, which scripts/bench/profile-summary.ts sums up). BENCH_DATABASE_ADMIN_URL and BENCH_REDIS_URL point it
 * at other servers than the machine's.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';
import { createDb } from '../api/db.js';
import { DEFAULT_FOLLOW_UPS, emailRows } from '../api/bookings/emails.js';
import { DEFAULT_MEETING_URL_TEMPLATE, meetingUrlOf } from '../api/bookings/meeting.js';
import { newBookingId } from '../api/bookings/booking-id.js';
import { book } from '../api/bookings/repository.js';
import { availableSlots, calendarDayOf, formatCalendarDay } from '../domain/booking.js';
import type { DemoRequestInput } from '../domain/demo-request.js';
import { invitePathOf } from '../server-shared/booking-link.js';
import { canonicalRecipient } from '../api/email-rules.js';
import { DELIVERY_QUEUE, deliveryJob, deliveryJobOptions, jobIdOf } from '../server-shared/jobs.js';
import { clearQueuePrefix } from '../test/stack.js';
import { REPO_ROOT } from './dev-services/config.js';
import { cpuMs, delay, percentile, start, startWithPort, stop, stopAll, waitUntil } from './bench/processes.js';
import { dropScaleDatabases, parseSizes, scaleSection } from './bench/scale.js';
import { routingSection } from './bench/routing.js';
import { hostAnswersSection } from './bench/host-answers.js';
import { repliesSection } from './bench/replies.js';

const say = (line = ''): void => void process.stdout.write(`${line}\n`);

const { values: options } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    jobs: { type: 'string', default: '3000' },
    rounds: { type: 'string', default: '1' },
    only: { type: 'string', default: 'endpoints,booking,worker,latency,lighthouse,routing,host-answers,replies,scale' },
    sizes: { type: 'string', default: '10k,1m,10m' },
    explain: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    'before-web': { type: 'string' },
    'keep-data': { type: 'boolean', default: false },
  },
});
const duration = Number(options.duration);
const connections = Number(options.connections);
const jobCount = Number(options.jobs);
const rounds = Number(options.rounds);
const parts = new Set(options.only.split(','));
const sizes = parseSizes(options.sizes);

const DIST = path.join(REPO_ROOT, 'dist');
const ADMIN_URL = process.env.BENCH_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const run = randomBytes(4).toString('hex');
const database = `converge_bench_${run}`;
const prefix = `converge-bench-${run}`;
const databaseUrl = Object.assign(new URL(ADMIN_URL), { pathname: `/${database}` }).toString();
const PROFILE_FLAGS = options.profile
  ? ['--cpu-prof', `--cpu-prof-dir=${path.join(REPO_ROOT, 'artifacts', 'profiles')}`]
  : [];

/** Every slot the rules offer in the coming weeks, from tomorrow on (later than any notice). */
function futureSlots(): string[] {
  const now = new Date();
  const slots: string[] = [];
  for (let day = 1; day <= 35; day += 1) {
    for (const slot of availableSlots(
      calendarDayOf(new Date(now.getTime() + day * 86_400_000), 'Europe/Berlin'),
      now,
      'Europe/Berlin',
    ))
      slots.push(slot.iso);
  }
  return slots;
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** The server process's CPU time (user and system) per request, in µs, when it was measured. */
  cpuUs?: number;
}

const figuresOf = (result: autocannon.Result): Figures => ({
  rps: result.requests.average,
  p50: result.latency.p50,
  p99: result.latency.p99,
  non2xx: result.non2xx,
  errors: result.errors,
});
const show = (figures: Figures) =>
  `${figures.rps.toFixed(0).padStart(6)} req/s  p50 ${String(figures.p50).padStart(4)} ms  p99 ${String(figures.p99).padStart(4)} ms` +
  (figures.cpuUs === undefined ? '' : `  cpu ${figures.cpuUs.toFixed(0).padStart(4)} µs`) +
  (figures.non2xx || figures.errors ? `  (non-2xx ${figures.non2xx}, errors ${figures.errors})` : '');

/** A run of `route` on `url`, with the CPU time the server process `pid` used per request. */
async function loadWithCpu(url: string, route: Route, pid: number | undefined): Promise<Figures> {
  const before = cpuMs(pid);
  const result = await load(url, route);
  const after = cpuMs(pid);
  const figures = figuresOf(result);
  return before === undefined || after === undefined || result.requests.total === 0
    ? figures
    : { ...figures, cpuUs: ((after - before) * 1000) / result.requests.total };
}

/** Headers Koa or Node.js write for any answer: the bare server sends its own. */
const HEADERS_KOA_WRITES = new Set([
  'content-type',
  'content-length',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
]);

/** Bookings made so far by this run: every body is a new person, whichever run sends it. */
let sent = 0;

/** New people, companies and slots for each request, so no guard refuses one. */
function bookingBodies(slots: readonly string[]) {
  return () => {
    const i = sent;
    sent += 1;
    return JSON.stringify({
      name: `Bench Prospect ${i}`,
      email: `bench${i}.${run}@northwind-${i % 97}.io`,
      company: `Northwind ${i % 97}`,
      timeSlot: slots[i % slots.length],
      ...(i % 3 === 0 ? { message: 'We send a few million SMS a month and want WhatsApp next to it.' } : {}),
    });
  };
}

/** A new address for each e-mail check. */
function emailBodies() {
  let i = 0;
  return () => {
    i += 1;
    return JSON.stringify({ email: `visitor${i}.${run}@northwind-${i % 97}.io` });
  };
}

/** The API's booking settings, as the bench sets them in its environment. */
type BookingSettings = Record<
  | 'BOOKINGS_PER_EMAIL_PER_DAY'
  | 'BOOKINGS_PER_DOMAIN_PER_DAY'
  | 'EMAILS_PER_RECIPIENT_PER_DAY'
  | 'SLOT_CAPACITY'
  | 'BOOKING_LINK_SECRET',
  string
>;

/**
 * The booking's one statement alone, as the API runs it (the repository's book, on a pool the API's size), from
 * `connections` callers at once with the same bodies: what PostgreSQL itself takes per booking on these cores, with
 * no HTTP, validation or queue in front. The rows are marked confirmed afterwards, so no worker sends them.
 */
async function bookingsWithoutHttp(slots: readonly string[], env: BookingSettings): Promise<Figures> {
  const db = createDb(databaseUrl);
  const nextBody = bookingBodies(slots);
  const ids: string[] = [];
  const latencies: number[] = [];
  let errors = 0;
  const until = performance.now() + duration * 1000;
  const caller = async () => {
    while (performance.now() < until) {
      const input = JSON.parse(nextBody()) as DemoRequestInput;
      const id = newBookingId();
      const timeSlot = new Date(input.timeSlot);
      const started = performance.now();
      const outcome = await book(db, {
        id,
        input,
        recipient: canonicalRecipient(input.email),
        limits: {
          perEmailPerDay: Number(env.BOOKINGS_PER_EMAIL_PER_DAY),
          perDomainPerDay: Number(env.BOOKINGS_PER_DOMAIN_PER_DAY),
          emailsPerRecipientPerDay: Number(env.EMAILS_PER_RECIPIENT_PER_DAY),
          slotCapacity: Number(env.SLOT_CAPACITY),
        },
        emails: emailRows('booked', DEFAULT_FOLLOW_UPS, new Date(), timeSlot),
        invitePath: invitePathOf(id, env.BOOKING_LINK_SECRET),
        meetingUrl: meetingUrlOf(DEFAULT_MEETING_URL_TEMPLATE),
      }).catch(() => undefined);
      latencies.push(performance.now() - started);
      if (outcome?.outcome === 'stored') ids.push(id);
      else errors += 1;
    }
  };
  try {
    await Promise.all(Array.from({ length: connections }, caller));
    await db.raw("UPDATE deliveries SET sent_at = now() WHERE channel <> 'webhook' AND booking_id = ANY(?::uuid[])", [
      ids,
    ]);
  } finally {
    await db.destroy();
  }
  latencies.sort((a, b) => a - b);
  return {
    rps: ids.length / duration,
    p50: Math.round(percentile(latencies, 50)),
    p99: Math.round(percentile(latencies, 99)),
    non2xx: 0,
    errors,
  };
}

interface Route {
  title: string;
  method: 'GET' | 'POST';
  path: string;
  body?: () => string;
}

function load(url: string, route: Route, extra: Partial<autocannon.Options> = {}): Promise<autocannon.Result> {
  return autocannon({
    url,
    connections,
    duration,
    timeout: 10,
    requests: [
      {
        method: route.method,
        path: route.path,
        headers: { 'content-type': 'application/json' },
        ...(route.body
          ? { setupRequest: (request: autocannon.Request) => ({ ...request, body: route.body?.() }) }
          : {}),
      },
    ],
    ...extra,
  });
}

/** How long each route is loaded, on the API and on the bare server, before section 1 measures. */
const WARM_UP_SECONDS = 3;

async function main(): Promise<void> {
  // Routing's figures come from two apps in this process, not from the build.
  if (parts.size === 1 && parts.has('routing')) return routingSection({ say });
  // The host's answers come from the API and worker run from source in this process, as the tests run them.
  if (parts.size === 1 && parts.has('host-answers')) return hostAnswersSection({ say });
  // The replies' figure comes from the product in this process and a dovecot of its own, not from the build.
  if (parts.size === 1 && parts.has('replies')) return repliesSection({ say });
  for (const entry of ['api/main.js', 'worker/main.js', 'web/index.html']) {
    if (!existsSync(path.join(DIST, entry)))
      throw new Error(
        `dist/${entry} is missing: run \`npm run build\` first (the bench measures the build, it makes none)`,
      );
  }
  const scale = () =>
    scaleSection({
      sizes,
      duration,
      adminUrl: ADMIN_URL,
      redisUrl: REDIS_URL,
      say,
      explain: options.explain,
      keepData: options['keep-data'],
    });
  if (parts.size === 1 && parts.has('scale')) return scale();
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${admin.escapeIdentifier(database)}`).finally(() => admin.end());

  const accepted = new Map<string, number>();
  const smtp = await startWithPort('smtp-counter.ts', {}, (line) => {
    const [at, id] = line.split(' ');
    if (id) accepted.set(id, Number(at));
  });
  /** E-mails per second between the first and the last of `ids` the SMTP server accepted, once it has them all. */
  const acceptedRate = async (ids: readonly string[], startedAt: number) => {
    await waitUntil(async () => ids.every((id) => accepted.has(id)), 'every e-mail to be accepted', 300_000);
    const times = ids.map((id) => accepted.get(id)!).sort((a, b) => a - b);
    const first = times[0]!;
    const last = times.at(-1)!;
    return {
      perSecond: (ids.length - 1) / ((last - first) / 1000),
      firstMs: first - startedAt,
      lastMs: last - startedAt,
    };
  };
  const env = {
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    QUEUE_PREFIX: prefix,
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    BOOKING_LINK_SECRET: randomBytes(32).toString('hex'),
    DEMO_REQUESTS_PER_HOUR: '0',
    // Every connection of the load comes from this one address.
    CONNECTIONS_PER_CLIENT: '0',
    EMAIL_CHECKS_PER_MINUTE: '0',
    BOOKINGS_PER_EMAIL_PER_DAY: '0',
    BOOKINGS_PER_DOMAIN_PER_DAY: '0',
    EMAILS_PER_RECIPIENT_PER_DAY: '0',
    SLOT_CAPACITY: '1000000',
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
  };
  const apiPort = 20000 + Math.floor(Math.random() * 20000);
  const apiProcess = start([...PROFILE_FLAGS, path.join(DIST, 'api', 'main.js'), '--migrate'], {
    ...env,
    PORT: String(apiPort),
  });
  const api = `http://127.0.0.1:${apiPort}`;
  await waitUntil(
    () =>
      fetch(`${api}/readyz`).then(
        (response) => response.ok,
        () => false,
      ),
    'the API to be ready',
  );
  const startWorker = () =>
    start([...PROFILE_FLAGS, path.join(DIST, 'worker', 'main.js')], { ...env, PUBLIC_URL: api });
  const slots = futureSlots();
  const day = formatCalendarDay(calendarDayOf(new Date(slots[0]!), 'Europe/Berlin'));

  say(
    `Bench of the production build: node ${process.version}, ${connections} connections, ${duration} s a run, API ${api}`,
  );

  const routes: Route[] = [
    { title: 'GET /healthz', method: 'GET', path: '/healthz' },
    // A new address each request, as visitors send; the rules keep what they worked out for the last 2,000 domains.
    {
      title: 'POST /api/validate-email, a new address each request',
      method: 'POST',
      path: '/api/validate-email',
      body: emailBodies(),
    },
    {
      title: 'POST /api/validate-email, one repeated address',
      method: 'POST',
      path: '/api/validate-email',
      body: () => JSON.stringify({ email: 'ada@analytical-engines.com' }),
    },
    { title: `GET /api/slots?date=${day}`, method: 'GET', path: `/api/slots?date=${day}` },
    { title: 'POST /api/demo-request', method: 'POST', path: '/api/demo-request', body: bookingBodies(slots) },
  ];

  if (parts.has('endpoints') || parts.has('booking')) {
    // The bare server answers what the API answered, for the same request.
    const answers: Record<string, { status: number; body: unknown; headers: Record<string, string> }> = {};
    for (const route of routes) {
      const response = await fetch(`${api}${route.path}`, {
        method: route.method,
        headers: { 'content-type': 'application/json' },
        body: route.body?.(),
      });
      const headers = Object.fromEntries([...response.headers].filter(([name]) => !HEADERS_KOA_WRITES.has(name)));
      answers[`${route.method} ${route.path.split('?')[0]}`] = {
        status: response.status,
        body: await response.json(),
        headers,
      };
    }
    const bare = await startWithPort('bare-koa.ts', { BARE_ANSWERS: JSON.stringify(answers) });
    const bareWithHeaders = await startWithPort('bare-koa.ts', {
      BARE_ANSWERS: JSON.stringify(answers),
      BARE_SEND_HEADERS: '1',
    });
    const servers = [
      { label: 'API      ', url: api, pid: apiProcess.pid },
      { label: 'bare     ', url: `http://127.0.0.1:${bare.port}`, pid: bare.child.pid },
      { label: '+headers ', url: `http://127.0.0.1:${bareWithHeaders.port}`, pid: bareWithHeaders.child.pid },
    ];
    // The servers are warmed up alike before anything is measured: each route for a few seconds, so that the first
    // figures are not those of code not yet optimised, pools not yet filled and the new database's first pages.
    for (const route of routes) {
      if (!parts.has('endpoints') && route.path !== '/api/demo-request') continue;
      for (const server of servers) await load(server.url, route, { duration: WARM_UP_SECONDS });
    }
    say(
      `\n1. Each endpoint beside a bare Koa route answering the same JSON, and beside the same bare route sending the`,
    );
    say(
      `   API's headers too (worker stopped; all warmed up ${WARM_UP_SECONDS} s a route; cpu: the server process's CPU time per request)`,
    );
    for (const route of routes) {
      if (!parts.has('endpoints') && route.path !== '/api/demo-request') continue;
      const figures: Figures[] = [];
      for (const server of servers) figures.push(await loadWithCpu(server.url, route, server.pid));
      say(`  ${route.title}`);
      servers.forEach((server, i) => say(`    ${server.label}${show(figures[i]!)}`));
      const [real, baseline, withHeaders] = figures as [Figures, Figures, Figures];
      say(
        `    ratio     ${(real.rps / baseline.rps).toFixed(2)}x (against the bare route sending the same headers: ${(real.rps / withHeaders.rps).toFixed(2)}x)`,
      );
    }
    await Promise.all([stop(bare.child), stop(bareWithHeaders.child)]);
  }

  if (parts.has('booking')) {
    say(`\n2. POST /api/demo-request, ${connections} connections, a new person and slot each request`);
    const booking = routes.find((route) => route.path === '/api/demo-request')!;
    const throughApi = await loadWithCpu(api, booking, apiProcess.pid);
    say(`    worker stopped   ${show(throughApi)}`);
    const statementAlone = await bookingsWithoutHttp(slots, env);
    say(`    database alone   ${show(statementAlone)}`);
    // No longer a goal (issue 41): on two shared cores the load generator and the server share the CPU.
    say(
      `    ratio            ${(throughApi.rps / statementAlone.rps).toFixed(2)}x (the API against the statement alone)`,
    );
    const worker = startWorker();
    await delay(1500);
    say(`    worker draining  ${show(await loadWithCpu(api, booking, apiProcess.pid))}`);
    await stop(worker);
  }

  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    if (parts.has('worker')) {
      await db.query("UPDATE deliveries SET sent_at = now() WHERE channel <> 'webhook' AND sent_at IS NULL");
      say(
        `\n3. One worker process draining ${jobCount} queued confirmations into a local SMTP server, beside nodemailer's own`,
      );
      say(
        `   pooled transport sending the same messages to the same server with nothing around it (the floor); ${rounds} round(s)`,
      );
      const ratios: number[] = [];
      // The worker's CPU time an e-mail against the floor's (each process's whole life, start-up included): what the
      // worker costs beyond nodemailer, less moved than the rates by what else the machine is doing.
      const cpuRatios: number[] = [];
      for (let round = 1; round <= rounds; round += 1) {
        // A backlog stored and queued while no worker runs, then one worker process drains it.
        const { rows } = await db.query<{ id: string; email_id: string; due: string; created_at: string }>(
          `WITH booked AS (
             INSERT INTO bookings (name, email, company, time_slot)
               SELECT 'Backlog Prospect ' || n, 'backlog' || n || '@northwind-' || (n % 97) || '.io', 'Northwind ' || (n % 97), $1::timestamptz
                 FROM generate_series(1, $2::int) AS n
             RETURNING id, time_slot, created_at)
           INSERT INTO deliveries (channel, booking_id, kind, time_slot, sequence, created_at)
             SELECT 'email', id, 'confirmation', time_slot, 0, created_at FROM booked
           RETURNING booking_id AS id, id AS email_id, (extract(epoch FROM due_at) * 1000)::bigint AS due,
             created_at::text AS created_at`,
          [slots[0], jobCount],
        );
        const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
        const queue = new Queue(DELIVERY_QUEUE, { connection: redis, prefix, defaultJobOptions: deliveryJobOptions });
        for (let i = 0; i < rows.length; i += 500) {
          const jobs = rows.slice(i, i + 500).map((row) => deliveryJob(row.email_id, Number(row.due)));
          await queue.addBulk(
            jobs.map((job) => ({ name: job.name, data: job.payload, opts: { jobId: jobIdOf(job) } })),
          );
        }
        await queue.close();
        redis.disconnect();
        const drainByWorker = async () => {
          const startedAt = Date.now();
          const worker = startWorker();
          const rate = await acceptedRate(
            rows.map((row) => `<demo-${row.id}@converge.localhost>`),
            startedAt,
          );
          const cpu = cpuMs(worker.pid);
          await stop(worker);
          return { ...rate, cpuMsPerEmail: cpu === undefined ? NaN : cpu / rows.length };
        };
        // The same rows' confirmations, rendered by the worker's template, through nodemailer's pool alone.
        const sendThroughFloor = async () => {
          const startedAt = Date.now();
          let cpu = NaN;
          const floorProcess = start(
            ['--import', 'tsx', path.join(REPO_ROOT, 'scripts', 'bench', 'nodemailer-floor.ts')],
            // As text: PostgreSQL keeps microseconds, which a Date would lose.
            { ...env, PUBLIC_URL: api, FLOOR_CREATED_AT: rows[0]!.created_at },
            // Its last line is the CPU time it used; with a listener its errors reach the terminal too.
            (line) => (cpu = Number(/^cpu (\d+)/.exec(line)?.[1] ?? cpu)),
          );
          const rate = await acceptedRate(
            rows.map((row) => `<floor-${row.id}@converge.localhost>`),
            startedAt,
          );
          await new Promise((resolve) =>
            floorProcess.exitCode === null ? floorProcess.once('exit', resolve) : resolve(null),
          );
          return { ...rate, cpuMsPerEmail: cpu / rows.length };
        };
        // Every other round the floor goes first, so that a machine getting busier or quieter favours neither.
        const floorFirst = round % 2 === 0;
        const floor = floorFirst ? await sendThroughFloor() : undefined;
        const sent = await drainByWorker();
        const floorRate = floor ?? (await sendThroughFloor());
        ratios.push(sent.perSecond / floorRate.perSecond);
        cpuRatios.push(floorRate.cpuMsPerEmail / sent.cpuMsPerEmail);
        const cpuOf = (rate: { cpuMsPerEmail: number }) => `${(rate.cpuMsPerEmail * 1000).toFixed(0)} µs CPU an e-mail`;
        say(
          `    round ${round}${floorFirst ? ' (floor first)' : ''}: worker ${sent.perSecond.toFixed(0)} e-mails/s, ${cpuOf(sent)} (first accepted ${sent.firstMs} ms after it started, last ${sent.lastMs} ms)`,
        );
        say(
          `             nodemailer's pool ${floorRate.perSecond.toFixed(0)} e-mails/s, ${cpuOf(floorRate)} (first ${floorRate.firstMs} ms after its process started, last ${floorRate.lastMs} ms)`,
        );
        say(
          `             ratio ${(sent.perSecond / floorRate.perSecond).toFixed(2)}x (by CPU an e-mail: ${(floorRate.cpuMsPerEmail / sent.cpuMsPerEmail).toFixed(2)}x)`,
        );
      }
      const median = (values: number[]) =>
        percentile(
          [...values].sort((a, b) => a - b),
          50,
        ).toFixed(2);
      if (rounds > 1)
        say(`    median ratio ${median(ratios)}x, by CPU an e-mail ${median(cpuRatios)}x (the goal: 0.8x or more)`);
    }

    if (parts.has('latency')) {
      const worker = startWorker();
      await delay(1500);
      const submitted = new Map<string, number>();
      const body = bookingBodies(slots);
      await autocannon({
        url: api,
        connections: 20,
        overallRate: 100,
        duration,
        requests: [
          {
            method: 'POST',
            path: '/api/demo-request',
            headers: { 'content-type': 'application/json' },
            setupRequest: (request) => ({ ...request, body: body() }),
            onResponse: (status, responseBody) => {
              if (status === 201)
                submitted.set(
                  `<demo-${(JSON.parse(responseBody) as { id: string }).id}@converge.localhost>`,
                  Date.now(),
                );
            },
          },
        ],
      });
      await waitUntil(
        async () => [...submitted.keys()].every((id) => accepted.has(id)),
        'every booking to be confirmed',
        120_000,
      );
      await stop(worker);
      // Measured from the 201 the client read to the SMTP server's acceptance: both clocks are this machine's.
      const latencies = [...submitted].map(([id, at]) => accepted.get(id)! - at).sort((a, b) => a - b);
      say(`\n4. Submit to SMTP-accepted, 100 bookings/s for ${duration} s (${latencies.length} bookings)`);
      say(`    p50 ${percentile(latencies, 50)} ms, p95 ${percentile(latencies, 95)} ms, max ${latencies.at(-1)} ms`);
    }
  } finally {
    await db.end();
  }

  if (parts.has('lighthouse')) {
    const sites = [{ label: 'this build', url: api }];
    const beforeWeb = options['before-web'];
    if (beforeWeb) {
      const beforePort = apiPort + 1;
      start([path.join(DIST, 'api', 'main.js')], {
        ...env,
        PORT: String(beforePort),
        WEB_ROOT: path.resolve(beforeWeb),
      });
      const before = `http://127.0.0.1:${beforePort}`;
      await waitUntil(
        () =>
          fetch(`${before}/readyz`).then(
            (response) => response.ok,
            () => false,
          ),
        'the second API to be ready',
      );
      sites.unshift({ label: `the build in ${beforeWeb}`, url: before });
    }
    const { medianLighthouse } = await import('./bench/lighthouse-median.js');
    const { clickToTyping, READING_MS } = await import('./bench/click-to-typing.js');
    const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    const spread = (figures: { runs: number[]; median: number }) =>
      `median ${figures.median.toFixed(0)} ms (${Math.min(...figures.runs).toFixed(0)}–${Math.max(...figures.runs).toFixed(0)}: ${figures.runs.map((ms) => ms.toFixed(0)).join(', ')})`;
    const mark = (met: boolean) => (met ? 'met' : 'NOT met');
    const load = () =>
      os
        .loadavg()
        .map((value) => value.toFixed(2))
        .join(' / ');
    say(
      `\n5. The landing page: Lighthouse mobile (simulated throttling), 5 runs; the hero's Request Demo clicked at the load event and ${READING_MS} ms after it, 5 fresh contexts at 1440 x 900 each`,
    );
    for (const site of sites) {
      say(`  ${site.label} (load average over 1 / 5 / 15 min before: ${load()}):`);
      const clicks = [
        { label: 'desktop, at the load event', slowdown: 1, after: 0, goal: 100 },
        { label: `desktop, ${READING_MS / 1000} s after it`, slowdown: 1, after: READING_MS, goal: 100 },
        { label: 'CPU 4x slower, at the load event', slowdown: 4, after: 0, goal: 300 },
        { label: `CPU 4x slower, ${READING_MS / 1000} s after it`, slowdown: 4, after: READING_MS, goal: 300 },
      ];
      const scriptsBeforeLoad = new Set<string>();
      for (const click of clicks) {
        const figures = await clickToTyping(`${site.url}/`, 5, click.slowdown, click.after);
        for (const script of figures.scriptsBeforeLoad) scriptsBeforeLoad.add(script);
        say(
          `    click to typing, ${click.label}: ${spread(figures)} (goal <= ${click.goal} ms: ${mark(figures.median <= click.goal)})`,
        );
      }
      say(
        `    script files fetched before the load event, in any of those runs: ${scriptsBeforeLoad.size === 0 ? 'none' : [...scriptsBeforeLoad].join(', ')} (goal: none: ${mark(scriptsBeforeLoad.size === 0)})`,
      );
      const median = await medianLighthouse(`${site.url}/`, 5);
      say(
        `    LCP ${median.lcp.map(seconds).join(', ')}: median ${seconds(median.medianLcp)} (goal <= 0.80 s: ${mark(median.medianLcp <= 800)})`,
      );
      say(
        `    TBT median ${median.medianTbt.toFixed(0)} ms (goal <= 200 ms: ${mark(median.medianTbt <= 200)}); performance score median ${median.medianScore}`,
      );
      say(
        `    JavaScript transferred while Lighthouse watched the page (whatever came after its load event too): ${(median.scriptBytes / 1024).toFixed(1)} KB`,
      );
      say(`    load average after: ${load()}`);
    }

    // A booking's manage page, opened from its e-mail's link: one booking, made through the API, seen by every site.
    const { detailsVisible, IDLE_MS } = await import('./bench/details-visible.js');
    const booked = await fetch(`${api}/api/demo-request`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: bookingBodies(slots)(),
    });
    if (booked.status !== 201)
      throw new Error(`the manage page's booking was refused: ${booked.status} ${await booked.text()}`);
    const token = /^\/api\/bookings\/([^/]+)\//.exec(((await booked.json()) as { invitePath: string }).invitePath)?.[1];
    if (!token) throw new Error("the booking's answer names no manage page");
    say(
      `\n5b. A booking's manage page (/booking/{token}): Lighthouse mobile (simulated throttling), 5 runs; the details on screen, 5 fresh contexts at 1440 x 900`,
    );
    for (const site of sites) {
      const url = `${site.url}/booking/${token}`;
      const desktop = await detailsVisible(url, 5, 1);
      const slowed = await detailsVisible(url, 5, 4);
      const median = await medianLighthouse(url, 5);
      say(`  ${site.label}:`);
      say(`    LCP ${median.lcp.map(seconds).join(', ')}: median ${seconds(median.medianLcp)} (goal <= 0.80 s)`);
      say(`    TBT median ${median.medianTbt.toFixed(0)} ms; performance score median ${median.medianScore}`);
      say(
        `    JavaScript transferred while Lighthouse watched the page, nobody touching it: ${(median.scriptBytes / 1024).toFixed(1)} KB (goal <= 60 KB)`,
      );
      say(
        `    JavaScript fetched in a browser before any interaction (load and ${IDLE_MS / 1000} s idle): ${(desktop.scriptBytes / 1024).toFixed(1)} KB ` +
          `(goal <= 60 KB); besides, written into the page: ${(desktop.inlineScriptBytes / 1024).toFixed(1)} KB uncompressed`,
      );
      say(`    details (status, when, who) on screen from the navigation's start, desktop: ${spread(desktop)}`);
      say(`    the same, CPU 4x slower: ${spread(slowed)}`);
    }
  }

  if (parts.has('routing')) await routingSection({ say });
  if (parts.has('host-answers')) await hostAnswersSection({ say });
  if (parts.has('replies')) await repliesSection({ say });
  if (parts.has('scale')) await scale();
}

async function cleanUp(): Promise<void> {
  await stopAll();
  await dropScaleDatabases(ADMIN_URL);
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin
    .query(`DROP DATABASE IF EXISTS ${admin.escapeIdentifier(database)} WITH (FORCE)`)
    .finally(() => admin.end());
  await clearQueuePrefix(prefix, REDIS_URL);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void cleanUp().finally(() => process.exit(130)));
}
try {
  await main();
} catch (err) {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
