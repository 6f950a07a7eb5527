/**
 * `npm run load`: load test of the production build. Starts `node dist/api/main.js --migrate` (no worker: the
 * API alone is measured; its confirmation jobs pile up in Redis and are deleted at the end) with a database of its
 * own on the machine's PostgreSQL and a key prefix of its own on the machine's Redis, per-client limits and
 * recipient ceilings off and roomy slots; then autocannon on `GET /` and on `POST /api/demo-request` (a distinct
 * e-mail address in each request), and the API process's memory (RSS) before, right after, and after an idle pause.
 * It prints figures; it asserts nothing.
 *
 *   npm run build && npm run load                       # 500 connections, 60 s per endpoint
 *   npm run load -- --duration 10 --connections 100     # a quicker run
 *
 * Options: --duration <s> (60), --connections <n> (500), --idle <s> (15: the pause before the last memory reading),
 * --only get|post. LOAD_DATABASE_ADMIN_URL (postgres://postgres@127.0.0.1:5432/postgres) and LOAD_REDIS_URL
 * (redis://127.0.0.1:6379) point it at other servers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, openSync, closeSync, statSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { availableSlots, calendarDayOf } from '../domain/booking.js';
import { clearQueuePrefix } from '../test/stack.js';
import { REPO_ROOT } from './dev-services/config.js';
import { freePort } from './dev-services/ports.js';

const say = (line = ''): void => {
  process.stdout.write(`${line}\n`);
};
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const { values: options } = parseArgs({
  options: {
    duration: { type: 'string', default: '60' },
    connections: { type: 'string', default: '500' },
    idle: { type: 'string', default: '15' },
    only: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (options.help) {
  say(
    'npm run load [-- --duration <s>] [--connections <n>] [--idle <s>] [--only get|post]   (needs npm run build first)',
  );
  process.exit(0);
}
const duration = Number(options.duration);
const connections = Number(options.connections);
const idleSeconds = Number(options.idle);
if (
  !(duration > 0) ||
  !(connections > 0) ||
  !(idleSeconds >= 0) ||
  (options.only && !['get', 'post'].includes(options.only))
) {
  process.stderr.write(
    '--duration and --connections must be positive numbers, --idle zero or more, --only get or post\n',
  );
  process.exit(2);
}

const ENTRY = path.join(REPO_ROOT, 'dist', 'api', 'main.js');
const PAGE = path.join(REPO_ROOT, 'dist', 'web', 'index.html');
const ADMIN_URL = process.env.LOAD_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.LOAD_REDIS_URL ?? 'redis://127.0.0.1:6379';

if (!existsSync(ENTRY) || !existsSync(PAGE)) {
  process.stderr.write(
    `The production build is missing (${existsSync(ENTRY) ? PAGE : ENTRY} not found).\n` +
      'Run `npm run build` first, then `npm run load`. This script measures the build and does not make it.\n',
  );
  process.exit(1);
}

/** Newest .ts source of the API's programs: if it is newer than the build, the figures are of older code. */
async function newestSource(): Promise<number> {
  let newest = statSync(path.join(REPO_ROOT, 'knexfile.ts')).mtimeMs;
  for (const folder of ['api', 'domain', 'server-shared', 'migrations']) {
    for (const entry of await readdir(path.join(REPO_ROOT, folder), { recursive: true, withFileTypes: true })) {
      if (entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
        newest = Math.max(newest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
      }
    }
  }
  return newest;
}

/** Resident memory of a process in MiB, and its peak, from /proc (Linux). */
async function memoryOf(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}

/**
 * Forces a full garbage collection in the API process and reads its memory then. The process runs without the
 * inspector during the load; SIGUSR1 switches it on afterwards (on the port given by --inspect-port at start), and a
 * short-lived `node` connects to it over the DevTools protocol (WebSocket: built into Node 22, behind a flag in 20).
 */
async function memoryAfterFullGc(
  pid: number,
  inspectPort: number,
): Promise<{ rss: number; heapUsed: number; heapTotal: number }> {
  process.kill(pid, 'SIGUSR1');
  const probe = `
    const base = 'http://127.0.0.1:${inspectPort}';
    let target;
    for (let i = 0; i < 50 && !target; i += 1) {
      target = await fetch(base + '/json/list').then((r) => r.json()).then((list) => list[0], () => undefined);
      if (!target) await new Promise((r) => setTimeout(r, 100));
    }
    if (!target) throw new Error('the inspector did not open');
    const socket = new WebSocket(target.webSocketDebuggerUrl);
    await new Promise((resolve, reject) => { socket.onopen = resolve; socket.onerror = reject; });
    let id = 0;
    const call = (method, params = {}) => new Promise((resolve) => {
      const mine = ++id;
      socket.addEventListener('message', function on(event) {
        const data = JSON.parse(event.data);
        if (data.id === mine) { socket.removeEventListener('message', on); resolve(data.result); }
      });
      socket.send(JSON.stringify({ id: mine, method, params }));
    });
    await call('HeapProfiler.collectGarbage');
    const { result } = await call('Runtime.evaluate', { expression: 'JSON.stringify(process.memoryUsage())', returnByValue: true });
    process.stdout.write(result.value);
    socket.close();
  `;
  const flags = Number(process.versions.node.split('.')[0]) < 22 ? ['--experimental-websocket'] : [];
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, [...flags, '--no-warnings', '--input-type=module', '-e', probe], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`could not force a garbage collection: ${err.trim() || `exit ${String(code)}`}`));
    });
  });
  const usage = JSON.parse(output) as { heapUsed: number; heapTotal: number };
  const mib = (bytes: number) => bytes / 1_048_576;
  return { rss: (await memoryOf(pid)).rss, heapUsed: mib(usage.heapUsed), heapTotal: mib(usage.heapTotal) };
}

/** Every bookable slot of the next five weeks, less the next three hours. */
function bookableSlots(): string[] {
  const now = new Date();
  const slots = new Set<string>();
  for (let day = 0; day < 36; day += 1) {
    for (const slot of availableSlots(
      calendarDayOf(new Date(now.getTime() + day * 86_400_000), 'Europe/Berlin'),
      now,
      'Europe/Berlin',
    )) {
      if (new Date(slot.iso).getTime() > now.getTime() + 3 * 3_600_000) slots.add(slot.iso);
    }
  }
  return [...slots];
}

const statusCount = (result: autocannon.Result, status: number): number =>
  result.statusCodeStats?.[`${status}`]?.count ?? 0;

function report(title: string, result: autocannon.Result): void {
  const conflicts = statusCount(result, 409);
  const limited = statusCount(result, 429);
  const other4xx = result['4xx'] - conflicts - limited;
  say(`\n${title}`);
  say(
    `  requests/s    ${result.requests.average.toFixed(0)} average (${result.requests.total} answered in ${result.duration} s, ${result.requests.sent} sent)`,
  );
  say(`  latency       p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`);
  say(`  2xx           ${result['2xx']}`);
  say(
    `  non-2xx       ${result.non2xx}: 409 ${conflicts}, 429 ${limited}, other 4xx ${other4xx}, 5xx ${result['5xx']}`,
  );
  say(`  errors        ${result.errors} (timeouts ${result.timeouts})`);
}

async function main(): Promise<void> {
  const run = randomBytes(4).toString('hex');
  const database = `converge_load_${run}`;
  const prefix = `converge-load-${run}`;
  const workDir = await mkdtemp(path.join(tmpdir(), 'converge-load-'));
  const logFile = path.join(workDir, 'api.log');
  let api: ChildProcess | undefined;
  let databaseMade = false;
  let failed = false;

  const cleanUp = async () => {
    if (api?.pid && api.exitCode === null && api.signalCode === null) {
      const exited = new Promise((resolve) => api?.once('exit', resolve));
      api.kill('SIGTERM');
      if (!(await Promise.race([exited.then(() => true), delay(10_000).then(() => false)]))) {
        api.kill('SIGKILL');
        await exited;
      }
    }
    if (databaseMade) {
      const admin = new pg.Client({ connectionString: ADMIN_URL });
      await admin.connect();
      await admin
        .query(`DROP DATABASE IF EXISTS ${admin.escapeIdentifier(database)} WITH (FORCE)`)
        .finally(() => admin.end());
    }
    const deleted = await clearQueuePrefix(prefix, REDIS_URL);
    say(`\ncleaned up: API stopped, database ${database} dropped, ${deleted} Redis keys under ${prefix}: deleted`);
    if (failed) say(`the API's log is kept in ${logFile}`);
    else await rm(workDir, { recursive: true, force: true });
  };
  let cleaning: Promise<void> | undefined;
  const cleanUpOnce = () => (cleaning ??= cleanUp());
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      say(`\n${signal}: stopping`);
      cleanUpOnce().finally(() => process.exit(130));
    });
  }

  try {
    const built = statSync(ENTRY).mtimeMs;
    if ((await newestSource()) > built)
      say('warning: some sources are newer than dist/: run `npm run build` to measure the current code');

    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${admin.escapeIdentifier(database)}`).finally(() => admin.end());
    databaseMade = true;
    const databaseUrl = new URL(ADMIN_URL);
    databaseUrl.pathname = `/${database}`;

    const port = await freePort();
    const inspectPort = await freePort();
    const log = openSync(logFile, 'w');
    // --inspect-port only says where the inspector would listen: it stays off until the end (see memoryAfterFullGc).
    api = spawn(process.execPath, [`--inspect-port=127.0.0.1:${inspectPort}`, ENTRY, '--migrate'], {
      cwd: REPO_ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: databaseUrl.toString(),
        REDIS_URL,
        QUEUE_PREFIX: prefix,
        DEMO_REQUESTS_PER_HOUR: '0',
        // Every connection of the load comes from this one address.
        CONNECTIONS_PER_CLIENT: '0',
        EMAIL_CHECKS_PER_MINUTE: '0',
        BOOKINGS_PER_EMAIL_PER_DAY: '0',
        BOOKINGS_PER_DOMAIN_PER_DAY: '0',
        SLOT_CAPACITY: '100000',
        BOOKING_LINK_SECRET: randomBytes(32).toString('hex'),
        LOG_LEVEL: 'info',
      },
      // Straight into a file, as a container's log driver would take it: the load generator never reads it.
      stdio: ['ignore', log, log],
    });
    closeSync(log);
    const pid = api.pid ?? 0;
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 30_000;
    for (;;) {
      const ready = await fetch(`${url}/readyz`).then(
        (response) => response.ok,
        () => false,
      );
      if (ready) break;
      if (api.exitCode !== null || Date.now() > deadline) {
        const tail = (await readFile(logFile, 'utf8').catch(() => '')).split('\n').slice(-15).join('\n');
        throw new Error(
          `the API did not become ready (is PostgreSQL on ${ADMIN_URL} and Redis on ${REDIS_URL} up?)\n${tail}`,
        );
      }
      await delay(200);
    }
    await delay(2000);
    const before = await memoryOf(pid);

    say(`Load test of the production build (node ${process.version}, pid ${pid}, ${url})`);
    say(`  ${connections} connections, ${duration} s per endpoint; no worker (jobs wait in Redis under ${prefix}:)`);
    say(`  per-client limits and recipient ceilings off, SLOT_CAPACITY=100000, LOG_LEVEL=info to a file`);
    say(`  API memory before: RSS ${before.rss.toFixed(1)} MiB`);

    if (options.only !== 'post') {
      const page = await autocannon({ url: `${url}/`, connections, duration, timeout: 10 });
      report('GET /', page);
    }

    let sent = 0;
    if (options.only !== 'get') {
      const slots = bookableSlots();
      const booking = await autocannon({
        url,
        connections,
        duration,
        timeout: 10,
        requests: [
          {
            method: 'POST',
            path: '/api/demo-request',
            headers: { 'content-type': 'application/json' },
            setupRequest: (request) => {
              const i = sent;
              sent += 1;
              return {
                ...request,
                body: JSON.stringify({
                  name: `Load Prospect ${i}`,
                  email: `load${i}.${run}@northwind-${i % 97}.io`,
                  company: `Northwind ${i % 97}`,
                  timeSlot: slots[i % slots.length],
                  message: i % 3 === 0 ? 'We send a few million SMS a month and want WhatsApp next to it.' : undefined,
                }),
              };
            },
          },
        ],
      });
      report('POST /api/demo-request (a distinct e-mail address each)', booking);
      await delay(2000);
      const client = new pg.Client({ connectionString: databaseUrl.toString() });
      await client.connect();
      const { rows } = await client
        .query<{ count: string }>('SELECT count(*) FROM bookings')
        .finally(() => client.end());
      // autocannon stops counting at the deadline: requests still in flight then are stored but not in its figures.
      say(
        `  rows stored   ${rows[0]?.count ?? '?'} (201s counted: ${statusCount(booking, 201)}; requests in flight at the deadline: ${booking.requests.sent - booking.requests.total})`,
      );
    }

    const after = await memoryOf(pid);
    await delay(idleSeconds * 1000);
    const rested = await memoryOf(pid);
    const ratio = rested.rss / before.rss;
    const collected = await memoryAfterFullGc(pid, inspectPort).catch((err: unknown) =>
      err instanceof Error ? err : new Error(String(err)),
    );
    const logText = await readFile(logFile, 'utf8');
    const errorLines = logText.split('\n').filter((line) => /"level":(50|60)/.test(line));
    const errorMessages = new Map<string, number>();
    for (const line of errorLines) {
      const message = /"message":"([^"]{0,120})/.exec(line)?.[1] ?? /"msg":"([^"]{0,120})/.exec(line)?.[1] ?? '?';
      errorMessages.set(message, (errorMessages.get(message) ?? 0) + 1);
    }

    say('\nAPI memory (RSS)');
    say(`  before        ${before.rss.toFixed(1)} MiB`);
    say(`  right after   ${after.rss.toFixed(1)} MiB (peak ${after.peak.toFixed(1)} MiB)`);
    say(
      `  after ${idleSeconds} s idle ${rested.rss.toFixed(1)} MiB: ${ratio.toFixed(2)} × before, ${ratio <= 1.5 ? 'within' : 'ABOVE'} the 1.5 × bound`,
    );
    if (collected instanceof Error) say(`  after full GC (not measured: ${collected.message})`);
    else {
      const gcRatio = collected.rss / before.rss;
      say(
        `  after full GC ${collected.rss.toFixed(1)} MiB: ${gcRatio.toFixed(2)} × before, ${gcRatio <= 1.5 ? 'within' : 'ABOVE'} the 1.5 × bound ` +
          `(V8 heap used ${collected.heapUsed.toFixed(1)} of ${collected.heapTotal.toFixed(1)} MiB)`,
      );
    }
    say(
      `  API log       ${errorLines.length} error lines${[...errorMessages]
        .slice(0, 5)
        .map(([message, count]) => `\n    ${count} × ${message}`)
        .join('')}`,
    );
  } catch (err) {
    failed = true;
    process.stderr.write(`load test failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  } finally {
    await cleanUpOnce();
  }
}

await main();
