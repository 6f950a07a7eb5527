/**
 * One webhook try at a time, called directly (deliver, with the worker's senders) against a real database and a real receiver: what each
 * answer leaves on the delivery and its endpoint, and what is refused before any connection. The retry schedule is
 * tested as plain functions (the address ranges in server-shared/webhook-targets.test.ts).
 */
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { Writable } from 'node:stream';
import { DELIVER_JOB, deliveryJob, type QueuedJob } from '../../server-shared/jobs.js';
import { newWebhookSecret } from '../../server-shared/webhooks.js';
import { createTestDatabase, type TestDatabase } from '../../test/database.js';
import { insertBookings } from '../../test/outbox.js';
import { deliver } from '../deliver.js';
import { deliveryContext } from '../job.js';
import type { RetrySchedule } from '../retry-window.js';
import { postWebhook, RESPONSE_EXCERPT_BYTES } from './webhook-post.js';
import { DEFAULT_RETRY_SCHEDULE, nextTry, parseRetryAfter, retryDelayMs, triesWithin } from '../retry-window.js';

describe('webhook retry schedule', () => {
  const schedule = DEFAULT_RETRY_SCHEDULE;
  it('doubles from 10 s to an hour, with up to a quarter more at random, never less', () => {
    expect([1, 2, 3, 4].map((failures) => retryDelayMs(failures, schedule, () => 0))).to.deep.equal([
      10_000, 20_000, 40_000, 80_000,
    ]);
    expect(retryDelayMs(30, schedule, () => 0)).to.equal(3_600_000);
    expect(retryDelayMs(1, schedule, () => 0.999)).to.be.within(12_400, 12_500);
    expect(retryDelayMs(30, schedule, () => 1)).to.equal(4_500_000);
  });

  it('keeps trying for the whole 24-hour window, then gives up (the endpoint is then marked failing)', () => {
    const start = Date.UTC(2026, 11, 1);
    expect(nextTry(1, start, start, schedule, undefined, () => 0)).to.deep.equal({ at: start + 10_000 });
    expect(nextTry(25, start, start + 23.9 * 3_600_000, schedule, undefined, () => 0)).to.have.property('at');
    expect(nextTry(26, start, start + 24 * 3_600_000, schedule)).to.deep.equal({ exhausted: true });
    // At least this many tries before giving up (no jitter): the first and 32 retries, a day of them.
    expect(triesWithin(schedule)).to.equal(33);
  });

  it('honours Retry-After (seconds or an HTTP date) when it asks for longer than the backoff', () => {
    const now = Date.UTC(2026, 11, 1, 9);
    expect(parseRetryAfter('120', now)).to.equal(120_000);
    expect(parseRetryAfter(new Date(now + 300_000).toUTCString(), now)).to.equal(300_000);
    expect(parseRetryAfter('soon', now)).to.equal(undefined);
    expect(nextTry(1, now, now, schedule, 120_000, () => 0)).to.deep.equal({ at: now + 120_000 });
    expect(nextTry(5, now, now, schedule, 1000, () => 0)).to.deep.equal({ at: now + 160_000 });
  });
});

describe('one webhook try (deliver)', function () {
  this.timeout(30_000);
  let database: TestDatabase;
  let server: Server;
  let url: string;
  const requests: { path: string }[] = [];
  const lines: { msg: string; level: number; [field: string]: unknown }[] = [];
  const queued: QueuedJob[] = [];
  const logger = pino(
    { level: 'debug' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as { msg: string; level: number });
        done();
      },
    }),
  );

  before(async () => {
    database = await createTestDatabase();
    server = createServer((request, response) => {
      requests.push({ path: request.url ?? '' });
      request.resume();
      if (request.url === '/gone') response.writeHead(410).end('gone');
      else if (request.url === '/redirect') response.writeHead(302, { location: '/ok' }).end();
      else if (request.url === '/huge') response.writeHead(500).end('x'.repeat(1024 * 1024));
      else if (request.url === '/trickle' || request.url === '/trickle-503') {
        // The status and a first byte at once, then a byte every 50 ms: the body never ends.
        response.writeHead(request.url === '/trickle' ? 200 : 503, { 'content-type': 'text/plain' });
        response.write('received');
        const drip = setInterval(() => response.write('.'), 50);
        response.on('close', () => clearInterval(drip));
      } else response.writeHead(500).end('no');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await database.drop();
  });

  /** One try of the delivery as its job carries it, by the worker's own senders and registry. */
  const tryDelivery = (
    options: { retry?: RetrySchedule; timeoutMs?: number; allowPrivate?: boolean },
    job: { deliveryId: string; dueAt: number },
  ) =>
    deliver(
      deliveryContext({
        db: database.db,
        logger,
        enqueue: async (queuedJob) => {
          queued.push(queuedJob);
        },
        webhooks: {
          allowPrivate: options.allowPrivate ?? true,
          retry: options.retry ?? { firstDelayMs: 50, maxDelayMs: 100, windowMs: 60_000 },
          ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
        },
        sendMail: () => Promise.reject(new Error('no e-mail in these tests')),
        mailFrom: 'Converge <demo@converge.example>',
        replyTo: 'sales@converge.example',
        timeZone: 'UTC',
        publicUrl: 'https://converge.example',
        linkSecret: 'test-link-secret',
      }),
      job.deliveryId,
      job.dueAt,
    );

  /** A booking, an endpoint at `path`, and the booking's event raised: its one delivery's job. */
  async function deliveryTo(
    target: string,
  ): Promise<{ endpointId: string; job: { deliveryId: string; dueAt: number } }> {
    const [booking] = await insertBookings(database.db, [
      {
        name: 'Ada',
        email: 'ada@analytical-engines.com',
        company: 'AE',
        time_slot: new Date('2026-12-01T09:00:00Z'),
        recipient: 'ada@analytical-engines.com',
        recipient_domain: 'analytical-engines.com',
      },
    ]);
    await database.db('webhook_endpoints').update({ removed_at: database.db.fn.now() });
    const [endpoint] = (await database
      .db('webhook_endpoints')
      .insert({ url: target, secret: newWebhookSecret() })
      .returning('id')) as { id: string }[];
    const { rows } = (await database.db.raw("SELECT webhook_raise(?, 'booking.created') AS deliveries", [
      booking!.id,
    ])) as { rows: { deliveries: { id: string; due: number }[] }[] };
    const [delivery] = rows[0]!.deliveries;
    const job = deliveryJob(delivery!.id, Number(delivery!.due));
    return { endpointId: endpoint!.id, job: job.payload };
  }

  const deliveryRow = (id: string) => database.db('deliveries').where({ id }).first();
  const endpointRow = (id: string) => database.db('webhook_endpoints').where({ id }).first();

  it('marks the endpoint failing once a delivery has failed for its whole window, with an error log line, and keeps it', async () => {
    const { endpointId, job } = await deliveryTo(`${url}/fail`);
    expect(await tryDelivery({ retry: { firstDelayMs: 50, maxDelayMs: 100, windowMs: 1 } }, job)).to.equal('retry');
    const retry = queued.at(-1)!;
    expect(retry.name).to.equal(DELIVER_JOB);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(
      await tryDelivery({ retry: { firstDelayMs: 50, maxDelayMs: 100, windowMs: 1 } }, retry.payload as typeof job),
    ).to.equal('exhausted');
    expect(await deliveryRow(job.deliveryId)).to.include({ attempts: 2, last_status: 500, sent_at: null });
    expect((await endpointRow(endpointId)).failing_since).to.be.an.instanceOf(Date);
    expect(
      lines.find((line) => line.msg === 'webhook tried for its whole retry window; given up, it waits for a replay'),
    ).to.include({ level: 50, endpointId });
    // The first try's job, run again, finds its row given up: it does nothing.
    expect(await tryDelivery({}, job)).to.equal('refused');
    expect(await deliveryRow(job.deliveryId)).to.include({ attempts: 2 });
  });

  it('stops an endpoint that answers 410 Gone', async () => {
    const { endpointId, job } = await deliveryTo(`${url}/gone`);
    expect(await tryDelivery({}, job)).to.equal('gone');
    expect((await endpointRow(endpointId)).stopped_at).to.be.an.instanceOf(Date);
  });

  it('follows no redirect and reads at most 64 KB of an answer, keeping its first bytes', async () => {
    const before = requests.length;
    const { job } = await deliveryTo(`${url}/redirect`);
    expect(await tryDelivery({}, job)).to.equal('retry');
    expect(requests.slice(before).map((request) => request.path)).to.deep.equal(['/redirect']);
    expect(await deliveryRow(job.deliveryId)).to.include({ last_status: 302 });
    const huge = await postWebhook(
      { url: `${url}/huge`, secret: newWebhookSecret() },
      { id: 'msg_1', body: '{}', timestamp: new Date() },
      { allowPrivate: true },
    );
    expect(huge.status).to.equal(500);
    expect(huge.excerpt).to.have.length(RESPONSE_EXCERPT_BYTES);
  });

  it('records the status of a receiver that answers 200 and then trickles its body past the timeout: delivered, its body said unfinished', async () => {
    const { job } = await deliveryTo(`${url}/trickle`);
    const before = lines.length;
    // A 2xx status is the receiver's word that it has the event (Standard Webhooks); the body is not read for it.
    expect(await tryDelivery({ timeoutMs: 400 }, job)).to.equal('sent');
    const unfinished = "the answer's body did not finish within 0.4 s";
    const row = await deliveryRow(job.deliveryId);
    expect(row).to.include({ attempts: 1, last_status: 200, last_error: unfinished });
    expect(row.sent_at).to.be.an.instanceOf(Date);
    const attempts = await database
      .db('webhook_attempts')
      .where({ delivery_id: job.deliveryId })
      .select('status', 'error', 'response_excerpt', 'duration_ms');
    expect(attempts).to.have.length(1);
    expect(attempts[0]).to.include({ status: 200, error: unfinished });
    expect(attempts[0].response_excerpt).to.match(/^received\.*$/);
    expect(attempts[0].duration_ms).to.be.within(350, 5000);
    const line = lines.slice(before).find((entry) => entry.msg === 'webhook sent');
    expect(line).to.include({ level: 30, status: 200, error: unfinished });
  });

  it('records the status of a receiver that answers 503 and then trickles: not delivered, tried again', async () => {
    const { job } = await deliveryTo(`${url}/trickle-503`);
    const before = lines.length;
    expect(await tryDelivery({ timeoutMs: 400 }, job)).to.equal('retry');
    expect(await deliveryRow(job.deliveryId)).to.include({
      last_status: 503,
      last_error: "the answer's body did not finish within 0.4 s",
      sent_at: null,
    });
    expect(lines.slice(before).find((entry) => entry.msg === 'webhook not sent; will retry')).to.include({
      status: 503,
    });
  });

  it('refuses a target on 127.0.0.1 without WEBHOOK_ALLOW_PRIVATE, before any connection, and records why', async () => {
    const before = requests.length;
    const { job } = await deliveryTo(`${url.replace('http:', 'https:')}/ok`);
    expect(await tryDelivery({ allowPrivate: false }, job)).to.equal('retry');
    const row = await deliveryRow(job.deliveryId);
    expect(row.last_error).to.equal(
      'target refused: 127.0.0.1 is a loopback address (allowed only with WEBHOOK_ALLOW_PRIVATE=true)',
    );
    expect(requests.length).to.equal(before);
    const plain = await postWebhook(
      { url: `${url}/ok`, secret: newWebhookSecret() },
      { id: 'msg_2', body: '{}', timestamp: new Date() },
      { allowPrivate: false },
    );
    expect(plain).to.include({ refused: true, status: null });
    // The receiver's port behind the loopback address carried in IPv6 (issue 35): refused the same, naming the form.
    const port = new URL(url).port;
    const carried = await postWebhook(
      { url: `https://[::ffff:127.0.0.1]:${port}/ok`, secret: newWebhookSecret() },
      { id: 'msg_mapped', body: '{}', timestamp: new Date() },
      { allowPrivate: false },
    );
    expect(carried).to.include({
      refused: true,
      status: null,
      error:
        'target refused: ::ffff:7f00:1 is an IPv4-mapped address of 127.0.0.1, a loopback address (allowed only with WEBHOOK_ALLOW_PRIVATE=true)',
    });
    expect(requests.length).to.equal(before);
  });

  it('gives up on a receiver that does not answer within the timeout', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const result = await postWebhook(
        { url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`, secret: newWebhookSecret() },
        { id: 'msg_3', body: '{}', timestamp: new Date() },
        { allowPrivate: true, timeoutMs: 300 },
      );
      expect(result).to.include({ status: null, error: 'no answer within 0.3 s' });
      expect(result.durationMs).to.be.within(250, 2000);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });
});
