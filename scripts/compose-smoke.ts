/**
 * `npm run test:compose`: the compose smoke test. On a Debian machine (root, or a user of the docker group) it runs
 * the real stack of docker-compose.yml and checks what operations rely on:
 *
 *   1. Docker: installs Debian's docker.io and docker-compose if missing, starts dockerd if none answers, and uses
 *      Compose v2 (`docker compose`) where it exists, else v1 (`docker-compose`).
 *   2. Base images: pulled where Docker Hub answers, else built as local stand-ins by
 *      shared/container-images/build-standins.sh: STANDINS_SCRIPT if set, else the first found beside this
 *      checkout or one of its parent folders, or beside the repository it was cloned from (a CI clone elsewhere).
 *   3. As a clean clone: no .env (an empty file in its place, so a developer's own is not read) and none of the
 *      settings of .env.example in the environment but the free host ports. `up --build`, every service healthy;
 *      the booking-link secret and the admin token made once in the `secrets` volume (node's alone, 700 and 600;
 *      the same in the API and the worker; nothing in the image). The demo team: GET /api/hosts shows its three
 *      calendars readable, none failed to read on the way, the CalDAV server is not root; the slot of the weekly
 *      sales sync (every host busy) and those of the seeded one-off workshop are not offered while the slots beside
 *      them are; a free one is booked (201). Its confirmation in Mailpit with links signed by the kept secret; the
 *      operations endpoint answers the kept token; no log line holds either secret. `down` then `up` (no -v): the
 *      same secret, and the first booking's link still answers 200.
 *   4. The .env cases, on new PostgreSQL and Redis volumes (the secrets volume stays): an env file with a PostgreSQL
 *      password full of URL syntax (p@ss/w:rd#1), a BOOKING_LINK_SECRET and an ADMIN_TOKEN of its own, which win
 *      over the kept ones. dist/api/migrate.js (the Kubernetes migration Job and the API's init container) runs
 *      from the image. One demo booked, its links signed with the .env secret.
 *   5. The worker scaled to 3; 20 more bookings, in slots GET /api/slots offers; exactly 20 more e-mails, one per
 *      booking (by Message-ID).
 *   6. The workers stopped: each exits 0 within 10 s (`stop -t 10`: a worker still running then is killed, 137).
 *   7. `down` then `up`: the rows are still there (GET /api/demo-requests, and psql in the postgres container).
 *
 * It runs as its own compose project (converge-smoke) on free host ports, always ends with `down -v` (also on a
 * failure, Ctrl-C or the overall time limit) and prints each step with its time. Settings: COMPOSE_SMOKE_TIMEOUT_MINUTES
 * (default 20), COMPOSE_SMOKE_KEEP=1 (leave the stack running for a look; `down -v` is then yours to run).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { EMAIL_LOGO } from '../domain/brand.js';
import {
  calendarDayOf,
  DEFAULT_BOOKING_TIME_ZONE,
  FIRST_SLOT_HOUR,
  formatCalendarDay,
  slotStartsOf,
  type CalendarDay,
  type DaySlots,
} from '../domain/booking.js';
import { bookingToken } from '../server-shared/booking-link.js';
import { KEPT_SECRET_FILES } from '../server-shared/kept-secrets.js';
import { REPO_ROOT } from './dev-services/config.js';
import { freePort } from './dev-services/ports.js';

const PROJECT = 'converge-smoke';
const COMPOSE_FILE = path.join(REPO_ROOT, 'docker-compose.yml');
const STANDINS_PATH = path.join('shared', 'container-images', 'build-standins.sh');
const LOG_FILE = path.join(REPO_ROOT, 'artifacts', 'compose-smoke.log');
/** What `--env-file` names: empty for the clean clone, then the .env cases' settings. */
const NO_ENV_FILE = path.join(REPO_ROOT, 'artifacts', 'compose-smoke.no.env');
const ENV_FILE = path.join(REPO_ROOT, 'artifacts', 'compose-smoke.env');
/** Where the compose file mounts the secrets volume (SECRETS_DIR). */
const SECRETS_DIR = '/var/lib/converge/secrets';
const APP_IMAGE = 'converge-app:latest';
/** Every character that breaks a postgres:// URL when written into it unencoded. */
const POSTGRES_PASSWORD = 'p@ss/w:rd#1';
const MORE_BOOKINGS = 20;
const WORKERS = 3;
const STOP_SECONDS = 10;
const TIMEOUT_MINUTES = Number(process.env.COMPOSE_SMOKE_TIMEOUT_MINUTES ?? 20);
/** Every service of the stack, one container each (the worker scales later). */
const STACK = { postgres: 1, redis: 1, mailpit: 1, caldav: 1, api: 1, worker: 1 };
/** The demo team of docker/caldav/demo-team.json, whose calendars docker/caldav/seed.py fills on the first start. */
const DEMO_HOSTS = ['Anna Berg', 'Dana Whitfield', 'Lina Okafor'];
/** A one-off event the seed puts in Anna Berg's and Lina Okafor's calendars (Dana Whitfield is not at work then). */
const WORKSHOP_PATH = '/user/calendars/anna-berg/customer-workshop.ics';
const KEEP = process.env.COMPOSE_SMOKE_KEEP === '1';

// --- output and processes --------------------------------------------------------------------------------------------

const startedAt = Date.now();
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const say = (line: string) => process.stdout.write(`${line}\n`);
const note = (line: string) => say(`      ${line}`);

class SmokeFailure extends Error {}
function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new SmokeFailure(message);
}

async function step<T>(title: string, body: () => Promise<T>): Promise<T> {
  const begun = Date.now();
  say(`\n==> [${seconds(begun - startedAt).padStart(8)}] ${title}`);
  logLine(`\n==> ${title}`);
  const result = await body();
  say(`    ok in ${seconds(Date.now() - begun)}`);
  return result;
}

function logLine(text: string): void {
  appendFileSync(LOG_FILE, text.endsWith('\n') ? text : `${text}\n`);
}

const children = new Set<ChildProcess>();

interface RunOptions {
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
  /** Resolve with the exit code instead of failing on a non-zero one. */
  allowFailure?: boolean;
  /** Echo the output lines that match (a long build's headings) to this terminal; all of it goes to the log file. */
  echo?: RegExp;
  /** The output is a secret: kept from the log file. */
  secretOutput?: boolean;
}
interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end (bounded), output kept for the caller and written to the log file. */
function run(command: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
  const { timeoutMs = 120_000, env = process.env, allowFailure = false, echo, secretOutput = false } = options;
  const show = (chunk: Buffer) => {
    if (!echo) return;
    for (const line of chunk.toString().split('\n')) if (echo.test(line)) say(`      ${line.trim()}`);
  };
  logLine(`$ ${command} ${args.join(' ')}`);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
      logLine(secretOutput ? '(a secret: not logged)' : chunk.toString());
      show(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
      logLine(chunk.toString());
      show(chunk);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      children.delete(child);
      reject(new SmokeFailure(`${command}: ${err.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      const exit = code ?? 128;
      if (exit !== 0 && !allowFailure) {
        const why = signal === 'SIGKILL' ? `killed after ${seconds(timeoutMs)}` : `exit code ${exit}`;
        const tail = `${stdout}\n${stderr}`.trim().split('\n').slice(-40).join('\n');
        reject(new SmokeFailure(`\`${command} ${args.join(' ')}\` failed (${why}):\n${tail}`));
      } else {
        resolve({ code: exit, stdout, stderr });
      }
    });
  });
}

const succeeds = async (command: string, args: string[], timeoutMs = 30_000) =>
  (await run(command, args, { allowFailure: true, timeoutMs }).catch(() => ({ code: 1 }))).code === 0;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it returns a value (not undefined) or the time is up; `describe` says what was awaited. */
async function waitFor<T>(
  describe: string,
  timeoutMs: number,
  probe: () => Promise<T | undefined>,
  everyMs = 1000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (err) {
      lastError = err instanceof Error ? err.message : String(err);
    }
    if (Date.now() > deadline)
      throw new SmokeFailure(
        `timed out after ${seconds(timeoutMs)} waiting for ${describe}${lastError ? ` (${lastError})` : ''}`,
      );
    await sleep(everyMs);
  }
}

// --- compose -----------------------------------------------------------------------------------------------------------

interface Compose {
  label: string;
  command: string;
  prefix: string[];
}

interface Ports {
  api: number;
  mailpitUi: number;
  mailpitSmtp: number;
  redis: number;
  caldav: number;
}

let compose: Compose | undefined;
let composeEnv: NodeJS.ProcessEnv = process.env;
let envFile = NO_ENV_FILE;

function composeRun(args: string[], options: RunOptions = {}): Promise<RunResult> {
  if (!compose) throw new Error('compose not chosen yet');
  return run(compose.command, [...compose.prefix, '--env-file', envFile, '-f', COMPOSE_FILE, '-p', PROJECT, ...args], {
    env: composeEnv,
    ...options,
  });
}

interface ContainerState {
  id: string;
  name: string;
  service: string;
  status: string;
  health: string | undefined;
  exitCode: number;
}

async function containers(service?: string): Promise<ContainerState[]> {
  // `ps -a -q` lists stopped containers too; v1 has no -a and lists them anyway.
  const ps = await composeRun([
    'ps',
    ...(compose?.label.startsWith('v2') ? ['-a'] : []),
    '-q',
    ...(service ? [service] : []),
  ]);
  const ids = ps.stdout
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  if (ids.length === 0) return [];
  const inspect = await run('docker', ['inspect', ...ids]);
  const found = JSON.parse(inspect.stdout) as Array<{
    Id: string;
    Name: string;
    Config: { Labels: Record<string, string> };
    State: { Status: string; ExitCode: number; Health?: { Status: string } };
  }>;
  return found.map((c) => ({
    id: c.Id.slice(0, 12),
    name: c.Name.replace(/^\//, ''),
    service: c.Config.Labels['com.docker.compose.service'] ?? '?',
    status: c.State.Status,
    health: c.State.Health?.Status,
    exitCode: c.State.ExitCode,
  }));
}

/** Every container of the project running, and healthy where it has a health check; `expected` counts per service. */
async function waitHealthy(expected: Record<string, number>, timeoutMs = 240_000): Promise<void> {
  let last = '';
  await waitFor(
    'every service healthy',
    timeoutMs,
    async () => {
      const all = await containers();
      last = all.map((c) => `${c.name}: ${c.status}${c.health ? `/${c.health}` : ''}`).join(', ');
      const ready = Object.entries(expected).every(([service, count]) => {
        const mine = all.filter((c) => c.service === service && c.status === 'running');
        return mine.length === count && mine.every((c) => c.health === undefined || c.health === 'healthy');
      });
      return ready ? true : undefined;
    },
    2000,
  ).catch((err: unknown) => {
    throw new SmokeFailure(`${err instanceof Error ? err.message : String(err)}; last seen: ${last}`);
  });
  note(last);
}

// --- the HTTP APIs -------------------------------------------------------------------------------------------------------

async function http<T>(url: string, init: RequestInit = {}): Promise<{ status: number; body: T; text: string }> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(15_000) });
  const text = await response.text();
  let body: unknown = text;
  if ((response.headers.get('content-type') ?? '').includes('json')) body = JSON.parse(text);
  return { status: response.status, body: body as T, text };
}

interface Booking {
  id: string;
  email: string;
  timeSlot: string;
  invitePath: string;
  /** Who gives the demo (the demo team is on). */
  host?: { name: string; title: string };
}

/** The booking zone's day `offset` days from now. */
const dayAhead = (offset: number): CalendarDay =>
  calendarDayOf(new Date(Date.now() + offset * 86_400_000), DEFAULT_BOOKING_TIME_ZONE);

async function daySlots(apiUrl: string, day: CalendarDay): Promise<DaySlots> {
  const { status, body, text } = await http<DaySlots>(`${apiUrl}/api/slots?date=${formatCalendarDay(day)}`);
  check(status === 200, `GET /api/slots?date=${formatCalendarDay(day)} answered ${status}: ${text.slice(0, 300)}`);
  return body;
}

/**
 * The slots GET /api/slots offers in the coming weeks, from tomorrow on (today's may pass while the test runs),
 * but those in `besides`: with the demo team a slot is offered while one of its hosts is free.
 */
async function offeredSlots(apiUrl: string, count: number, besides: readonly string[]): Promise<string[]> {
  const slots: string[] = [];
  for (let offset = 1; offset <= 31 && slots.length < count; offset++) {
    for (const slot of (await daySlots(apiUrl, dayAhead(offset))).slots)
      if (slot.available && !besides.includes(slot.start)) slots.push(slot.start);
  }
  check(slots.length >= count, `only ${slots.length} slots offered in the next month`);
  return slots.slice(0, count);
}

async function book(apiUrl: string, index: number, timeSlot: string): Promise<Booking> {
  // A company address of its own domain each, so no per-address or per-domain ceiling is reached.
  const n = String(index).padStart(2, '0');
  const email = `ada.lovelace${n}@northwind-smoke${n}.com`;
  const { status, body, text } = await http<{
    id: string;
    timeSlot: string;
    invitePath: string;
    host?: { name: string; title: string };
  }>(`${apiUrl}/api/demo-request`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      name: `Ada Lovelace ${n}`,
      email,
      company: `Northwind ${n}`,
      timeSlot,
      message: 'compose smoke test',
    }),
  });
  check(status === 201, `POST /api/demo-request answered ${status}: ${text.slice(0, 300)}`);
  check(body.timeSlot === timeSlot, `booked ${body.timeSlot}, asked for ${timeSlot}`);
  return {
    id: String(body.id),
    email,
    timeSlot,
    invitePath: body.invitePath,
    ...(body.host ? { host: body.host } : {}),
  };
}

interface MailSummary {
  ID: string;
  MessageID: string;
  To: Array<{ Address: string }>;
}

async function mailbox(mailpitUrl: string): Promise<MailSummary[]> {
  const { status, body } = await http<{ total: number; messages: MailSummary[] }>(
    `${mailpitUrl}/api/v1/messages?limit=500`,
  );
  check(status === 200, `Mailpit answered ${status}`);
  return body.messages;
}

/** Message-ID of a booking's confirmation, as Mailpit shows it (without the angle brackets). */
const messageIdOf = (mail: MailSummary) => mail.MessageID.replace(/^<|>$/g, '');
const bookingIdOf = (mail: MailSummary) => /^demo-(.+)@/.exec(messageIdOf(mail))?.[1];
/** A host's copy of a booking's event (the demo team is on): one per booking. */
const isHostInvitation = (mail: MailSummary) => messageIdOf(mail).startsWith('host-invitation-');

/**
 * The booking in its host's own calendar on the CalDAV service: the event under the booking's UID, at its slot,
 * with its video room. The host is one of the demo team, whose calendars are named after them.
 */
async function eventInHostCalendar(caldavUrl: string, booking: Booking): Promise<void> {
  check(booking.host, 'the booking answered no host, with the demo team on');
  const calendar = booking.host.name.toLowerCase().replace(/\s+/g, '-');
  const url = `${caldavUrl}/user/calendars/${calendar}/${encodeURIComponent(`demo-${booking.id}@converge.localhost`)}.ics`;
  const event = await waitFor(`the booking in ${booking.host.name}'s calendar`, 60_000, async () => {
    const answer = await http<string>(url);
    return answer.status === 200 ? answer.text : undefined;
  });
  const start = booking.timeSlot.replace(/[-:]/g, '').replace('.000Z', 'Z');
  check(
    event.includes(`DTSTART:${start}`),
    `the event in ${booking.host.name}'s calendar does not start at ${booking.timeSlot}:\n${event}`,
  );
  // The server may write the event's lines back folded and its parameters in another order.
  const unfolded = event.replace(/\r?\n[ \t]/g, '');
  check(
    /^CONFERENCE;[^\r\n]*FEATURE=VIDEO[^\r\n]*:https:\/\//m.test(unfolded),
    `the event in the host's calendar has no video room:\n${event}`,
  );
  note(`the booking is in ${booking.host.name}'s calendar (${calendar}), at its slot, with its video room`);
}

// --- steps ----------------------------------------------------------------------------------------------------------------

async function ensureDocker(): Promise<void> {
  const has = (program: string) => succeeds('sh', ['-c', `command -v ${program}`]);
  const daemonAnswers = () => succeeds('docker', ['info'], 20_000);
  const packages: string[] = [];
  if (!(await has('docker')) || (!(await daemonAnswers()) && !(await has('dockerd')))) packages.push('docker.io');
  if (!(await has('docker-compose')) && !(await succeeds('docker', ['compose', 'version'])))
    packages.push('docker-compose');
  if (packages.length > 0) {
    check(
      process.getuid?.() === 0,
      `${packages.join(' and ')} missing, and only root can install them: apt-get install -y ${packages.join(' ')}`,
    );
    note(`installing ${packages.join(', ')} (apt-get)`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    await run('apt-get', ['update', '-qq'], { env, timeoutMs: 300_000 });
    await run('apt-get', ['install', '-y', '-qq', ...packages], { env, timeoutMs: 600_000 });
  }
  if (!(await daemonAnswers())) {
    const log = path.join(tmpdir(), 'dockerd.log');
    note(`no Docker daemon answers: starting dockerd in the background (log: ${log})`);
    const out = openSync(log, 'a');
    spawn('dockerd', [], { detached: true, stdio: ['ignore', out, out] }).unref();
    await waitFor('dockerd to answer', 60_000, async () => ((await daemonAnswers()) ? true : undefined));
  }
  const server = await run('docker', ['version', '--format', '{{.Server.Version}}']);
  note(`Docker daemon ${server.stdout.trim()}`);
}

async function chooseCompose(): Promise<Compose> {
  if (await succeeds('docker', ['compose', 'version']))
    return { label: 'v2 (docker compose)', command: 'docker', prefix: ['compose'] };
  if (await succeeds('docker-compose', ['version']))
    return { label: 'v1 (docker-compose)', command: 'docker-compose', prefix: [] };
  throw new SmokeFailure('neither `docker compose` nor `docker-compose` works');
}

/** The images the stack is built from: compose's image: lines (services not built here) and the built ones' bases. */
function baseImages(): string[] {
  const file = parse(readFileSync(COMPOSE_FILE, 'utf8'), { merge: true }) as {
    services: Record<string, { image?: string; build?: { context: string; dockerfile?: string } }>;
  };
  const images = new Set<string>();
  for (const service of Object.values(file.services)) {
    if (service.build)
      for (const base of dockerfileBases(
        path.join(REPO_ROOT, service.build.context, service.build.dockerfile ?? 'Dockerfile'),
      ))
        images.add(base);
    else if (service.image) images.add(service.image);
  }
  return [...images];
}

/** A Dockerfile's base images: its FROM lines with their ARG defaults put in, but for its own earlier stages. */
function dockerfileBases(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const args = new Map([...text.matchAll(/^ARG (\w+)=(\S+)/gm)].map((match) => [match[1]!, match[2]!]));
  const stages = new Set<string>();
  const bases: string[] = [];
  for (const [, from, stage] of text.matchAll(/^FROM (\S+)(?: AS (\S+))?/gim)) {
    const image = from!.replace(/\$\{(\w+)\}/g, (_match, name: string) => args.get(name) ?? '');
    check(
      image !== '' && !image.includes('$'),
      `${path.relative(REPO_ROOT, file)}: FROM ${from} names no image (an ARG without a default?)`,
    );
    if (!stages.has(image)) bases.push(image);
    if (stage) stages.add(stage);
  }
  return bases;
}

/** The stand-ins script: named by STANDINS_SCRIPT, or in shared/ beside this checkout, a folder above it, or its origin. */
async function findStandinsScript(): Promise<string | undefined> {
  if (process.env.STANDINS_SCRIPT)
    return existsSync(process.env.STANDINS_SCRIPT) ? process.env.STANDINS_SCRIPT : undefined;
  const roots: string[] = [];
  for (let dir = path.dirname(REPO_ROOT); ; dir = path.dirname(dir)) {
    roots.push(dir);
    if (dir === path.dirname(dir)) break;
  }
  // A clone made from a checkout on this machine (git clone /path/to/main) names it as its origin.
  const origin = await run('git', ['-C', REPO_ROOT, 'remote', 'get-url', 'origin'], {
    allowFailure: true,
    timeoutMs: 10_000,
  });
  const originPath = origin.stdout.trim().replace(/^file:\/\//, '');
  if (origin.code === 0 && path.isAbsolute(originPath)) roots.push(path.dirname(originPath));
  return roots.map((root) => path.join(root, STANDINS_PATH)).find((candidate) => existsSync(candidate));
}

async function ensureBaseImages(): Promise<void> {
  const missing: string[] = [];
  for (const image of baseImages()) if (!(await succeeds('docker', ['image', 'inspect', image]))) missing.push(image);
  if (missing.length === 0) {
    note('all present');
    return;
  }
  for (const image of missing) {
    note(`docker pull ${image}`);
    if (!(await succeeds('docker', ['pull', image], 300_000))) {
      const script = await findStandinsScript();
      check(script, `no ${STANDINS_PATH} beside this checkout or its origin, and STANDINS_SCRIPT is not set`);
      note(`Docker Hub did not deliver ${image}: building local stand-ins with ${script}`);
      if (!(await succeeds('sh', ['-c', 'command -v debootstrap']))) {
        await run('apt-get', ['install', '-y', '-qq', 'debootstrap'], {
          env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
          timeoutMs: 300_000,
        });
      }
      // Its headings (==>) and notes (4 spaces in) here, the rest in the log file.
      await run('bash', [script], { timeoutMs: 900_000, echo: /^(==> | {4}\S)/ });
      return;
    }
  }
}

/** Every setting .env.example documents: none of them may reach the clean clone's compose from this shell. */
function documentedSettings(): Set<string> {
  const example = readFileSync(path.join(REPO_ROOT, '.env.example'), 'utf8');
  return new Set([...example.matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]!));
}

/** A clean clone's settings: nothing but free host ports (this machine may run other stacks), and no .env. */
async function cleanCloneSettings(): Promise<Ports> {
  const ports = {
    api: await freePort(),
    mailpitUi: await freePort(),
    mailpitSmtp: await freePort(),
    redis: await freePort(),
    caldav: await freePort(),
  };
  const documented = documentedSettings();
  composeEnv = {
    ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !documented.has(key))),
    // The classic builder: it needs no buildx plugin, and it builds FROM local (stand-in) images without asking a registry.
    DOCKER_BUILDKIT: process.env.DOCKER_BUILDKIT ?? '0',
    API_PORT: String(ports.api),
    MAILPIT_UI_PORT: String(ports.mailpitUi),
    MAILPIT_SMTP_PORT: String(ports.mailpitSmtp),
    REDIS_HOST_PORT: String(ports.redis),
    CALDAV_HOST_PORT: String(ports.caldav),
  };
  writeFileSync(NO_ENV_FILE, '');
  envFile = NO_ENV_FILE;
  note(
    `project ${PROJECT}; API on 127.0.0.1:${ports.api}, Mailpit on 127.0.0.1:${ports.mailpitUi}; no .env, no setting but the host ports`,
  );
  return ports;
}

interface EnvCase {
  adminToken: string;
  linkSecret: string;
}

/** The .env cases: an env file as an operator writes one, with secrets of its own and a password full of URL syntax. */
function envFileSettings(ports: Ports): EnvCase {
  const chosen = { adminToken: randomBytes(24).toString('hex'), linkSecret: randomBytes(32).toString('hex') };
  const settings = {
    POSTGRES_USER: 'converge',
    POSTGRES_PASSWORD,
    POSTGRES_DB: 'converge',
    ADMIN_TOKEN: chosen.adminToken,
    BOOKING_LINK_SECRET: chosen.linkSecret,
    PUBLIC_URL: `http://127.0.0.1:${ports.api}`,
    BOOKING_TIME_ZONE: DEFAULT_BOOKING_TIME_ZONE,
    // Every booking comes from this one client address: no per-client limit. The per-recipient ceilings stay as
    // shipped; each booking has an address and a domain of its own. One booking per slot.
    DEMO_REQUESTS_PER_HOUR: '0',
    BOOKINGS_PER_EMAIL_PER_DAY: '3',
    BOOKINGS_PER_DOMAIN_PER_DAY: '20',
    SLOT_CAPACITY: '1',
    TRUST_PROXY: '0',
    WORKER_CONCURRENCY: '5',
    LOG_LEVEL: 'info',
  };
  // Single quotes: compose v1 and v2 both take the value as it is, # and all.
  writeFileSync(
    ENV_FILE,
    Object.entries(settings)
      .map(([key, value]) => `${key}='${value}'\n`)
      .join(''),
    { mode: 0o600 },
  );
  envFile = ENV_FILE;
  note(
    `${path.relative(REPO_ROOT, ENV_FILE)}: POSTGRES_PASSWORD=${POSTGRES_PASSWORD}, a BOOKING_LINK_SECRET and an ADMIN_TOKEN of its own`,
  );
  return chosen;
}

async function upAndHealthy(): Promise<void> {
  await composeRun(['up', '--build', '-d'], { timeoutMs: 900_000 });
  await waitHealthy(STACK);
}

interface KeptSecrets {
  linkSecret: string;
  adminToken: string;
}

async function keptSecrets(): Promise<KeptSecrets> {
  const read = async (service: string, file: string) =>
    (await composeRun(['exec', '-T', service, 'cat', `${SECRETS_DIR}/${file}`], { secretOutput: true })).stdout.trim();
  const linkSecret = await read('api', KEPT_SECRET_FILES.bookingLinkSecret);
  check(
    linkSecret === (await read('worker', KEPT_SECRET_FILES.bookingLinkSecret)),
    'the API and the worker read different booking-link secrets',
  );
  return { linkSecret, adminToken: await read('api', KEPT_SECRET_FILES.adminToken) };
}

/** Made on the first start, in the volume only, readable by node alone; the same in both programs. */
async function secretsMadeOnce(): Promise<KeptSecrets> {
  const listing = await composeRun(['exec', '-T', 'api', 'sh', '-c', `cd ${SECRETS_DIR} && stat -c '%a %U %n' . *`]);
  const entries = listing.stdout
    .trim()
    .split('\n')
    .map((line) => line.trim())
    .sort();
  const expected = ['600 node admin-token', '600 node booking-link-secret', '700 node .'].sort();
  check(
    JSON.stringify(entries) === JSON.stringify(expected),
    `the secrets folder holds ${JSON.stringify(entries)}, expected ${JSON.stringify(expected)}`,
  );
  note(`${SECRETS_DIR}: ${entries.join(', ')}`);
  const kept = await keptSecrets();
  check(
    /^[0-9a-f]{64}$/.test(kept.linkSecret) && /^[0-9a-f]{64}$/.test(kept.adminToken),
    'the kept secrets are not 32 random bytes in hex',
  );
  check(kept.linkSecret !== kept.adminToken, 'the admin token is the booking-link secret');
  const image = await run('docker', ['run', '--rm', '--entrypoint', 'ls', APP_IMAGE, '-A', SECRETS_DIR]);
  check(image.stdout.trim() === '', `the image itself holds ${image.stdout.trim()} in ${SECRETS_DIR}`);
  note('the API and the worker read the same booking-link secret; the image holds none');
  return kept;
}

/** No log line of any service holds a secret; on the first start the programs say where they kept them, never what. */
async function noSecretInTheLogs(secrets: string[], made: boolean): Promise<void> {
  const logs = await composeRun(['logs', '--no-color'], { timeoutMs: 60_000 });
  const text = `${logs.stdout}\n${logs.stderr}`;
  if (made) check(/secrets made and kept for later starts/.test(text), 'no log line says where the secrets were kept');
  for (const secret of secrets) check(!text.includes(secret), 'a log line holds a secret');
  note(`${text.split('\n').length} log lines, none with a secret${made ? '; a line says where they were kept' : ''}`);
}

/** A booking's links, in the 201 answer and in its confirmation, are signed with `secret`. */
async function linksSignedWith(apiUrl: string, mailpitUrl: string, booking: Booking, secret: string): Promise<string> {
  const token = bookingToken(booking.id, secret);
  check(
    booking.invitePath === `/api/bookings/${token}/invite.ics`,
    `the API answered ${booking.invitePath}, not a link signed with the expected secret`,
  );
  const mail = (await mailbox(mailpitUrl)).find((m) => bookingIdOf(m) === booking.id);
  check(mail, `no confirmation for ${booking.id}`);
  // Quoted-printable breaks long lines with "=" at the end; the token's characters are never encoded.
  const raw = (await http<string>(`${mailpitUrl}/api/v1/message/${mail.ID}/raw`)).text.replace(/=\r?\n/g, '');
  check(
    raw.includes(`/booking/${token}`),
    'the confirmation does not link the booking with a token of the expected secret',
  );
  const page = await http<{ status: string }>(`${apiUrl}/api/bookings/${token}`);
  check(page.status === 200, `the booking's link answered ${page.status}`);
  note(`the 201 answer and the e-mail link /booking/${token.slice(0, 6)}…, which answers 200`);
  // The image holds the pictures the web build draws: the confirmation's logo is one, at the site's address
  // (PUBLIC_URL, which the clean clone leaves at compose's default).
  check(raw.includes(`${EMAIL_LOGO.path}"`), `the confirmation does not show the logo ${EMAIL_LOGO.path}`);
  const logo = await fetch(`${apiUrl}${EMAIL_LOGO.path}`, { signal: AbortSignal.timeout(15_000) });
  check(
    logo.status === 200 && logo.headers.get('content-type') === 'image/png',
    `the e-mails' logo answered ${logo.status} ${logo.headers.get('content-type')}`,
  );
  note(`the confirmation's logo ${EMAIL_LOGO.path}, a PNG the site serves`);
  return token;
}

interface HostState {
  name: string;
  state: string;
  lastGoodReadAt: string | null;
  lastError: string | null;
}

/**
 * The demo team on: GET /api/hosts shows its three calendars readable; the weekly sales sync (every host busy) and
 * the one-off customer workshop (every host at work then busy) take their slots away, and the slots beside them
 * stay. Gives the free slot beside the sync, to book.
 */
async function demoTeam(apiUrl: string, caldavUrl: string, adminToken: string): Promise<string> {
  const hosts = await waitFor('the demo team’s calendars readable (GET /api/hosts)', 90_000, async () => {
    const { status, body, text } = await http<{ team: boolean; hosts: HostState[] }>(`${apiUrl}/api/hosts`, {
      headers: { Authorization: `Bearer ${adminToken}` },
    });
    check(status === 200, `GET /api/hosts answered ${status}: ${text.slice(0, 300)}`);
    check(body.team, 'GET /api/hosts says there is no team: TEAM_FILE did not reach the API');
    return body.hosts.length === DEMO_HOSTS.length && body.hosts.every((host) => host.state === 'readable')
      ? body.hosts
      : undefined;
  });
  check(
    JSON.stringify(hosts.map((host) => host.name)) === JSON.stringify(DEMO_HOSTS),
    `GET /api/hosts lists ${hosts.map((host) => host.name).join(', ')}`,
  );
  note(`GET /api/hosts: ${hosts.map((host) => `${host.name} ${host.state} (read ${host.lastGoodReadAt})`).join('; ')}`);
  // The API started once the calendars answered: not one read failed on the way.
  const apiLogs = await composeRun(['logs', '--no-color', 'api'], { timeoutMs: 60_000 });
  check(
    !`${apiLogs.stdout}${apiLogs.stderr}`.includes('host calendar unreadable'),
    'the API logged a host calendar unreadable',
  );
  const uid = (await composeRun(['exec', '-T', 'caldav', 'id', '-u'])).stdout.trim();
  check(/^\d+$/.test(uid) && uid !== '0', `the CalDAV server runs as uid ${uid}`);
  note(`no calendar read failed; the CalDAV server runs as uid ${uid}`);

  const clock = (hour: number) => `${String(hour).padStart(2, '0')}:00`;
  const at = (day: CalendarDay, hour: number) =>
    slotStartsOf(day, DEFAULT_BOOKING_TIME_ZONE)[hour - FIRST_SLOT_HOUR]!.toISOString();
  const offered = async (day: CalendarDay, hours: number[]) => {
    const answer = await daySlots(apiUrl, day);
    check(!answer.calendarsUnreadable, `GET /api/slots?date=${answer.date} says no calendar can be read`);
    const available = new Map(answer.slots.map((slot) => [slot.start, slot.available]));
    return hours.map((hour) => available.get(at(day, hour)));
  };

  // The weekly sales sync, Tuesdays 15:00-16:00 Europe/Berlin, is in every host's calendar.
  const tuesday = [1, 2, 3, 4, 5, 6, 7]
    .map(dayAhead)
    .find((day) => new Date(Date.UTC(day.year, day.month - 1, day.day)).getUTCDay() === 2)!;
  const [before, sync, after] = await offered(tuesday, [14, 15, 16]);
  check(sync === false, `${formatCalendarDay(tuesday)} 15:00, the weekly sales sync of every host, is offered`);
  check(
    before === true && after === true,
    `${formatCalendarDay(tuesday)} 14:00 and 16:00 (hosts free) are not both offered: ${before}, ${after}`,
  );
  note(
    `${formatCalendarDay(tuesday)}: 15:00 (weekly sales sync, every host busy) not offered; 14:00 and 16:00 offered`,
  );

  // The one-off workshop, on the day the seed chose (the second weekday after the stack's first start).
  const workshop = await http<string>(`${caldavUrl}${WORKSHOP_PATH}`);
  check(workshop.status === 200, `GET ${WORKSHOP_PATH} from the CalDAV service answered ${workshop.status}`);
  const start = /^DTSTART;TZID=Europe\/Berlin:(\d{4})(\d{2})(\d{2})T(\d{2})0000\r?$/m.exec(workshop.text);
  const end = /^DTEND;TZID=Europe\/Berlin:\d{8}T(\d{2})0000\r?$/m.exec(workshop.text);
  check(start && end, `the seeded workshop has no DTSTART/DTEND in Europe/Berlin:\n${workshop.text}`);
  const day = { year: Number(start[1]), month: Number(start[2]), day: Number(start[3]) };
  const [from, to] = [Number(start[4]), Number(end[1])];
  const busy = Array.from({ length: to - from }, (_, i) => from + i);
  const states = await offered(day, [from - 1, ...busy, to]);
  check(
    states.slice(1, -1).every((state) => state === false),
    `${formatCalendarDay(day)}: the workshop's slots (${busy.join(', ')}:00) are offered: ${states.join(', ')}`,
  );
  check(
    states[0] === true && states.at(-1) === true,
    `${formatCalendarDay(day)}: the slots beside the workshop are not offered: ${states.join(', ')}`,
  );
  note(
    `${formatCalendarDay(day)}: ${busy.map(clock).join(' and ')} (one-off workshop) not offered; ${clock(from - 1)} and ${clock(to)} offered`,
  );
  return at(tuesday, 14);
}

async function adminTokenWorks(apiUrl: string, adminToken: string, booking: Booking): Promise<void> {
  const list = await http<{ demoRequests: Array<{ id: string }> }>(`${apiUrl}/api/demo-requests`, {
    headers: { Authorization: `Bearer ${adminToken}` },
  });
  check(list.status === 200, `GET /api/demo-requests answered ${list.status} to the kept admin token`);
  check(
    list.body.demoRequests.some((row) => String(row.id) === booking.id),
    'the booking is not in GET /api/demo-requests',
  );
  note('GET /api/demo-requests answers 200 to the kept admin token');
}

/** `down` (volumes kept) and `up`: the secret read from the volume again, and a link of the first start still opens. */
async function restartKeepsTheSecret(apiUrl: string, kept: KeptSecrets, token: string): Promise<void> {
  await composeRun(['down', '-t', '15'], { timeoutMs: 120_000 });
  await composeRun(['up', '-d'], { timeoutMs: 300_000 });
  await waitHealthy(STACK);
  const again = await keptSecrets();
  check(
    again.linkSecret === kept.linkSecret && again.adminToken === kept.adminToken,
    'the secrets changed across down/up',
  );
  const page = await http(`${apiUrl}/api/bookings/${token}`);
  check(page.status === 200, `the first start's booking link answered ${page.status} after down/up`);
  note('same secrets after down/up; the link from the first confirmation answers 200');
}

/** The .env cases start on a new database (the password is set when PostgreSQL makes it) and queue; the secrets stay. */
async function newDatabaseKeepSecrets(): Promise<void> {
  await composeRun(['down', '-t', '15'], { timeoutMs: 120_000 });
  await run('docker', ['volume', 'rm', `${PROJECT}_postgres-data`, `${PROJECT}_redis-data`]);
  note(`removed ${PROJECT}_postgres-data and ${PROJECT}_redis-data; ${PROJECT}_secrets stays`);
}

async function envFileWins(kept: KeptSecrets): Promise<void> {
  await composeRun(['up', '-d'], { timeoutMs: 300_000 });
  await waitHealthy(STACK);
  const still = await keptSecrets();
  check(still.linkSecret === kept.linkSecret, 'the kept secret changed while .env set another');
  note('the volume still holds the kept secret, unused while .env sets one');
}

/** The API being ready proves its connection; this proves the connection needed the password (no trust over TCP). */
async function postgresWantsThePassword(): Promise<void> {
  const psql = (password: string) =>
    composeRun(
      [
        'exec',
        '-T',
        '-e',
        `PGPASSWORD=${password}`,
        'postgres',
        'psql',
        '-h',
        '127.0.0.1',
        '-U',
        'converge',
        '-d',
        'converge',
        '-tAc',
        'select 1',
      ],
      {
        allowFailure: true,
      },
    );
  check(
    (await psql('wrong')).code !== 0,
    'PostgreSQL accepted a wrong password over TCP: the test would prove nothing',
  );
  check((await psql(POSTGRES_PASSWORD)).code === 0, `PostgreSQL refused ${POSTGRES_PASSWORD} over TCP`);
  note(`over TCP PostgreSQL refuses a wrong password and takes ${POSTGRES_PASSWORD}`);
}

/** What the Kubernetes Job and the API's init container run, from the image just built. */
async function migrationStep(): Promise<void> {
  for (const args of [['dist/api/migrate.js'], ['dist/api/migrate.js', '--wait']]) {
    const result = await composeRun(['run', '--rm', '--no-deps', '-T', 'api', 'node', ...args], { timeoutMs: 120_000 });
    check(/schema up to date/.test(result.stdout), `node ${args.join(' ')} did not say the schema is up to date`);
    note(`node ${args.join(' ')}: schema up to date, exit 0`);
  }
}

async function bookFirst(apiUrl: string, mailpitUrl: string, slot: string): Promise<Booking> {
  const booking = await book(apiUrl, 0, slot);
  note(`booked ${booking.id} for ${booking.timeSlot}`);
  const mail = await waitFor('the confirmation in Mailpit', 60_000, async () =>
    (await mailbox(mailpitUrl)).find((m) => bookingIdOf(m) === booking.id),
  );
  const raw = await http<string>(`${mailpitUrl}/api/v1/message/${mail.ID}/raw`);
  check(raw.status === 200, `Mailpit answered ${raw.status} for the raw message`);
  check(
    new RegExp(`^Message-ID: <demo-${booking.id}@`, 'im').test(raw.text),
    'the raw message has no Message-ID <demo-{id}@…>',
  );
  check(
    new RegExp(`^To: .*${booking.email.replace(/\./g, '\\.')}`, 'im').test(raw.text),
    `the message is not addressed to ${booking.email}`,
  );
  check(/text\/calendar/i.test(raw.text), 'the message carries no calendar invitation (text/calendar)');
  note(`confirmation <${messageIdOf(mail)}> to ${booking.email}, with its invitation (${raw.text.length} bytes)`);
  return booking;
}

async function scaleWorkers(): Promise<void> {
  await composeRun(['up', '-d', '--no-recreate', '--scale', `worker=${WORKERS}`], { timeoutMs: 180_000 });
  await waitHealthy({ ...STACK, worker: WORKERS });
  // The worker has no health check: its "worker ready" log line says it takes jobs.
  await waitFor(`${WORKERS} workers ready`, 60_000, async () => {
    const ready = await Promise.all(
      (await containers('worker')).map(async (worker) => (await logsOf(worker.id)).includes('worker ready')),
    );
    return ready.length === WORKERS && ready.every(Boolean) ? true : undefined;
  });
}

async function logsOf(containerId: string): Promise<string> {
  const logs = await run('docker', ['logs', containerId]);
  return `${logs.stdout}\n${logs.stderr}`;
}

async function bookMore(apiUrl: string, mailpitUrl: string, slots: string[], earlier: Booking[]): Promise<Booking[]> {
  const bookings = await Promise.all(slots.map((slot, i) => book(apiUrl, i + 1, slot)));
  const expected = new Set([...earlier, ...bookings].map((b) => b.id));
  check(expected.size === earlier.length + bookings.length, 'the API gave two bookings the same id');
  const total = expected.size;
  // Each booking's confirmation, and its host's copy of the event (the demo team is on).
  await waitFor(`${2 * total} e-mails in Mailpit`, 120_000, async () =>
    (await mailbox(mailpitUrl)).length >= 2 * total ? true : undefined,
  );
  // A duplicate would come later than its original: give the workers a moment to send one.
  await sleep(5000);
  const all = await mailbox(mailpitUrl);
  const hostInvitations = all.filter(isHostInvitation);
  check(new Set(hostInvitations.map(messageIdOf)).size === hostInvitations.length, 'a host invitation went out twice');
  check(hostInvitations.length === total, `${hostInvitations.length} host invitations for ${total} bookings`);
  const mails = all.filter((mail) => !isHostInvitation(mail));
  const perBooking = new Map<string, number>();
  for (const mail of mails) {
    const id = bookingIdOf(mail);
    check(id !== undefined && expected.has(id), `an e-mail with an unexpected Message-ID: ${mail.MessageID}`);
    perBooking.set(id, (perBooking.get(id) ?? 0) + 1);
  }
  const duplicates = [...perBooking].filter(([, n]) => n > 1);
  check(
    duplicates.length === 0,
    `bookings confirmed more than once: ${duplicates.map(([id, n]) => `${id} ×${n}`).join(', ')}`,
  );
  check(mails.length === total && perBooking.size === total, `${mails.length} e-mails for ${total} bookings`);
  note(
    `${bookings.length} more bookings, ${mails.length - earlier.length} more confirmations and as many host invitations (${hostInvitations.length} in all), each Message-ID once`,
  );
  await reportWhoSent();
  return bookings;
}

/**
 * What Prometheus would scrape after the bookings: each program's GET /metrics on its own port inside the network
 * (not published), read from within its container. The API counted the bookings created; a worker counted the
 * confirmations it sent and the time from each booking to it.
 */
async function metricsAfterBookings(bookings: number): Promise<void> {
  const scrape = async (containerId: string, port: number) =>
    (
      await run('docker', [
        'exec',
        containerId,
        'node',
        '-e',
        `fetch('http://127.0.0.1:${port}/metrics').then((r) => r.text()).then((t) => process.stdout.write(t))`,
      ])
    ).stdout;
  const value = (text: string, pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? 0);
  const [api] = await containers('api');
  check(api, 'no api container');
  const created = value(
    await scrape(api.id, 9464),
    /^converge_bookings_total\{outcome="created",program="api"\} (\d+)$/m,
  );
  check(
    created >= bookings,
    `the API's converge_bookings_total{outcome="created"} reads ${created}, after ${bookings} bookings`,
  );
  let sent = 0;
  let toLead = 0;
  for (const worker of await containers('worker')) {
    const text = await scrape(worker.id, 9465);
    sent += value(
      text,
      /^converge_outbox_deliveries_total\{kind="confirmation",outcome="sent",program="worker"\} (\d+)$/m,
    );
    toLead += value(text, /^converge_speed_to_lead_seconds_count\{program="worker"\} (\d+)$/m);
  }
  check(
    sent >= bookings && toLead >= bookings,
    `the workers' scrapes count ${sent} confirmations sent and ${toLead} speed-to-lead times, after ${bookings} bookings`,
  );
  note(
    `metrics: the API counted ${created} bookings created; the workers ${sent} confirmations sent, each timed from its booking (${toLead})`,
  );
}

/** Which worker sent how many (for the record: BullMQ hands jobs to whichever worker asks first). */
async function reportWhoSent(): Promise<void> {
  for (const worker of await containers('worker')) {
    const sent = (await logsOf(worker.id)).split('\n').filter((line) => line.includes('confirmation sent')).length;
    note(`${worker.name}: ${sent} sent`);
  }
}

async function stopWorkers(): Promise<void> {
  const begun = Date.now();
  await composeRun(['stop', '-t', String(STOP_SECONDS), 'worker'], { timeoutMs: 60_000 });
  const took = Date.now() - begun;
  const workers = await containers('worker');
  check(workers.length === WORKERS, `${workers.length} worker containers, expected ${WORKERS}`);
  for (const worker of workers) {
    note(`${worker.name}: ${worker.status}, exit code ${worker.exitCode}`);
    // 137 would mean Docker killed it after the 10 s of `stop -t 10`.
    check(
      worker.status === 'exited' && worker.exitCode === 0,
      `${worker.name} ended ${worker.status} with exit code ${worker.exitCode}`,
    );
  }
  check(took <= (STOP_SECONDS + 2) * 1000, `stopping the workers took ${seconds(took)}`);
  note(`all ${WORKERS} stopped in ${seconds(took)} (limit ${STOP_SECONDS} s), exit code 0`);
}

async function downUpKeepsRows(apiUrl: string, adminToken: string, bookings: Booking[]): Promise<void> {
  await composeRun(['down', '-t', '15'], { timeoutMs: 120_000 });
  check((await containers()).length === 0, 'containers left after `down`');
  await composeRun(['up', '-d'], { timeoutMs: 300_000 });
  await waitHealthy(STACK);
  const { status, body, text } = await http<{
    demoRequests: Array<{ id: string; confirmation: { sentAt: string | null } }>;
  }>(`${apiUrl}/api/demo-requests`, {
    headers: { Authorization: `Bearer ${adminToken}` },
  });
  check(status === 200, `GET /api/demo-requests answered ${status}: ${text.slice(0, 300)}`);
  const rows = new Map(body.demoRequests.map((row) => [String(row.id), row]));
  const lost = bookings.filter((b) => !rows.has(b.id));
  check(lost.length === 0, `rows gone after down/up: ${lost.map((b) => b.id).join(', ')}`);
  const unsent = bookings.filter((b) => !rows.get(b.id)?.confirmation.sentAt);
  check(unsent.length === 0, `rows not marked sent: ${unsent.map((b) => b.id).join(', ')}`);
  const count = await composeRun([
    'exec',
    '-T',
    'postgres',
    'psql',
    '-U',
    'converge',
    '-d',
    'converge',
    '-tAc',
    'select count(*) from bookings',
  ]);
  check(
    Number(count.stdout.trim()) === bookings.length,
    `psql counts ${count.stdout.trim()} rows, expected ${bookings.length}`,
  );
  note(`all ${bookings.length} rows kept, each marked sent (API and psql agree)`);
}

async function showLogs(): Promise<void> {
  if (!compose) return;
  const logs = await composeRun(['logs', '--no-color', '--tail', '30'], {
    allowFailure: true,
    timeoutMs: 60_000,
  }).catch(() => undefined);
  if (logs) say(`\n--- the services' last log lines ---\n${`${logs.stdout}${logs.stderr}`.trim()}\n---`);
}

let cleaning: Promise<void> | undefined;
function cleanUp(): Promise<void> {
  if (!compose) return Promise.resolve();
  if (KEEP) {
    say(
      `\nCOMPOSE_SMOKE_KEEP=1: the stack stays up; remove it with: ${compose.command} ${compose.prefix.join(' ')} -p ${PROJECT} down -v`,
    );
    return Promise.resolve();
  }
  cleaning ??= step('down -v (always)', async () => {
    await composeRun(['down', '-v', '--remove-orphans', '-t', '5'], { timeoutMs: 120_000 });
    // The env file holds the .env cases' secrets.
    rmSync(ENV_FILE, { force: true });
    rmSync(NO_ENV_FILE, { force: true });
  }).catch((err: unknown) => {
    say(`cleanup failed: ${err instanceof Error ? err.message : String(err)}`);
  });
  return cleaning;
}

async function abort(reason: string): Promise<never> {
  say(`\nFAILED: ${reason}`);
  for (const child of children) child.kill('SIGKILL');
  await showLogs();
  await cleanUp();
  say(
    `compose smoke test failed after ${seconds(Date.now() - startedAt)} (full output: ${path.relative(REPO_ROOT, LOG_FILE)})`,
  );
  process.exit(1);
}

// --- main ---------------------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  mkdirSync(path.dirname(LOG_FILE), { recursive: true });
  writeFileSync(LOG_FILE, `compose smoke test, ${new Date().toISOString()}\n`);
  say(`compose smoke test (time limit ${TIMEOUT_MINUTES} min; full output in ${path.relative(REPO_ROOT, LOG_FILE)})`);
  const hardLimit = setTimeout(
    () => void abort(`the overall time limit of ${TIMEOUT_MINUTES} min ran out`),
    TIMEOUT_MINUTES * 60_000,
  );
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => void abort(`interrupted (${signal})`));

  await step('Docker: installed and running', ensureDocker);
  const chosen = await step('Compose: v2 where it exists, else v1', chooseCompose);
  note(chosen.label);
  await step('base images: pulled, or built as local stand-ins', ensureBaseImages);
  const ports = await step('a clean clone: own project, free ports, no .env, nothing else set', cleanCloneSettings);
  compose = chosen;
  const apiUrl = `http://127.0.0.1:${ports.api}`;
  const mailpitUrl = `http://127.0.0.1:${ports.mailpitUi}`;
  const caldavUrl = `http://127.0.0.1:${ports.caldav}`;
  try {
    await step('up --build with nothing set, then every service healthy', upAndHealthy);
    const kept = await step(
      'the secrets: made once in the secrets volume, node’s alone, shared, not in the image',
      secretsMadeOnce,
    );
    const slots = await step(
      'the demo team: three calendars readable, a slot is offered only while a host is free',
      async () => {
        const free = await demoTeam(apiUrl, caldavUrl, kept.adminToken);
        return [free, ...(await offeredSlots(apiUrl, 1 + MORE_BOOKINGS, [free]))];
      },
    );
    const token = await step(
      'book the free slot beside the sync (201): a host, the event in their calendar; its confirmation and links signed with the kept secret',
      async () => {
        const booking = await bookFirst(apiUrl, mailpitUrl, slots[0]!);
        await eventInHostCalendar(caldavUrl, booking);
        await adminTokenWorks(apiUrl, kept.adminToken, booking);
        return linksSignedWith(apiUrl, mailpitUrl, booking, kept.linkSecret);
      },
    );
    await step('no log line holds a secret', () => noSecretInTheLogs([kept.linkSecret, kept.adminToken], true));
    await step('down, then up: the same secrets, the first link still answers 200', () =>
      restartKeepsTheSecret(apiUrl, kept, token),
    );

    await step('the .env cases: new database and queue volumes, the secrets volume kept', newDatabaseKeepSecrets);
    const chosenSecrets = await step(
      'an env file with a password full of URL syntax and secrets of its own',
      async () => envFileSettings(ports),
    );
    await step('up: every service healthy, the kept secret left as it is', () => envFileWins(kept));
    await step('PostgreSQL wants the password the API got through', postgresWantsThePassword);
    await step('the image’s migration step (the Kubernetes Job and init container)', migrationStep);
    const first = await step(
      'book a demo: the .env secret signs its links, the .env admin token lists it',
      async () => {
        const booking = await bookFirst(apiUrl, mailpitUrl, slots[1]!);
        await linksSignedWith(apiUrl, mailpitUrl, booking, chosenSecrets.linkSecret);
        const old = await http(`${apiUrl}/api/bookings/${bookingToken(booking.id, kept.linkSecret)}`);
        check(old.status === 404, `a token of the kept secret answered ${old.status} while .env sets another`);
        await adminTokenWorks(apiUrl, chosenSecrets.adminToken, booking);
        return booking;
      },
    );
    await step(`scale the worker to ${WORKERS}`, scaleWorkers);
    const more = await step(
      `book ${MORE_BOOKINGS} more: exactly ${MORE_BOOKINGS} more confirmations and host invitations, no duplicates`,
      () => bookMore(apiUrl, mailpitUrl, slots.slice(2), [first]),
    );
    await step('the metrics after those bookings: the API and a worker, each on its own port inside the network', () =>
      metricsAfterBookings(1 + MORE_BOOKINGS),
    );
    await step('no log line holds a secret of the env file', () =>
      noSecretInTheLogs([chosenSecrets.linkSecret, chosenSecrets.adminToken], false),
    );
    await step(`stop the workers: each exits 0 within ${STOP_SECONDS} s`, stopWorkers);
    await step('down, then up: the rows are kept', () =>
      downUpKeepsRows(apiUrl, chosenSecrets.adminToken, [first, ...more]),
    );
  } catch (err) {
    clearTimeout(hardLimit);
    await abort(err instanceof Error ? err.message : String(err));
  }
  await cleanUp();
  clearTimeout(hardLimit);
  say(`\ncompose smoke test passed in ${seconds(Date.now() - startedAt)} (Compose ${chosen.label})`);
}

main().catch((err: unknown) => abort(err instanceof Error ? (err.stack ?? err.message) : String(err)));
