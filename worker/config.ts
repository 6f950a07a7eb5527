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
  setting,
  type Env,
} from '../server-shared/settings.js';

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
  concurrency: number;
  logLevel: string;
}

/** Jobs one worker holds at once: most of a job's time is spent waiting on PostgreSQL, Redis and the SMTP server. */
export const DEFAULT_WORKER_CONCURRENCY = 100;

export function loadWorkerConfig(env: Env = process.env): WorkerConfig {
  const mailFrom = setting(env, 'MAIL_FROM') ?? DEFAULT_MAIL_FROM;
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
    bookingLinkSecret: parseLinkSecret(setting(env, 'BOOKING_LINK_SECRET')),
    concurrency: parsePositiveInt('WORKER_CONCURRENCY', setting(env, 'WORKER_CONCURRENCY'), DEFAULT_WORKER_CONCURRENCY),
    logLevel: setting(env, 'LOG_LEVEL') ?? 'info',
  };
}
