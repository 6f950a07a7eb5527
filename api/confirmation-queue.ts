/** The producer side of the confirmation queue. */
import { Queue } from 'bullmq';
import { withTimeout } from '../server-shared/time-limits.js';
import { createFailFastRedis, whenReady } from './redis.js';
import { CONFIRMATION_QUEUE, SEND_CONFIRMATION_JOB, confirmationJobOptions, enqueueJob, type JobPayloads, type JobName } from '../server-shared/jobs.js';

export interface ConfirmationQueue {
  enqueue(demoRequestId: string): Promise<void>;
  isReachable(): Promise<boolean>;
  close(): Promise<void>;
}

/** How long a request may wait on Redis before the confirmation is left to the sweep. */
const ENQUEUE_TIMEOUT_MS = 2000;

export function createConfirmationQueue(redisUrl: string, prefix: string): ConfirmationQueue {
  // Fail fast when Redis is away: the row is already safe and the sweep will enqueue it later.
  const connection = createFailFastRedis(redisUrl);
  const queue = new Queue<JobPayloads[JobName]>(CONFIRMATION_QUEUE, { connection, prefix, defaultJobOptions: confirmationJobOptions });
  queue.on('error', () => {});
  return {
    async enqueue(demoRequestId) {
      // BullMQ waits for a connection that is not ready yet, however long that takes: do not.
      if (connection.status !== 'ready') throw new Error(`Redis is not connected (${connection.status})`);
      await withTimeout(
        enqueueJob(queue, { name: SEND_CONFIRMATION_JOB, payload: { demoRequestId } }),
        ENQUEUE_TIMEOUT_MS,
        'enqueueing the confirmation',
      );
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
      await withTimeout(queue.close(), ENQUEUE_TIMEOUT_MS, 'closing the queue').catch(() => {});
      connection.disconnect();
    },
  };
}
