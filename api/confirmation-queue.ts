/** The producer side of the confirmation queue. */
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { CONFIRMATION_QUEUE, SEND_CONFIRMATION_JOB, confirmationJobOptions, type SendConfirmationPayload } from '../domain/jobs.js';

export interface ConfirmationQueue {
  enqueue(demoRequestId: string): Promise<void>;
  isReachable(): Promise<boolean>;
  close(): Promise<void>;
}

/** How long a request may wait on Redis before the confirmation is left to the sweep. */
const ENQUEUE_TIMEOUT_MS = 2000;

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Resolves when the connection is (re)established; the listener goes with it either way. */
function readyOnce(connection: Redis): Promise<void> {
  return new Promise((resolve, reject) => {
    const onReady = () => {
      connection.off('end', onEnd);
      resolve();
    };
    const onEnd = () => {
      connection.off('ready', onReady);
      reject(new Error('Redis connection ended'));
    };
    connection.once('ready', onReady);
    connection.once('end', onEnd);
    setTimeout(() => {
      connection.off('ready', onReady);
      connection.off('end', onEnd);
    }, ENQUEUE_TIMEOUT_MS).unref();
  });
}

export function createConfirmationQueue(redisUrl: string, prefix: string): ConfirmationQueue {
  // Fail fast when Redis is away: the row is already safe and the sweep will enqueue it later.
  const connection = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000 });
  connection.on('error', () => {
    // Reported where it matters (enqueue, readiness); ioredis keeps reconnecting by itself.
  });
  const queue = new Queue<SendConfirmationPayload>(CONFIRMATION_QUEUE, { connection, prefix, defaultJobOptions: confirmationJobOptions });
  queue.on('error', () => {});
  return {
    async enqueue(demoRequestId) {
      // BullMQ waits for a connection that is not ready yet, however long that takes: do not.
      if (connection.status !== 'ready') throw new Error(`Redis is not connected (${connection.status})`);
      await withTimeout(
        queue.add(SEND_CONFIRMATION_JOB, { demoRequestId }, { jobId: demoRequestId }),
        ENQUEUE_TIMEOUT_MS,
        'enqueueing the confirmation',
      );
    },
    async isReachable() {
      try {
        if (connection.status !== 'ready') await withTimeout(readyOnce(connection), ENQUEUE_TIMEOUT_MS, 'connecting to Redis');
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
