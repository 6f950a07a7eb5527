import { expect } from 'chai';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { DELIVERY_QUEUE, jobIdOf } from '../server-shared/jobs.js';
import { insertBookings, jobOfRow } from '../test/outbox.js';
import { createTestDatabase } from '../test/database.js';
import { startSmtpSink } from '../test/smtp-sink.js';
import { TEST_LINK_SECRET, TEST_REDIS_URL, clearQueuePrefix, silentLogger, testQueuePrefix } from '../test/stack.js';
import { until } from '../test/until.js';
import { loadWorkerConfig } from './config.js';
import { startWorker } from './index.js';

describe("the worker's shutdown (worker.close())", () => {
  it('closes the SMTP connections its pool kept open', async () => {
    const database = await createTestDatabase();
    const smtp = await startSmtpSink();
    const prefix = testQueuePrefix();
    const redis = new Redis(TEST_REDIS_URL);
    const queue = new Queue(DELIVERY_QUEUE, { connection: redis, prefix });
    const worker = await startWorker(
      loadWorkerConfig({
        DATABASE_URL: database.url,
        REDIS_URL: TEST_REDIS_URL,
        QUEUE_PREFIX: prefix,
        SMTP_URL: smtp.url,
        BOOKING_LINK_SECRET: TEST_LINK_SECRET,
      }),
      silentLogger,
      { sweepEveryMs: 60_000 },
    );
    try {
      const [row] = await insertBookings(database.db, [
        {
          name: 'Grace Hopper',
          email: 'grace@hopper-systems.com',
          company: 'Hopper Systems',
          time_slot: new Date('2026-12-01T09:00:00Z'),
        },
      ]);
      const job = await jobOfRow(database.db, row!.emailId);
      await queue.add(job.name, job.payload, { jobId: jobIdOf(job) });
      await smtp.waitForMessages(1);
      // Kept open for the next message: a pool.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(smtp.openConnections()).to.equal(1);
      await worker.close();
      await until(async () => (smtp.openConnections() === 0 ? true : undefined), 'the SMTP connection to close', 3000);
    } finally {
      await worker.close();
      await queue.close();
      redis.disconnect();
      await smtp.close();
      await database.drop();
      await clearQueuePrefix(prefix);
    }
  });
});
