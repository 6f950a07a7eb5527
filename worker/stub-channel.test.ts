/**
 * A channel added the way a new one is: a sender (here a stub that keeps what it is handed, its template the one line
 * of text it composes) and its kinds' lines in the registry, given to the job's context beside the worker's own. Then
 * the worker's own job, on a real queue in Redis against a real database, claims a row of that channel, hands it to
 * the stub and marks it sent; and a stub that fails is tried again by its kind's retry policy: the queue's backoff, or
 * a retry window's next try, queued at its time.
 */
import { expect } from 'chai';
import { Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { DELIVERY_KINDS, MAX_EMAIL_ATTEMPTS } from '../server-shared/delivery-kinds.js';
import { DELIVERY_QUEUE, enqueueJob, type QueuedJob } from '../server-shared/jobs.js';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { insertBookings, jobOfRow } from '../test/outbox.js';
import { TEST_LINK_SECRET, TEST_REDIS_URL, clearQueuePrefix, silentLogger, testQueuePrefix } from '../test/stack.js';
import { until } from '../test/until.js';
import { SendFailure, type Sender } from './channels/sender.js';
import type { KindLine } from './deliver.js';
import { channelSenders, deliveryContext, runJob, type DeliveryDeps, type JobContext } from './job.js';

/** What the stub channel sends: a line of text to the booking's phone. */
interface TextMessage {
  to: string;
  text: string;
}

/** The new channel's kinds: the registry's lines, as delivery-kinds.ts would hold them. */
const TEXT_KINDS: Record<string, KindLine> = {
  'text-confirmation': {
    channel: 'text',
    to: 'prospect',
    sent: 'at once',
    retry: { policy: 'backoff', maxAttempts: MAX_EMAIL_ATTEMPTS },
  },
  'text-reminder': { channel: 'text', to: 'prospect', sent: 'at once', retry: { policy: 'window' } },
};

describe('a channel added with a stub sender and its registry lines', function () {
  this.timeout(30_000);
  let database: TestDatabase;
  let prefix: string;
  let redis: Redis;
  let queue: Queue;
  let worker: Worker;
  const received: TextMessage[] = [];
  /** How many of the next tries fail (a receiver that is busy), each asking to be left alone for a moment. */
  let failing = 0;

  const stub: Sender<TextMessage> = {
    receiver: 'the text gateway',
    span: 'text send',
    compose: ({ lead }) =>
      lead?.phone ? { to: lead.phone, text: `Your demo at ${lead.timeSlot.toISOString()} is booked.` } : null,
    send(message) {
      if (failing > 0) {
        failing -= 1;
        return Promise.reject(new SendFailure('gateway busy', { retryAfterMs: 0 }));
      }
      received.push(message);
      return Promise.resolve({ response: 'queued' });
    },
  };

  before(async () => {
    database = await createTestDatabase();
    prefix = testQueuePrefix();
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    // The queue's own backoff, short: the worker's retries a 'backoff' kind with it.
    queue = new Queue(DELIVERY_QUEUE, {
      connection: redis,
      prefix,
      defaultJobOptions: { attempts: 3, backoff: { type: 'fixed', delay: 100 }, removeOnComplete: true },
    });
    const deps: DeliveryDeps = {
      db: database.db,
      logger: silentLogger,
      sendMail: () => Promise.reject(new Error('no e-mail in this test')),
      mailFrom: 'Converge <demo@converge.example>',
      replyTo: 'sales@converge.example',
      timeZone: 'UTC',
      publicUrl: 'https://converge.example',
      linkSecret: TEST_LINK_SECRET,
      enqueue: (job: QueuedJob) => enqueueJob(queue, job),
      // A retry window's next try at once, for a window of a minute.
      webhooks: { allowPrivate: false, retry: { firstDelayMs: 50, maxDelayMs: 100, windowMs: 60_000 } },
    };
    const context: JobContext = {
      ...deliveryContext(deps, { ...DELIVERY_KINDS, ...TEXT_KINDS }, { ...channelSenders(deps), text: stub }),
      leaveToOwner: () => 'missing',
    };
    worker = new Worker(
      DELIVERY_QUEUE,
      (job: Job, token?: string, signal?: AbortSignal) => runJob(context, job, signal, token),
      { connection: redis, prefix },
    );
    await worker.waitUntilReady();
  });

  after(async () => {
    await worker.close();
    await queue.close();
    redis.disconnect();
    await database.drop();
    await clearQueuePrefix(prefix);
  });

  /**
   * A booking with a phone and a row of `kind`, of the text channel, as the API would store it; its job enqueued. The
   * row's id and its first due time.
   */
  async function textRow(kind: string, phone: string): Promise<{ id: string; dueAt: number }> {
    const timeSlot = new Date('2026-12-01T09:00:00Z');
    const [booking] = await insertBookings(database.db, [
      {
        name: 'Ada',
        email: 'ada@analytical-engines.com',
        company: 'AE',
        phone,
        time_slot: timeSlot,
        recipient: 'ada@analytical-engines.com',
        recipient_domain: 'analytical-engines.com',
      },
    ]);
    const [row] = (await database
      .db('deliveries')
      .insert({ channel: 'text', kind, booking_id: booking!.id, time_slot: timeSlot, sequence: 0 })
      .returning('id')) as { id: string }[];
    const job = await jobOfRow(database.db, row!.id);
    await enqueueJob(queue, job);
    return { id: row!.id, dueAt: job.payload.dueAt };
  }

  const sentRow = (id: string) =>
    until(async () => {
      const row = await database.db('deliveries').where({ id }).first('sent_at', 'attempts', 'last_error');
      return row?.sent_at ? row : undefined;
    }, `row ${id} marked sent`);

  it('claims a row of the new channel, hands it to its sender, and marks it sent', async () => {
    const { id } = await textRow('text-confirmation', '+44 20 7946 0001');
    expect(await sentRow(id)).to.include({ attempts: 1, last_error: null });
    expect(received).to.deep.include({
      to: '+44 20 7946 0001',
      text: 'Your demo at 2026-12-01T09:00:00.000Z is booked.',
    });
  });

  it("tries a failed send again by its kind's policy: the queue's backoff", async () => {
    failing = 2;
    const { id } = await textRow('text-confirmation', '+44 20 7946 0002');
    // Two tries failed, each recorded on the row; the third, the queue's last, sent it.
    expect(await sentRow(id)).to.include({ attempts: 3, last_error: null });
    expect(received.filter((message) => message.to === '+44 20 7946 0002')).to.have.length(1);
  });

  it("tries a failed send again by its kind's policy: a retry window's next try, queued at its time", async () => {
    failing = 1;
    const { id, dueAt } = await textRow('text-reminder', '+44 20 7946 0003');
    expect(await sentRow(id)).to.include({ attempts: 2, last_error: null });
    // The failed try moved the row's due time to its next try's, whose job sent it.
    const { due_at: dueAfter } = (await database.db('deliveries').where({ id }).first('due_at')) as { due_at: Date };
    expect(dueAfter.getTime()).to.be.greaterThan(dueAt);
    expect(received.filter((message) => message.to === '+44 20 7946 0003')).to.have.length(1);
  });
});
