/** The producer side of the confirmation queue. */
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { CONFIRMATION_QUEUE, SEND_CONFIRMATION_JOB, confirmationJobOptions, type SendConfirmationPayload } from '../domain/jobs.js';

export interface ConfirmationQueue {
  enqueue(demoRequestId: string): Promise<void>;
  isReachable(): Promise<boolean>;
  close(): Promise<void>;
}

export function createConfirmationQueue(redisUrl: string, prefix: string): ConfirmationQueue {
  // Fail fast when Redis is away: the row is already safe and the sweep will enqueue it later.
  const connection = new Redis(redisUrl, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    lazyConnect: false,
  });
  connection.on('error', () => {
    // Reported where it matters (enqueue, readiness); ioredis keeps reconnecting by itself.
  });
  const queue = new Queue<SendConfirmationPayload>(CONFIRMATION_QUEUE, { connection, prefix, defaultJobOptions: confirmationJobOptions });
  queue.on('error', () => {});
  return {
    async enqueue(demoRequestId) {
      await queue.add(SEND_CONFIRMATION_JOB, { demoRequestId }, { jobId: demoRequestId });
    },
    async isReachable() {
      try {
        return (await connection.ping()) === 'PONG';
      } catch {
        return false;
      }
    },
    async close() {
      await queue.close();
      connection.disconnect();
    },
  };
}
