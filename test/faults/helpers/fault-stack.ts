/**
 * One scenario's world, all started by the test on loopback: a throwaway PostgreSQL cluster with a migrated
 * database, a redis-server of its own, a fault-injecting SMTP server; then the API and workers, either in this
 * process (startApiServer / startWorker, where the scenario needs short sweep timings) or as the real entry points
 * in child processes (api/main.ts, worker/main.ts), which is what SIGKILL needs.
 */
import type { Knex } from 'knex';
import knex from 'knex';
import pino, { type Logger } from 'pino';
import { loadApiConfig } from '../../../api/config.js';
import { migrateLatest } from '../../../api/db.js';
import { startApiServer, type RunningApi } from '../../../api/server.js';
import { knexConfig } from '../../../knexfile.js';
import { freePort } from '../../../scripts/dev-services/ports.js';
import { spawnProgram, type Spawned } from '../../../scripts/dev-services/testing/spawned.js';
import { DEFAULT_WORKER_CONCURRENCY, loadWorkerConfig } from '../../../worker/config.js';
import { startWorker, type RunningWorker, type WorkerOptions } from '../../../worker/index.js';
import { TEST_LINK_SECRET } from '../../stack.js';
import { trackChild, untrackChild } from './cleanup.js';
import { startFaultSmtp, type FaultSmtp } from './fault-smtp.js';
import { startPostgresCluster, type PostgresCluster } from './postgres-cluster.js';
import { startRedis, type TestRedis } from './redis-server.js';
import { delay } from './wait.js';

export const quietLogger: Logger = pino({ level: process.env.FAULTS_LOG_LEVEL ?? 'silent' });

export interface ConfirmationState {
  rows: number;
  sent: number;
  pending: number;
  failed: number;
  /** Sum of the confirmations' attempts: one per try, the successful one included. */
  attempts: number;
  maxAttempts: number;
}

export interface FaultStack {
  cluster: PostgresCluster;
  databaseUrl: string;
  /** The test's own small pool, for checking rows. */
  db: Knex;
  redis: TestRedis;
  smtp: FaultSmtp;
  /** Settings of the API and the workers (per-client limits and recipient ceilings off, slots roomy). */
  env: Record<string, string>;
  /** SIGKILLs the redis-server; startEmptyRedis then starts a new, empty one on the same port. */
  killRedis(): Promise<void>;
  startEmptyRedis(): Promise<TestRedis>;
  startApi(): Promise<RunningApi>;
  startWorker(options?: WorkerOptions): Promise<RunningWorker>;
  spawnApi(): Promise<{ process: Spawned; url: string }>;
  spawnWorker(): Promise<Spawned>;
  confirmationState(): Promise<ConfirmationState>;
  teardown(): Promise<void>;
}

export async function startFaultStack(
  options: { answerDelayMs?: number; keepRaw?: boolean; env?: Record<string, string> } = {},
): Promise<FaultStack> {
  const closers: Array<() => Promise<unknown>> = [];
  const children: Spawned[] = [];
  const inProcess: Array<{ close(): Promise<void> }> = [];
  const cluster = await startPostgresCluster();
  closers.push(() => cluster.destroy());
  try {
    const databaseUrl = await cluster.createDatabase('converge_faults');
    await migrateLatest(databaseUrl);
    const db = knex(knexConfig(databaseUrl, { min: 0, max: 3 }));
    closers.unshift(() => db.destroy());
    let redis = await startRedis();
    closers.unshift(() => redis.kill());
    const smtp = await startFaultSmtp({ answerDelayMs: options.answerDelayMs, keepRaw: options.keepRaw });
    closers.unshift(() => smtp.close());
    const env: Record<string, string> = {
      DATABASE_URL: databaseUrl,
      REDIS_URL: redis.url,
      QUEUE_PREFIX: 'converge-faults',
      SMTP_URL: smtp.url,
      BOOKING_LINK_SECRET: TEST_LINK_SECRET,
      WEB_ROOT: '/nonexistent',
      DEMO_REQUESTS_PER_HOUR: '0',
      EMAIL_CHECKS_PER_MINUTE: '0',
      BOOKINGS_PER_EMAIL_PER_DAY: '0',
      BOOKINGS_PER_DOMAIN_PER_DAY: '0',
      SLOT_CAPACITY: '100000',
      // The workers as they ship: DEFAULT_WORKER_CONCURRENCY jobs in hand over pooled SMTP connections.
      WORKER_CONCURRENCY: String(DEFAULT_WORKER_CONCURRENCY),
      // The scenarios count confirmations: a reminder falling due mid-run (a slot booked just over a day ahead, as
      // happens when a run starts shortly before the hour of a bookable slot) would be an e-mail of no booking's.
      REMINDER_MINUTES_BEFORE: '0',
      // A scenario's own settings (SMPP_URL and SMS_FROM for the texts).
      ...options.env,
    };

    const stack: FaultStack = {
      cluster,
      databaseUrl,
      db,
      get redis() {
        return redis;
      },
      smtp,
      env,
      async killRedis() {
        await redis.kill('SIGKILL');
      },
      async startEmptyRedis() {
        redis = await startRedis(redis.port);
        return redis;
      },
      async startApi() {
        const api = await startApiServer(loadApiConfig({ ...env, PORT: '0' }), quietLogger);
        inProcess.push(api);
        return api;
      },
      async startWorker(workerOptions) {
        const worker = await startWorker(loadWorkerConfig(env), quietLogger, workerOptions);
        inProcess.push(worker);
        return worker;
      },
      async spawnApi() {
        const port = await freePort();
        const child = spawnProgram('api/main.ts', { ...env, PORT: String(port) });
        trackChild(child.pid);
        children.push(child);
        await child.waitForLog((line) => line.msg === 'api listening', 30_000);
        return { process: child, url: `http://127.0.0.1:${port}` };
      },
      async spawnWorker() {
        const child = spawnProgram('worker/main.ts', env);
        trackChild(child.pid);
        children.push(child);
        await child.waitForLog((line) => line.msg === 'worker ready', 30_000);
        return child;
      },
      async confirmationState() {
        const [row] = (await db('deliveries')
          .where({ kind: 'confirmation' })
          .select(
            db.raw('count(*)::int AS rows'),
            db.raw('count(sent_at)::int AS sent'),
            db.raw(
              'count(*) FILTER (WHERE sent_at IS NULL AND failed_at IS NULL AND dropped_at IS NULL)::int AS pending',
            ),
            db.raw('count(failed_at)::int AS failed'),
            db.raw('coalesce(sum(attempts), 0)::int AS attempts'),
            db.raw('coalesce(max(attempts), 0)::int AS "maxAttempts"'),
          )) as ConfirmationState[];
        return row as ConfirmationState;
      },
      async teardown() {
        // The programs first (politely, then not), so nothing is left talking to the servers being stopped.
        await Promise.allSettled(inProcess.splice(0).map((program) => program.close()));
        await Promise.allSettled(
          children.splice(0).map(async (child) => {
            if (child.isRunning()) {
              child.child.kill('SIGTERM');
              const ended = await Promise.race([child.exited.then(() => true), delay(10_000).then(() => false)]);
              if (!ended) {
                child.child.kill('SIGKILL');
                await child.exited;
              }
            }
            untrackChild(child.pid);
          }),
        );
        for (const close of closers.splice(0)) await close().catch(() => {});
      },
    };
    return stack;
  } catch (err) {
    for (const close of closers.splice(0)) await close().catch(() => {});
    throw err;
  }
}
