/**
 * `npm start` as a developer runs it (scripts/start.ts in a child process): what it says first, a booking that
 * ends as an .eml file and, with the consent, as a text file of the embedded SMSC, a STOP answered from the phone,
 * and a SIGTERM that leaves no process behind; and a WEBHOOK_URL every delivery would refuse, which stops it, as it
 * stops the API's own entry point (api/main.ts).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { startSmsc } from '../test/smsc.js';
import { startSmtpSink } from '../test/smtp-sink.js';
import { OPTED_OUT_TEXT } from '../worker/sms/inbound.js';
import { newWebhookSecret } from '../server-shared/webhooks.js';
import { TEST_REDIS_URL, clearQueuePrefix, testQueuePrefix } from '../test/stack.js';
import { until } from '../test/until.js';
import { isAlive } from './dev-services/ports.js';
import { demoRequestBody, spawnProgram, timeToExit, type Spawned } from './dev-services/testing/spawned.js';

const EXIT_LIMIT_MS = 10_000;

interface ChildInfo {
  pid: number;
  command: string;
}

/** The process's children, but for the esbuild service tsx runs to compile TypeScript (it ends with its parent). */
function childrenOf(pid: number): ChildInfo[] {
  let listing: string;
  try {
    listing = execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(pid)], { encoding: 'utf8' });
  } catch {
    return []; // ps exits 1 when there is none
  }
  return listing
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .map(([child, command]) => ({ pid: Number(child), command: command ?? '' }))
    .filter((child) => child.pid > 0 && child.command !== 'esbuild');
}

async function readyUrl(start: Spawned, timeoutMs = 60_000): Promise<string> {
  const line = await start.waitForLog(
    (entry) => typeof entry.msg === 'string' && entry.msg.startsWith('Converge is running at'),
    timeoutMs,
  );
  return String(line.url);
}

/** A mobile number of a real plan, and the consent to text it. */
const TEXTED = { phone: '+33 6 12 34 56 78', smsConsent: true };

async function book(url: string, extra: Record<string, unknown> = {}): Promise<string> {
  const response = await fetch(`${url}/api/demo-request`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...demoRequestBody(), ...extra }),
  });
  const body = (await response.json()) as { id?: string };
  expect(response.status, JSON.stringify(body)).to.equal(201);
  return String(body.id);
}

/** The `count`th file of this ending in `dir`, in the order of their names (of arrival). */
async function waitForFile(dir: string, ending = '.eml', count = 1, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const files = existsSync(dir) ? (await readdir(dir)).filter((name) => name.endsWith(ending)).sort() : [];
    if (files[count - 1]) return path.join(dir, files[count - 1]!);
    if (Date.now() > deadline) throw new Error(`no ${count} ${ending} file(s) in ${dir} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A tiny stand-in for the built page, so these tests never wait for webpack. */
async function makeWebRoot(dir: string): Promise<string> {
  const webRoot = path.join(dir, 'web');
  await mkdir(webRoot, { recursive: true });
  await writeFile(path.join(webRoot, 'index.html'), '<!doctype html><title>Converge</title><h1>Converge</h1>');
  await writeFile(path.join(webRoot, '404.html'), '<!doctype html><title>404 Page Not Found</title>');
  return webRoot;
}

describe('npm start (scripts/start.ts)', function () {
  this.timeout(90_000);
  let scratch: string;
  let database: TestDatabase;
  let queuePrefix: string;
  let start: Spawned | undefined;

  beforeEach(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'converge-start-'));
    // As root, the embedded PostgreSQL runs as the postgres user, who must be able to enter this folder.
    await chmod(scratch, 0o755);
    database = await createTestDatabase({ migrate: false });
    queuePrefix = testQueuePrefix();
  });
  afterEach(async () => {
    if (start?.isRunning()) start.child.kill('SIGKILL');
    start = undefined;
    await database.drop();
    await clearQueuePrefix(queuePrefix);
    await rm(scratch, { recursive: true, force: true });
  });

  it('uses DATABASE_URL and REDIS_URL as given, saves e-mails as .eml files without SMTP_URL and texts as .txt files without SMPP_URL, and stops on SIGTERM', async () => {
    const dataDir = path.join(scratch, 'data');
    start = spawnProgram('scripts/start.ts', {
      PORT: '0',
      DATABASE_URL: database.url,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: queuePrefix,
      DATA_DIR: dataDir,
      WEB_ROOT: await makeWebRoot(scratch),
    });
    const url = await readyUrl(start);
    const said = start.logs.map((line) => line.msg);
    expect(said[0]).to.match(/^Converge starting on http:\/\/127\.0\.0\.1:0$/);
    // The sales page can be signed into with no setting: the token is made and its file named in the first lines.
    const tokenFile = path.join(dataDir, 'admin-token');
    expect(said[1]).to.equal(
      `sales page: http://127.0.0.1:0/admin, signed into with the token in ${tokenFile} (ADMIN_TOKEN not set)`,
    );
    expect(said).to.include(`PostgreSQL: configured, DATABASE_URL=${database.url}`);
    expect(said).to.include(`Redis: configured, REDIS_URL=${TEST_REDIS_URL}`);
    expect(said.some((msg) => msg.startsWith('SMTP: embedded (SMTP_URL not set)'))).to.equal(true);
    const smsDir = path.join(dataDir, 'sms');
    expect(said).to.include(
      `SMS: embedded SMSC (SMPP_URL not set), each text saved as a .txt file in ${smsDir}; answer as the phone with npm run sms:reply -- +<number> STOP`,
    );
    expect(said.some((msg) => msg.startsWith('migrations applied: '))).to.equal(true);

    const page = await fetch(url);
    expect(page.status).to.equal(200);
    expect(await page.text()).to.include('<h1>Converge</h1>');
    const signIn = (token: string) =>
      fetch(`${url}/api/admin/session`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ token }),
      });
    const signedIn = await signIn((await readFile(tokenFile, 'utf8')).trim());
    expect(signedIn.status, await signedIn.clone().text()).to.equal(201);
    expect(signedIn.headers.get('set-cookie')).to.match(/HttpOnly/i);
    expect((await signIn('not-the-token')).status).to.equal(401);

    // The dialog offers the consent: the API and the worker were given the embedded SMSC.
    const routing = (await (await fetch(`${url}/api/routing`)).json()) as { texts?: boolean };
    expect(routing.texts).to.equal(true);
    const id = await book(url, TEXTED);
    const file = await waitForFile(path.join(dataDir, 'mail'));
    const eml = await readFile(file, 'utf8');
    expect(eml).to.match(/^To: .*grace@compilers-inc\.com/m);
    expect(eml).to.match(/^Subject: /m);
    expect(eml).to.include('text/calendar');
    const sent = await start.waitForLog((line) => line.msg === 'confirmation sent' && line.bookingId === id);
    expect(String(sent.response)).to.match(
      new RegExp(`^250 Stored as .*${path.basename(file).replace(/\./g, '\\.')}$`),
    );
    const text = await readFile(await waitForFile(smsDir, '.txt'), 'utf8');
    expect(text).to.match(/^From: Converge$/m);
    expect(text).to.match(/^To: \+33612345678$/m);
    expect(text).to.match(/^Encoding: GSM-7 \(data_coding \d\), \d+ septets, 1 part$/m);
    expect(text).to.match(/^Receipt: requested$/m);
    expect(text).to.match(/\n\nConverge demo booked: .* Manage: http:\/\/127\.0\.0\.1:\d+\/\S+\n$/);
    const messageId = /^Message-Id: (\S+)$/m.exec(text)?.[1];
    await start.waitForLog((line) => line.msg === 'delivery receipt DELIVRD taken' && line.messageId === messageId);

    // The phone answers STOP (npm run sms:reply): the worker opts the number out and confirms it, in a text file too.
    execFileSync(process.execPath, ['--import', 'tsx', 'smsc/reply.ts', '+33612345678', 'STOP'], {
      env: { ...process.env, DATA_DIR: dataDir },
      stdio: 'pipe',
    });
    const confirmation = await readFile(await waitForFile(smsDir, '.txt', 2), 'utf8');
    expect(confirmation).to.match(/^To: \+33612345678$/m);
    expect(confirmation.endsWith(`\n\n${OPTED_OUT_TEXT}\n`)).to.equal(true);
    expect(await readdir(path.join(smsDir, 'replies'))).to.deep.equal([]);

    // The secrets, the mail and text folders: nothing of PostgreSQL or Redis was started here.
    expect((await readdir(dataDir)).sort()).to.deep.equal([
      'admin-token',
      'booking-link-secret',
      'mail',
      'sms',
      'smsc-password',
    ]);
    expect(childrenOf(start.pid)).to.deep.equal([]);

    start.child.kill('SIGTERM');
    const { code, ms } = await timeToExit(start, EXIT_LIMIT_MS);
    expect(code).to.equal(0);
    expect(ms).to.be.below(EXIT_LIMIT_MS);
    expect(start.otherOutput).to.deep.equal([]);
  });

  it('with every service URL set, starts none of its own', async () => {
    const smtp = await startSmtpSink();
    const smsc = await startSmsc();
    try {
      const dataDir = path.join(scratch, 'data');
      start = spawnProgram('scripts/start.ts', {
        PORT: '0',
        DATABASE_URL: database.url,
        REDIS_URL: TEST_REDIS_URL,
        SMTP_URL: smtp.url,
        SMPP_URL: smsc.url,
        SMS_FROM: 'Demos',
        QUEUE_PREFIX: queuePrefix,
        DATA_DIR: dataDir,
        WEB_ROOT: await makeWebRoot(scratch),
      });
      const url = await readyUrl(start);
      const said = start.logs.map((line) => line.msg);
      expect(said).to.include(`SMTP: configured, SMTP_URL=${smtp.url}`);
      expect(said).to.include(`SMS: configured, SMPP_URL=${smsc.url.replace(/:[^:@]+@/, ':***@')}`);
      await book(url, TEXTED);
      const [mail] = await smtp.waitForMessages(1);
      expect(mail?.envelopeTo).to.deep.equal(['grace@compilers-inc.com']);
      await until(async () => smsc.received[0], 'the text at the configured SMSC');
      expect(smsc.received[0]).to.include({ to: '+33612345678', from: 'Demos' });
      // The data folder keeps only the secrets, so that links in e-mails and the sales page's token outlive a restart.
      expect((await readdir(dataDir)).sort(), 'DATA_DIR holds the secrets alone').to.deep.equal([
        'admin-token',
        'booking-link-secret',
      ]);
      start.child.kill('SIGTERM');
      expect((await timeToExit(start, EXIT_LIMIT_MS)).code).to.equal(0);
    } finally {
      await smtp.close();
      await smsc.stop();
    }
  });

  it('without DATABASE_URL runs an embedded PostgreSQL, keeps its data between runs and stops it on SIGTERM', async () => {
    const dataDir = path.join(scratch, 'data');
    const env = {
      PORT: '0',
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: queuePrefix,
      DATA_DIR: dataDir,
      WEB_ROOT: await makeWebRoot(scratch),
      ADMIN_TOKEN: 'start-test-token-0123456789abcdef0123',
    };
    start = spawnProgram('scripts/start.ts', env);
    let url = await readyUrl(start);
    expect(start.logs.map((line) => line.msg)).to.include(
      `PostgreSQL: embedded (DATABASE_URL not set), data in ${path.join(dataDir, 'postgres')}`,
    );
    const id = await book(url);
    await waitForFile(path.join(dataDir, 'mail'));
    const postgresPid = Number(
      (await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0],
    );
    const children = childrenOf(start.pid);
    expect(children.map((child) => child.pid)).to.include(postgresPid);

    start.child.kill('SIGTERM');
    const first = await timeToExit(start, EXIT_LIMIT_MS);
    expect(first.code).to.equal(0);
    expect(isAlive(postgresPid), 'the embedded PostgreSQL is stopped').to.equal(false);
    expect(children.filter((child) => isAlive(child.pid))).to.deep.equal([]);
    expect(start.logs.map((line) => line.msg)).to.include('embedded PostgreSQL stopped');

    // The second run finds the same data: no new cluster, the booking still listed.
    start = spawnProgram('scripts/start.ts', env);
    url = await readyUrl(start);
    const said = start.logs.map((line) => line.msg);
    expect(said.some((msg) => msg.startsWith('creating the embedded PostgreSQL'))).to.equal(false);
    expect(said).to.include('database schema up to date');
    const list = await fetch(`${url}/api/demo-requests`, {
      headers: { Authorization: 'Bearer start-test-token-0123456789abcdef0123' },
    });
    expect(list.status).to.equal(200);
    expect(JSON.stringify(await list.json())).to.include(id);
    start.child.kill('SIGTERM');
    expect((await timeToExit(start, EXIT_LIMIT_MS)).code).to.equal(0);
  });

  it('stops with a message and exit code 1 when REDIS_URL or DATABASE_URL names a server that does not answer', async () => {
    start = spawnProgram('scripts/start.ts', {
      PORT: '0',
      DATA_DIR: path.join(scratch, 'data'),
      REDIS_URL: 'redis://127.0.0.1:1',
      DATABASE_URL: database.url,
    });
    expect((await timeToExit(start, 20_000)).code).to.equal(1);
    expect(start.logs.find((line) => line.level === 60)?.msg).to.match(
      /^Nothing answers at REDIS_URL=redis:\/\/127\.0\.0\.1:1\. /,
    );

    start = spawnProgram('scripts/start.ts', {
      PORT: '0',
      DATA_DIR: path.join(scratch, 'data'),
      REDIS_URL: TEST_REDIS_URL,
      DATABASE_URL: 'postgres://postgres:secret@127.0.0.1:1/converge',
    });
    expect((await timeToExit(start, 20_000)).code).to.equal(1);
    const fatal = start.logs.find((line) => line.level === 60)?.msg;
    expect(fatal).to.match(
      /^PostgreSQL does not answer at DATABASE_URL=postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:1\/converge /,
    );
    expect(JSON.stringify(start.logs)).to.not.include('secret');
  });

  it('refuses a bad setting with a message and exit code 1, not a stack trace', async () => {
    start = spawnProgram('scripts/start.ts', {
      PORT: 'eighty',
      DATA_DIR: path.join(scratch, 'data'),
      REDIS_URL: TEST_REDIS_URL,
    });
    const { code } = await timeToExit(start, 20_000);
    expect(code).to.equal(1);
    expect(start.logs.map((line) => line.msg)).to.include('PORT must be a port number, got "eighty"');
    expect(JSON.stringify(start.logs)).to.not.match(/\bat .*\.ts:\d+/);
    expect(start.otherOutput).to.deep.equal([]);
  });

  /** npm start with every service given, so that nothing would be started before WEBHOOK_URL is checked. */
  const startWithWebhook = async (url: string, secret: string): Promise<Spawned> =>
    spawnProgram('scripts/start.ts', {
      PORT: '0',
      DATA_DIR: path.join(scratch, 'data'),
      DATABASE_URL: database.url,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: queuePrefix,
      WEB_ROOT: await makeWebRoot(scratch),
      WEBHOOK_URL: url,
      WEBHOOK_SECRET: secret,
    });

  it('refuses a WEBHOOK_URL it would refuse at every try (a loopback address, or a name resolving to one) with a message and exit code 1', async () => {
    const secret = newWebhookSecret();
    for (const [url, said] of [
      [
        'https://[::ffff:0:127.0.0.1]/hooks',
        /^WEBHOOK_URL: ::ffff:0:7f00:1 is an IPv4-translated \(SIIT\) address of 127\.0\.0\.1, a loopback address/,
      ],
      ['https://localhost:9/hooks', /^WEBHOOK_URL: localhost resolves to (127\.0\.0\.1|::1), a loopback address/],
    ] as const) {
      start = await startWithWebhook(url, secret);
      const { code } = await timeToExit(start, 20_000);
      expect(code, url).to.equal(1);
      const fatal = start.logs.find((line) => line.level === 60)?.msg;
      expect(fatal, url).to.match(said);
      expect(fatal, url).to.include('WEBHOOK_ALLOW_PRIVATE=true');
      expect(start.otherOutput, url).to.deep.equal([]);
    }
  });

  it('starts with a warning naming WEBHOOK_URL when its name cannot be resolved now (DNS may be briefly down)', async () => {
    // .invalid never resolves (RFC 6761).
    start = await startWithWebhook('https://crm.converge-test.invalid/hooks', newWebhookSecret());
    await readyUrl(start);
    const warning = start.logs.find((line) => line.level === 40 && line.msg.startsWith('WEBHOOK_URL: '));
    expect(warning?.msg).to.match(/^WEBHOOK_URL: cannot resolve crm\.converge-test\.invalid: \S+; starting anyway/);
    start.child.kill('SIGTERM');
    expect((await timeToExit(start, EXIT_LIMIT_MS)).code).to.equal(0);
  });
});

describe('the API as its image starts it (api/main.ts), with a WEBHOOK_URL every try would refuse', function () {
  this.timeout(60_000);

  it('does not start: exit code 1, saying why, as with any bad setting', async () => {
    for (const [url, said] of [
      [
        'https://[::ffff:0:127.0.0.1]/hooks',
        'WEBHOOK_URL: ::ffff:0:7f00:1 is an IPv4-translated (SIIT) address of 127.0.0.1, a loopback address',
      ],
      ['https://localhost:9/hooks', 'WEBHOOK_URL: localhost resolves to '],
    ] as const) {
      // Nothing answers at DATABASE_URL: the check comes before any connection.
      const api = spawnProgram('api/main.ts', {
        PORT: '0',
        BOOKING_LINK_SECRET: 's'.repeat(32),
        DATABASE_URL: 'postgres://postgres@127.0.0.1:1/converge',
        WEBHOOK_URL: url,
        WEBHOOK_SECRET: newWebhookSecret(),
      });
      const { code } = await timeToExit(api, 20_000);
      expect(code, url).to.equal(1);
      expect(api.otherOutput.join('\n'), url).to.include(said);
    }
  });
});
