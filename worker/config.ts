/** The worker's settings, read from the environment once at boot. No other worker file reads process.env. */
import {
  DEFAULT_DATABASE_URL,
  DEFAULT_MAIL_FROM,
  DEFAULT_PORT,
  DEFAULT_QUEUE_PREFIX,
  DEFAULT_REDIS_URL,
  DEFAULT_SMTP_URL,
  parseLinkSecret,
  parsePositiveInt,
  parseTimeZone,
  secretsFolderIn,
  setting,
  type Env,
} from '../server-shared/settings.js';
import { KEPT_SECRET_FILES } from '../server-shared/kept-secrets.js';

export interface WorkerConfig {
  databaseUrl: string;
  redisUrl: string;
  queuePrefix: string;
  smtpUrl: string;
  mailFrom: string;
  /** Where replies to the confirmation go. */
  replyTo: string;
  bookingTimeZone: string;
  publicUrl: string;
  /** Signs the booking links in the e-mails (the same secret as the API's). */
  bookingLinkSecret: string;
  /** The secrets' files this start made in SECRETS_DIR (when the worker started before any API), to be logged. */
  secretsMade: readonly string[];
  concurrency: number;
  logLevel: string;
}

/** Jobs one worker holds at once: most of a job's time is spent waiting on PostgreSQL, Redis and the SMTP server. */
export const DEFAULT_WORKER_CONCURRENCY = 100;

export function loadWorkerConfig(env: Env = process.env): WorkerConfig {
  const mailFrom = setting(env, 'MAIL_FROM') ?? DEFAULT_MAIL_FROM;
  // The API's secret: set in the environment, else the one kept in SECRETS_DIR (whichever program starts first makes it).
  const kept = secretsFolderIn(env);
  return {
    databaseUrl: setting(env, 'DATABASE_URL') ?? DEFAULT_DATABASE_URL,
    redisUrl: setting(env, 'REDIS_URL') ?? DEFAULT_REDIS_URL,
    queuePrefix: setting(env, 'QUEUE_PREFIX') ?? DEFAULT_QUEUE_PREFIX,
    smtpUrl: setting(env, 'SMTP_URL') ?? DEFAULT_SMTP_URL,
    mailFrom,
    replyTo: setting(env, 'REPLY_TO') ?? mailFrom,
    bookingTimeZone: parseTimeZone(setting(env, 'BOOKING_TIME_ZONE')),
    // Without a trailing slash, so that links are this plus a path.
    publicUrl: (setting(env, 'PUBLIC_URL') ?? `http://127.0.0.1:${setting(env, 'PORT') ?? DEFAULT_PORT}`).replace(/\/+$/, ''),
    bookingLinkSecret: parseLinkSecret(setting(env, 'BOOKING_LINK_SECRET') ?? kept?.secret(KEPT_SECRET_FILES.bookingLinkSecret)),
    secretsMade: kept?.made ?? [],
    concurrency: parsePositiveInt('WORKER_CONCURRENCY', setting(env, 'WORKER_CONCURRENCY'), DEFAULT_WORKER_CONCURRENCY),
    logLevel: setting(env, 'LOG_LEVEL') ?? 'info',
  };
}
