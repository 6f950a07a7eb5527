/**
 * Clean shutdown of the real entry points, started as the images start them (api/main.ts, worker/main.ts as child
 * processes) against a fresh database and a private queue prefix: SIGTERM, then what an operator would check.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { Queue } from 'bullmq';
import type { Knex } from 'knex';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { SMTPServer } from 'smtp-server';
import { createDeliveryQueue } from '../api/delivery-queue.js';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { TEST_LINK_SECRET, TEST_REDIS_URL, clearQueuePrefix, silentLogger, testQueuePrefix } from '../test/stack.js';
import { DELIVERY_QUEUE, jobIdOf } from '../server-shared/jobs.js';
import { insertBookings, jobOfRow } from '../test/outbox.js';
import { loadWorkerConfig } from '../worker/config.js';
import { startWorker } from '../worker/index.js';
import { freePort } from './dev-services/ports.js';
import { demoRequestBody, spawnProgram, timeToExit, type Spawned } from './dev-services/testing/spawned.js';

const EXIT_LIMIT_MS = 10_000;
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function connectionRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}

describe('SIGTERM to the API process (api/main.ts)', function () {
  this.timeout(40_000);
  let database: TestDatabase;
  let queuePrefix: string;
  let api: Spawned | undefined;

  before(async () => {
    database = await createTestDatabase();
    queuePrefix = testQueuePrefix();
  });
  after(async () => {
    if (api?.isRunning()) api.child.kill('SIGKILL');
    await database.drop();
    await clearQueuePrefix(queuePrefix);
  });

  it('stops accepting, finishes a request still arriving, then exits 0 within 10 s', async () => {
    const port = await freePort();
    api = spawnProgram('api/main.ts', {
      PORT: String(port),
      DATABASE_URL: database.url,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: queuePrefix,
      WEB_ROOT: '/nonexistent',
      BOOKING_LINK_SECRET: TEST_LINK_SECRET,
    });
    await api.waitForLog((line) => line.msg === 'api listening');

    // A visitor on a slow line: the headers and the first bytes of the body are in when SIGTERM arrives.
    const body = JSON.stringify(demoRequestBody());
    const socket = net.connect({ host: '127.0.0.1', port });
    await new Promise((resolve) => socket.once('connect', resolve));
    let response = '';
    socket.on('data', (chunk: Buffer) => (response += chunk.toString('utf8')));
    socket.write(
      `POST /api/demo-request HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: slow-visitor\r\n\r\n${body.slice(0, 20)}`,
    );
    await delay(300);

    api.child.kill('SIGTERM');
    const exit = timeToExit(api, EXIT_LIMIT_MS);
    await api.waitForLog((line) => line.msg === 'shutting down');
    // The listening socket is closed on the process's next turn of its event loop, not the instant it logs.
    let refused = false;
    for (let tries = 0; tries < 20 && !refused; tries += 1) {
      refused = await connectionRefused(port);
      if (!refused) await delay(50);
    }
    expect(refused, 'a new connection after SIGTERM is refused').to.equal(true);
    await delay(1000);
    expect(api.isRunning(), 'the API waits for the request in flight').to.equal(true);

    socket.write(body.slice(20));
    // The socket stays open after the answer, as a browser's keep-alive connection would.
    const { code, ms } = await exit;
    expect(response).to.match(/^HTTP\/1\.1 201 Created\r\n/);
    expect(response).to.match(/\r\nX-Request-Id: slow-visitor\r\n/i);
    socket.destroy();
    expect(code).to.equal(0);
    expect(ms).to.be.below(EXIT_LIMIT_MS);
    const rows = await database.db('bookings').select('company');
    expect(rows).to.deep.equal([{ company: 'Compilers Inc' }]);
    const logged = api.logs.find((line) => line.requestId === 'slow-visitor');
    expect(logged).to.include({ method: 'POST', path: '/api/demo-request', status: 201 });
    expect(api.otherOutput).to.deep.equal([]);
  });
});

/** An SMTP server that takes its time to accept each message, and says when one has started to arrive. */
async function startSlowSmtp(answerAfterMs: number) {
  const received: string[] = [];
  const arriving: Array<() => void> = [];
  const answers = new Set<NodeJS.Timeout>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      for (const wake of arriving.splice(0)) wake();
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const answer = setTimeout(() => {
          answers.delete(answer);
          received.push(Buffer.concat(chunks).toString('utf8'));
          callback(null, 'Stored after a while');
        }, answerAfterMs);
        answers.add(answer);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    nextArriving: () => new Promise<void>((resolve) => arriving.push(resolve)),
    close: () => {
      for (const answer of answers) clearTimeout(answer);
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A worker process against a fresh database, a private queue prefix and an SMTP server that answers after
 * `answerAfterMs`: set up before the describe block's tests, torn down after them.
 */
function workerScenario(answerAfterMs: number) {
  const scenario = {} as {
    database: TestDatabase;
    queuePrefix: string;
    smtp: Awaited<ReturnType<typeof startSlowSmtp>>;
    worker: Spawned | undefined;
    env: Record<string, string>;
    /** Starts worker/main.ts and waits until it says it is ready. */
    start(): Promise<Spawned>;
    /** Stores demo requests for these companies and enqueues them, once the SMTP server starts receiving the first. */
    /** Stores a booking per company with its confirmation, and enqueues the confirmations; `ids` are theirs. */
    book(companies: string[]): Promise<{ ids: string[]; arriving: Promise<void> }>;
  };
  before(async () => {
    scenario.database = await createTestDatabase();
    scenario.queuePrefix = testQueuePrefix();
    scenario.smtp = await startSlowSmtp(answerAfterMs);
    scenario.env = {
      DATABASE_URL: scenario.database.url,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: scenario.queuePrefix,
      SMTP_URL: scenario.smtp.url,
      BOOKING_LINK_SECRET: TEST_LINK_SECRET,
      WORKER_CONCURRENCY: '1',
    };
  });
  after(async () => {
    if (scenario.worker?.isRunning()) scenario.worker.child.kill('SIGKILL');
    await scenario.smtp.close();
    await scenario.database.drop();
    await clearQueuePrefix(scenario.queuePrefix);
  });
  scenario.start = async () => {
    const worker = spawnProgram('worker/main.ts', scenario.env);
    scenario.worker = worker;
    await worker.waitForLog((line) => line.msg === 'worker ready');
    return worker;
  };
  scenario.book = async (companies) => {
    const { name, email, timeSlot } = demoRequestBody();
    const rows = await insertBookings(
      scenario.database.db,
      companies.map((company) => ({ name, email, company, time_slot: timeSlot })),
    );
    const producer = createDeliveryQueue(TEST_REDIS_URL, scenario.queuePrefix);
    await delay(200); // the producer's connection must be ready: it refuses to wait for Redis by design
    const arriving = scenario.smtp.nextArriving();
    for (const row of rows) await producer.enqueue(await jobOfRow(scenario.database.db, row.emailId));
    await producer.close();
    return { ids: rows.map((row) => row.emailId), arriving };
  };
  return scenario;
}

/** The state BullMQ holds for the job that sends the outbox row `id`: "waiting", "delayed", … */
async function jobState(db: Knex, queuePrefix: string, id: string): Promise<string | undefined> {
  const redis = new Redis(TEST_REDIS_URL);
  const queue = new Queue(DELIVERY_QUEUE, { connection: redis, prefix: queuePrefix });
  try {
    return await (await queue.getJob(jobIdOf(await jobOfRow(db, id))))?.getState();
  } finally {
    await queue.close();
    redis.disconnect();
  }
}

describe('SIGTERM to the worker process (worker/main.ts)', function () {
  this.timeout(60_000);
  const scenario = workerScenario(2500);

  it('finishes the job in hand, leaves the next one queued, exits 0 within 10 s; nothing is lost', async () => {
    const { database, smtp } = scenario;
    const worker = await scenario.start();
    const { ids, arriving } = await scenario.book(['First Co', 'Second Co']);
    const [first, second] = ids as [string, string];

    await arriving;
    worker.child.kill('SIGTERM');
    const { code, ms } = await timeToExit(worker, EXIT_LIMIT_MS);
    expect(code).to.equal(0);
    expect(ms).to.be.below(EXIT_LIMIT_MS);

    // The job in hand was finished: its e-mail arrived and its row says sent.
    expect(smtp.received).to.have.length(1);
    expect(smtp.received[0]).to.include('First Co').and.not.include('Second Co');
    const sent = await database.db('deliveries').where({ id: first }).first();
    expect(sent.sent_at).to.be.instanceOf(Date);
    expect(worker.logs.some((line) => line.msg === 'confirmation sent' && line.deliveryId === first)).to.equal(true);

    // The next one was not started, and waits in the queue for the next worker.
    const pending = await database.db('deliveries').where({ id: second }).first();
    expect(pending.sent_at).to.equal(null);
    expect(await jobState(scenario.database.db, scenario.queuePrefix, second)).to.equal('waiting');

    // And the next worker sends it.
    const next = await startWorker(loadWorkerConfig(scenario.env), silentLogger);
    try {
      const deadline = Date.now() + 15_000;
      while (smtp.received.length < 2 && Date.now() < deadline) await delay(100);
    } finally {
      await next.close();
    }
    expect(smtp.received).to.have.length(2);
    expect(smtp.received[1]).to.include('Second Co');
    expect(worker.otherOutput).to.deep.equal([]);
  });
});

describe('SIGTERM to the worker process while the SMTP server stalls', function () {
  this.timeout(60_000);
  const scenario = workerScenario(40_000);

  it('hands the job back to the queue for a retry and still exits 0 within 10 s', async () => {
    const worker = await scenario.start();
    const { ids, arriving } = await scenario.book(['Stalled Co']);
    const [id] = ids as [string];
    await arriving;

    worker.child.kill('SIGTERM');
    const { code, ms } = await timeToExit(worker, EXIT_LIMIT_MS);
    expect(code).to.equal(0);
    expect(ms).to.be.below(EXIT_LIMIT_MS);

    const pending = await scenario.database.db('deliveries').where({ id }).first();
    expect(pending.sent_at).to.equal(null);
    expect(pending.attempts).to.equal(1);
    expect(pending.last_error).to.contain('send abandoned');
    expect(
      await jobState(scenario.database.db, scenario.queuePrefix, id),
      'queued again for a retry with backoff',
    ).to.equal('delayed');
  });
});

/** A TCP proxy to the machine's Redis that the test can cut, as if Redis went away. */
async function redisProxy() {
  const target = new URL(TEST_REDIS_URL);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect({ host: target.hostname, port: Number(target.port || 6379) });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `redis://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cut: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

describe('SIGTERM to the worker process after Redis went away', function () {
  this.timeout(60_000);
  const scenario = workerScenario(0);

  it('still exits 0 within 10 s', async () => {
    const proxy = await redisProxy();
    scenario.env.REDIS_URL = proxy.url;
    const worker = await scenario.start();
    await proxy.cut();
    await worker.waitForLog((line) => line.msg === 'redis unreachable; retrying');
    worker.child.kill('SIGTERM');
    const { code, ms } = await timeToExit(worker, EXIT_LIMIT_MS);
    expect(code).to.equal(0);
    expect(ms).to.be.below(EXIT_LIMIT_MS);
    // One line for the outage, none of BullMQ's stack traces on the console.
    expect(worker.logs.filter((line) => line.msg === 'redis unreachable; retrying')).to.have.length(1);
    expect(worker.otherOutput).to.deep.equal([]);
  });
});
