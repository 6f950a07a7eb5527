/** The Koa app in-process over real HTTP, with a real database and a real queue, and a clock the test sets. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { createApp } from '../api/app.js';
import { bookingSettings } from '../api/config.js';
import type { FollowUpSettings } from '../api/bookings/emails.js';
import { createDeliveryQueue, type DeliveryQueue } from '../api/delivery-queue.js';
import { createDb } from '../api/db.js';
import { createRateLimiter } from '../api/rate-limit.js';
import type { BookingLimits } from '../api/bookings/book.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import type { HostCalendars } from '../api/hosts/calendars.js';
import type { ProspectRouting } from '../api/routing/prospect-route.js';
import type { Contact } from '../domain/brand.js';
import { TEST_LINK_SECRET, TEST_REDIS_URL, clearQueuePrefix, silentLogger, testQueuePrefix } from './stack.js';

export interface AppUnderTest {
  url: string;
  db: Knex;
  database: TestDatabase;
  queuePrefix: string;
  post(
    path: string,
    body: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }>;
  close(): Promise<void>;
}

export async function startAppUnderTest(
  options: {
    now?: () => Date;
    redisUrl?: string;
    databaseUrl?: string;
    adminToken?: string;
    limits?: { demoRequestsPerHour: number; emailChecksPerMinute: number };
    trustProxy?: number;
    bookingLimits?: Partial<BookingLimits>;
    followUps?: FollowUpSettings;
    logger?: Logger;
    webRoot?: string;
    /** PUBLIC_URL (https://converge.test when unset). */
    publicUrl?: string;
    /** CONTACT_EMAIL and CONTACT_PHONE (the brand's when unset). */
    contact?: Contact;
    timeZone?: string;
    minNoticeMinutes?: number;
    /** The booking links' secret (TEST_LINK_SECRET when unset), and those of before a rotation. */
    linkSecret?: string;
    previousLinkSecrets?: string[];
    /** The team's calendars (TEAM_FILE); none when unset. */
    hostCalendars?: HostCalendars;
    /** The team's routing (TEAM_FILE's questions and routes), with hostCalendars; none when unset. */
    routing?: ProspectRouting;
    /** FUNNEL_SOURCES, parsed; none listed when unset. */
    funnelSources?: readonly string[];
  } = {},
): Promise<AppUnderTest> {
  const database = await createTestDatabase();
  const queuePrefix = testQueuePrefix();
  const queue: DeliveryQueue = createDeliveryQueue(options.redisUrl ?? TEST_REDIS_URL, queuePrefix);
  const db = options.databaseUrl
    ? createDb(options.databaseUrl, { min: 0, max: 2, acquireTimeoutMillis: 3000 } as Knex.PoolConfig, silentLogger)
    : database.db;
  const limiter = await createRateLimiter(options.redisUrl ?? TEST_REDIS_URL, queuePrefix);
  const app = createApp({
    db,
    queue,
    logger: options.logger ?? silentLogger,
    timeZone: options.timeZone ?? 'Europe/Berlin',
    booking: bookingSettings({
      minNoticeMinutes: options.minNoticeMinutes,
      limits: options.bookingLimits,
      followUps: options.followUps,
    }),
    webRoot: options.webRoot ?? '/nonexistent',
    publicUrl: options.publicUrl ?? 'https://converge.test',
    contact: options.contact,
    now: options.now,
    adminToken: options.adminToken,
    linkSecret: options.linkSecret ?? TEST_LINK_SECRET,
    previousLinkSecrets: options.previousLinkSecrets,
    mailFrom: 'Converge Demos <demos@converge.test>',
    trustProxy: options.trustProxy,
    limits: options.limits && { limiter, ...options.limits },
    hostCalendars: options.hostCalendars,
    routing: options.routing,
    funnelSources: options.funnelSources,
  });
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    db: database.db,
    database,
    queuePrefix,
    async post(path, body, headers = {}) {
      const response = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await response.text();
      return {
        status: response.status,
        body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
        headers: response.headers,
      };
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await queue.close();
      await limiter.close();
      if (db !== database.db) await db.destroy();
      await database.drop();
      await clearQueuePrefix(queuePrefix);
    },
  };
}
