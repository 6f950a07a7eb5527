/**
 * `npm start` on a machine where nothing runs: the test starts it in a private network namespace (nothing answers
 * on 127.0.0.1 there, not even the Redis of this machine) and talks to it from inside that namespace.
 * Needs root and unshare(1), as on the CI machine; skipped elsewhere.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { derivedQueuePrefix } from './dev-services/config.js';
import { NO_REDIS_MESSAGE } from './dev-services/redis.js';
import { demoRequestBody, spawnProgram, timeToExit, type Spawned } from './dev-services/testing/spawned.js';

function canIsolate(): boolean {
  if (userInfo().uid !== 0) return false;
  try {
    execFileSync('unshare', ['-n', 'true'], { stdio: 'ignore' });
    return existsSync('/usr/sbin/ip') || existsSync('/sbin/ip');
  } catch {
    return false;
  }
}

const IP = existsSync('/usr/sbin/ip') ? '/usr/sbin/ip' : '/sbin/ip';
// Absolute: one test runs it with a PATH that leads nowhere.
const UNSHARE = existsSync('/usr/bin/unshare') ? '/usr/bin/unshare' : 'unshare';

/** scripts/start.ts in a new network namespace with only a loopback interface; the pid is node's own (exec). */
function startIsolated(env: Record<string, string>): Spawned {
  return spawnProgram(
    '/bin/sh',
    env,
    ['-c', `${IP} link set lo up && exec "$0" --import tsx scripts/start.ts`, process.execPath],
    { command: UNSHARE, args: ['-n'] },
  );
}

/** An HTTP request made from inside the namespace of `pid`. */
function curlInside(pid: number, args: string[]): string {
  return execFileSync('nsenter', ['-t', String(pid), '-n', 'curl', '-s', '--max-time', '10', ...args], {
    encoding: 'utf8',
  });
}

describe('npm start on a machine with nothing running (private network namespace)', function () {
  this.timeout(90_000);
  let scratch: string;
  let start: Spawned | undefined;

  before(function () {
    if (!canIsolate()) this.skip();
  });
  beforeEach(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'converge-isolated-'));
    await chmod(scratch, 0o755);
  });
  afterEach(async () => {
    if (start?.isRunning()) start.child.kill('SIGKILL');
    start = undefined;
    await rm(scratch, { recursive: true, force: true });
  });

  it('runs embedded PostgreSQL, its own redis-server and the .eml sink, books a demo, and leaves nothing on SIGTERM', async () => {
    const dataDir = path.join(scratch, 'data');
    start = startIsolated({ PORT: '3000', DATA_DIR: dataDir, WEB_ROOT: path.join(scratch, 'no-page') });
    const ready = await start.waitForLog(
      (line) => typeof line.msg === 'string' && line.msg.startsWith('Converge is running at'),
      60_000,
    );
    const said = start.logs.map((line) => line.msg);
    expect(said.slice(0, 8)).to.deep.equal([
      'Converge starting on http://127.0.0.1:3000',
      `sales page: http://127.0.0.1:3000/admin, signed into with the token in ${path.join(dataDir, 'admin-token')} (ADMIN_TOKEN not set)`,
      `PostgreSQL: embedded (DATABASE_URL not set), data in ${path.join(dataDir, 'postgres')}`,
      `Redis: none on 127.0.0.1:6379 and REDIS_URL not set; starting redis-server, data in ${path.join(dataDir, 'redis')}`,
      `SMTP: embedded (SMTP_URL not set), each e-mail saved as an .eml file in ${path.join(dataDir, 'mail')}`,
      `SMS: embedded SMSC (SMPP_URL not set), each text saved as a .txt file in ${path.join(dataDir, 'sms')}; answer as the phone with npm run sms:reply -- +<number> STOP`,
      `queue: key prefix ${derivedQueuePrefix(undefined, dataDir)} in Redis (QUEUE_PREFIX not set: named after this database)`,
      'hosts: none (TEAM_FILE not set); slots take SLOT_CAPACITY=1 bookings each, with no host named',
    ]);
    const redisPid = Number(start.logs.find((line) => String(line.msg).startsWith('redis-server ready'))?.redisPid);
    expect(redisPid).to.be.greaterThan(0);

    expect(JSON.parse(curlInside(start.pid, [`${String(ready.url)}/readyz`]))).to.deep.include({ status: 'ready' });
    const booked = JSON.parse(
      curlInside(start.pid, [
        '-X',
        'POST',
        '-H',
        'Content-Type: application/json',
        '-d',
        JSON.stringify(demoRequestBody()),
        `${String(ready.url)}/api/demo-request`,
      ]),
    ) as { id?: string };
    expect(booked.id).to.be.a('string');
    await start.waitForLog((line) => line.msg === 'confirmation sent' && line.bookingId === booked.id, 15_000);
    expect((await readdir(path.join(dataDir, 'mail'))).filter((name) => name.endsWith('.eml'))).to.have.length(1);
    const postgresPid = Number(
      (await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0],
    );
    expect(postgresPid).to.be.greaterThan(0);

    start.child.kill('SIGTERM');
    const { code, ms } = await timeToExit(start, 10_000);
    expect(code).to.equal(0);
    expect(ms).to.be.below(10_000);
    expect(start.logs.map((line) => line.msg)).to.include.members([
      'redis-server stopped',
      'embedded PostgreSQL stopped',
      'embedded SMSC stopped',
    ]);
    for (const pid of [redisPid, postgresPid]) {
      expect(() => process.kill(pid, 0), `process ${pid} is gone`).to.throw();
    }
  });

  it('without Redis anywhere says how to get one and exits 1, without a stack trace', async () => {
    // No redis-server on this PATH, and no Redis on 127.0.0.1:6379 in the namespace.
    start = startIsolated({
      PATH: '/nonexistent',
      DATABASE_URL: 'postgres://127.0.0.1:1/unused',
      DATA_DIR: path.join(scratch, 'data'),
      WEB_ROOT: scratch,
    });
    const { code } = await timeToExit(start, 30_000);
    expect(code).to.equal(1);
    const fatal = start.logs.find((line) => line.level === 60);
    expect(fatal?.msg).to.equal(NO_REDIS_MESSAGE);
    expect(fatal).to.not.have.property('err');
    expect(start.otherOutput).to.deep.equal([]);
  });
});
