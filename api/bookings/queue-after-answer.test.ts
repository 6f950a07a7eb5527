/**
 * The answer to a booking does not wait for the e-mail queue: with the queue's add still pending, the 201 arrives;
 * when the add then fails it is logged (never an unhandled rejection) and the row keeps its confirmation pending,
 * which is what the worker's sweep enqueues (test/faults/redis-outage.test.ts: Redis down, 201, then one e-mail).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import pino from 'pino';
import { createApp } from '../app.js';
import { bookingSettings } from '../config.js';
import type { DeliveryQueue } from '../delivery-queue.js';
import { DELIVER_JOB, type QueuedJob } from '../../server-shared/jobs.js';
import { confirmationOf } from '../../test/outbox.js';
import { createTestDatabase, type TestDatabase } from '../../test/database.js';
import { TEST_LINK_SECRET } from '../../test/stack.js';
import { until } from '../../test/until.js';

// Monday 23 November 2026, 10:30 in Berlin.
const NOW = new Date('2026-11-23T09:30:00.000Z');
const SLOT = '2026-11-24T08:00:00.000Z'; // Tuesday 09:00 Berlin

/** A queue whose every add stays pending until the test settles it. */
function heldQueue() {
  const adds: { job: QueuedJob; fail(err: Error): void }[] = [];
  const queue: DeliveryQueue = {
    enqueue: (job) =>
      new Promise<void>((_resolve, reject) => {
        adds.push({ job, fail: reject });
      }),
    isReachable: async () => true,
    close: async () => {},
  };
  return { queue, adds };
}

describe('POST /api/demo-request with the queue not answering', () => {
  let database: TestDatabase;
  let server: Server;
  let url: string;
  const held = heldQueue();
  const logLines: Record<string, unknown>[] = [];
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  before(async () => {
    database = await createTestDatabase();
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    });
    const app = createApp({
      db: database.db,
      queue: held.queue,
      logger: pino({ level: 'info' }, sink),
      timeZone: 'Europe/Berlin',
      webRoot: '/nonexistent',
      publicUrl: 'https://converge.test',
      now: () => NOW,
      linkSecret: TEST_LINK_SECRET,
      mailFrom: 'Converge Demos <demos@converge.test>',
      booking: bookingSettings(),
    });
    server = await new Promise((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    process.on('unhandledRejection', onUnhandled);
  });
  after(async () => {
    process.off('unhandledRejection', onUnhandled);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await database.drop();
  });

  it('answers 201 while the add is pending, logs its failure, and leaves the confirmation pending for the sweep', async () => {
    const response = await fetch(`${url}/api/demo-request`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        name: 'Ada Lovelace',
        email: 'ada@analytical-engines.com',
        company: 'Analytical Engines Ltd',
        timeSlot: SLOT,
      }),
    });
    expect(response.status).to.equal(201);
    const { id } = (await response.json()) as { id: string };

    // One log line for the request, carrying the booking stored and the request's id.
    const lines = await until(async () => {
      const found = logLines.filter((line) => line.msg === 'request' && line.path === '/api/demo-request');
      return found.length > 0 ? found : undefined;
    }, 'the request logged');
    expect(lines).to.have.length(1);
    expect(lines[0]).to.include({ status: 201, bookingId: id, timeSlot: SLOT });
    expect(lines[0]?.requestId).to.be.a('string');

    // The answer came while the add was still unsettled: it is started, never awaited.
    const confirmation = await confirmationOf(database.db, id);
    const add = await until(
      async () => held.adds.find((entry) => entry.job.payload.deliveryId === confirmation),
      'the confirmation add to start',
    );
    const { due_at: dueAt } = await database.db('deliveries').where({ id: confirmation }).first('due_at');
    expect(add.job).to.deep.equal({ name: DELIVER_JOB, payload: { deliveryId: confirmation, dueAt: dueAt.getTime() } });

    add.fail(new Error('Redis is not connected (reconnecting)'));
    const warning = await until(
      async () => logLines.find((line) => line.msg === 'queue unreachable: delivery left to the sweep'),
      'the failure logged',
    );
    expect(warning.job).to.equal(DELIVER_JOB);
    // Let any rejection left unhandled surface before counting them.
    await new Promise((resolve) => setImmediate(resolve));
    expect(unhandled).to.deep.equal([]);

    const row = await database.db('deliveries').where({ id: confirmation }).first();
    expect(row.sent_at, 'the confirmation is still pending, for the sweep').to.equal(null);
    expect(row.failed_at).to.equal(null);
  });
});
