/**
 * The whole product for tests: a fresh database, the real API on a free port (serving the built page),
 * the real worker on a private queue prefix in the machine's Redis, and an SMTP server that keeps the e-mails.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Knex } from 'knex';
import pino from 'pino';
import { loadApiConfig } from '../api/config.js';
import { startApiServer } from '../api/server.js';
import { loadWorkerConfig } from '../worker/config.js';
import { startWorker, type RunningWorker, type WorkerOptions } from '../worker/index.js';
import { createTestDatabase } from './database.js';
import { startSmtpSink, type SmtpSink } from './smtp-sink.js';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** The booking-link secret every test program shares (the API checks what the worker signs). */
export const TEST_LINK_SECRET = 'test-booking-link-secret-0123456789abcdef';

export interface Stack {
  url: string;
  db: Knex;
  databaseUrl: string;
  queuePrefix: string;
  smtp: SmtpSink;
  /** The API's Prometheus endpoint, with METRICS_PORT in `env`. */
  apiMetricsUrl: string | undefined;
  worker: RunningWorker | undefined;
  close(): Promise<void>;
}

export interface StackOptions {
  /** Where the API's queue connects; a closed port simulates Redis being down. */
  apiRedisUrl?: string;
  /** Start the worker (default true). */
  worker?: boolean;
  workerOptions?: WorkerOptions;
  webRoot?: string;
  /** Further settings for both programs (SALES_NOTIFY_EMAIL, say). */
  env?: Record<string, string>;
}

export const silentLogger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

/** Deletes every Redis key under a queue prefix (on the tests' Redis unless told another); says how many. */
export async function clearQueuePrefix(prefix: string, redisUrl = TEST_REDIS_URL): Promise<number> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      if (keys.length > 0) deleted += await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return deleted;
}

export function testQueuePrefix(): string {
  return `converge-test-${randomBytes(4).toString('hex')}`;
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const database = await createTestDatabase();
  const smtp = await startSmtpSink();
  const queuePrefix = testQueuePrefix();
  const env = {
    PORT: '0',
    DATABASE_URL: database.url,
    REDIS_URL: options.apiRedisUrl ?? TEST_REDIS_URL,
    QUEUE_PREFIX: queuePrefix,
    SMTP_URL: smtp.url,
    BOOKING_LINK_SECRET: TEST_LINK_SECRET,
    // A browser suite books and checks e-mails many times from one address; the limits have tests of their own.
    DEMO_REQUESTS_PER_HOUR: '0',
    EMAIL_CHECKS_PER_MINUTE: '0',
    BOOKINGS_PER_EMAIL_PER_DAY: '0',
    BOOKINGS_PER_DOMAIN_PER_DAY: '0',
    EMAILS_PER_RECIPIENT_PER_DAY: '0',
    ...(options.webRoot ? { WEB_ROOT: options.webRoot } : {}),
    ...options.env,
  };
  const api = await startApiServer(loadApiConfig(env), silentLogger);
  const worker =
    options.worker === false
      ? undefined
      : await startWorker(
          loadWorkerConfig({ ...env, REDIS_URL: TEST_REDIS_URL, PUBLIC_URL: api.url }),
          silentLogger,
          options.workerOptions,
        );
  return {
    url: api.url,
    db: database.db,
    databaseUrl: database.url,
    queuePrefix,
    smtp,
    apiMetricsUrl: api.metricsUrl,
    worker,
    async close() {
      await api.close();
      await worker?.close();
      await smtp.close();
      await database.drop();
      await clearQueuePrefix(queuePrefix);
    },
  };
}
