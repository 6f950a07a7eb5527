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
 * Each section is a module of scripts/bench/ (endpoints, booking, worker-drain, latency, landing-page, scale, routing,
 * host-answers, replies); built-stack.ts starts the build's processes, load.ts runs autocannon and shows its figures.
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
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { clearQueuePrefix } from '../test/stack.js';
import { REPO_ROOT } from './dev-services/config.js';
import { stopAll } from './bench/processes.js';
import { futureSlots } from './bench/bodies.js';
import { DIST, startBuiltStack } from './bench/built-stack.js';
import { endpointsSection } from './bench/endpoints.js';
import { bookingSection } from './bench/booking.js';
import { workerDrainSection } from './bench/worker-drain.js';
import { latencySection } from './bench/latency.js';
import { landingPageSection } from './bench/landing-page.js';
import { dropScaleDatabases, parseSizes, scaleSection } from './bench/scale.js';
import { routingSection } from './bench/routing.js';
import { hostAnswersSection } from './bench/host-answers.js';
import { repliesSection } from './bench/replies.js';
import type { BenchRun } from './bench/run.js';

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

const ADMIN_URL = process.env.BENCH_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const run = randomBytes(4).toString('hex');
const database = `converge_bench_${run}`;
const prefix = `converge-bench-${run}`;
const databaseUrl = Object.assign(new URL(ADMIN_URL), { pathname: `/${database}` }).toString();
const PROFILE_FLAGS = options.profile
  ? ['--cpu-prof', `--cpu-prof-dir=${path.join(REPO_ROOT, 'artifacts', 'profiles')}`]
  : [];
const bench: BenchRun = { say, run, duration, connections };

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

  const stack = await startBuiltStack({ databaseUrl, redisUrl: REDIS_URL, prefix, profileFlags: PROFILE_FLAGS });
  const slots = futureSlots();

  say(
    `Bench of the production build: node ${process.version}, ${connections} connections, ${duration} s a run, API ${stack.api}`,
  );
  if (parts.has('endpoints') || parts.has('booking'))
    await endpointsSection(bench, stack, slots, parts.has('endpoints'));
  if (parts.has('booking')) await bookingSection(bench, stack, slots);
  if (parts.has('worker'))
    await workerDrainSection(bench, stack, { slots, jobs: jobCount, rounds, redisUrl: REDIS_URL, prefix });
  if (parts.has('latency')) await latencySection(bench, stack, slots);
  if (parts.has('lighthouse')) await landingPageSection(bench, stack, slots, options['before-web']);

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
