/**
 * The production build as the bench runs it: an SMTP server that accepts everything (smtp-counter.ts) and the built
 * API (`node dist/api/main.js --migrate`) on the run's database and Redis key prefix, child processes stopped by PID
 * at the end; the built worker started when a section needs it.
 */
import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from '../dev-services/config.js';
import { start, startWithPort, waitUntil } from './processes.js';

export const DIST = path.join(REPO_ROOT, 'dist');

/** The environment the bench gives the API and the worker. */
export type BenchEnv = Record<
  | 'DATABASE_URL'
  | 'REDIS_URL'
  | 'QUEUE_PREFIX'
  | 'SMTP_URL'
  | 'BOOKING_LINK_SECRET'
  | 'DEMO_REQUESTS_PER_HOUR'
  | 'CONNECTIONS_PER_CLIENT'
  | 'EMAIL_CHECKS_PER_MINUTE'
  | 'BOOKINGS_PER_EMAIL_PER_DAY'
  | 'BOOKINGS_PER_DOMAIN_PER_DAY'
  | 'EMAILS_PER_RECIPIENT_PER_DAY'
  | 'SLOT_CAPACITY'
  | 'LOG_LEVEL'
  | 'HOST',
  string
>;

export interface BuiltStack {
  databaseUrl: string;
  env: BenchEnv;
  /** The API's base URL, its port and its process. */
  api: string;
  apiPort: number;
  apiProcess: ChildProcess;
  startWorker: () => ChildProcess;
  /** When the SMTP server accepted each Message-ID, in ms since the epoch. */
  accepted: Map<string, number>;
  /** E-mails per second between the first and the last of `ids` the SMTP server accepted, once it has them all. */
  acceptedRate: (
    ids: readonly string[],
    startedAt: number,
  ) => Promise<{ perSecond: number; firstMs: number; lastMs: number }>;
}

/** The SMTP server and the API, started on the run's database (made already) and queue prefix. */
export async function startBuiltStack({
  databaseUrl,
  redisUrl,
  prefix,
  profileFlags,
}: {
  databaseUrl: string;
  redisUrl: string;
  prefix: string;
  /** Node.js flags the API and the worker run with (--profile's). */
  profileFlags: readonly string[];
}): Promise<BuiltStack> {
  const accepted = new Map<string, number>();
  const smtp = await startWithPort('smtp-counter.ts', {}, (line) => {
    const [at, id] = line.split(' ');
    if (id) accepted.set(id, Number(at));
  });
  /** E-mails per second between the first and the last of `ids` the SMTP server accepted, once it has them all. */
  const acceptedRate = async (ids: readonly string[], startedAt: number) => {
    await waitUntil(async () => ids.every((id) => accepted.has(id)), 'every e-mail to be accepted', 300_000);
    const times = ids.map((id) => accepted.get(id)!).sort((a, b) => a - b);
    const first = times[0]!;
    const last = times.at(-1)!;
    return {
      perSecond: (ids.length - 1) / ((last - first) / 1000),
      firstMs: first - startedAt,
      lastMs: last - startedAt,
    };
  };
  const env: BenchEnv = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: prefix,
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    BOOKING_LINK_SECRET: randomBytes(32).toString('hex'),
    DEMO_REQUESTS_PER_HOUR: '0',
    // Every connection of the load comes from this one address.
    CONNECTIONS_PER_CLIENT: '0',
    EMAIL_CHECKS_PER_MINUTE: '0',
    BOOKINGS_PER_EMAIL_PER_DAY: '0',
    BOOKINGS_PER_DOMAIN_PER_DAY: '0',
    EMAILS_PER_RECIPIENT_PER_DAY: '0',
    SLOT_CAPACITY: '1000000',
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
  };
  const apiPort = 20000 + Math.floor(Math.random() * 20000);
  const apiProcess = start([...profileFlags, path.join(DIST, 'api', 'main.js'), '--migrate'], {
    ...env,
    PORT: String(apiPort),
  });
  const api = `http://127.0.0.1:${apiPort}`;
  await waitUntil(
    () =>
      fetch(`${api}/readyz`).then(
        (response) => response.ok,
        () => false,
      ),
    'the API to be ready',
  );
  const startWorker = () => start([...profileFlags, path.join(DIST, 'worker', 'main.js')], { ...env, PUBLIC_URL: api });
  return { databaseUrl, env, api, apiPort, apiProcess, startWorker, accepted, acceptedRate };
}
