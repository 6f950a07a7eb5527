/** The producer side of the deliveries queue: the API puts each delivery's job (e-mail, calendar write, webhook) on it once its row is stored. */
import type { Logger } from 'pino';
import { Queue } from 'bullmq';
import { queueTelemetry } from '../server-shared/telemetry.js';
import { withTimeout } from '../server-shared/time-limits.js';
import { createFailFastRedis, whenReady } from './redis.js';
import { DELIVERY_QUEUE, deliveryJobOptions, enqueueJob, type QueuedJob } from '../server-shared/jobs.js';

export interface DeliveryQueue {
  enqueue(job: QueuedJob): Promise<void>;
  isReachable(): Promise<boolean>;
  close(): Promise<void>;
}

/** How long a request may wait on Redis before the delivery is left to the sweep. */
const ENQUEUE_TIMEOUT_MS = 2000;

export function createDeliveryQueue(redisUrl: string, prefix: string): DeliveryQueue {
  // Fail fast when Redis is away: the row is already safe and the sweep will enqueue it later.
  const connection = createFailFastRedis(redisUrl);
  // With tracing on, each job carries its request's trace on to the worker.
  const queue = new Queue<QueuedJob['payload']>(DELIVERY_QUEUE, {
    connection,
    prefix,
    defaultJobOptions: deliveryJobOptions,
    ...queueTelemetry(),
  });
  queue.on('error', () => {});
  // Adds not yet settled (the API no longer waits for them before answering): closing lets them finish first.
  const adding = new Set<Promise<unknown>>();
  return {
    async enqueue(job) {
      // BullMQ waits for a connection that is not ready yet, however long that takes: do not.
      if (connection.status !== 'ready') throw new Error(`Redis is not connected (${connection.status})`);
      const added = withTimeout(enqueueJob(queue, job), ENQUEUE_TIMEOUT_MS, `enqueueing a ${job.name} job`);
      adding.add(added);
      try {
        await added;
      } finally {
        adding.delete(added);
      }
    },
    async isReachable() {
      try {
        if (!(await whenReady(connection, ENQUEUE_TIMEOUT_MS))) return false;
        return (await withTimeout(connection.ping(), ENQUEUE_TIMEOUT_MS, 'Redis PING')) === 'PONG';
      } catch {
        return false;
      }
    },
    async close() {
      await Promise.allSettled(adding);
      await withTimeout(queue.close(), ENQUEUE_TIMEOUT_MS, 'closing the queue').catch(() => {});
      connection.disconnect();
    },
  };
}

/**
 * Puts the jobs of rows just committed on the queue. One that cannot be queued is not an error for the request:
 * its row records the delivery as pending, and the worker's sweep enqueues it later.
 */
export async function enqueueStored(queue: DeliveryQueue, jobs: readonly QueuedJob[], logger: Logger): Promise<void> {
  await Promise.all(
    jobs.map((job) =>
      queue
        .enqueue(job)
        .catch((err: unknown) =>
          logger.warn({ err, job: job.name, payload: job.payload }, 'queue unreachable: delivery left to the sweep'),
        ),
    ),
  );
}

/**
 * Queues the jobs of rows just committed without holding up the answer: the add starts once the current answer has
 * been written (setImmediate runs after the microtasks that send it). Its failure is logged, never thrown, and never
 * an unhandled rejection: the rows record their deliveries as pending, so the worker's sweep enqueues them later.
 */
export function enqueueAfterAnswer(queue: DeliveryQueue, jobs: readonly QueuedJob[], logger: Logger): void {
  setImmediate(() => {
    enqueueStored(queue, jobs, logger).catch((err: unknown) =>
      logger.warn({ err }, 'queueing failed: deliveries left to the sweep'),
    );
  });
}
