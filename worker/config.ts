/** The worker's settings, read from the environment once at boot. No other worker file reads process.env. */
import { parseSmsSettings, type SmsSettings } from '../server-shared/sms-settings.js';
import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Contact } from '../domain/brand.js';
import {
  ConfigError,
  DEFAULT_DATABASE_URL,
  DEFAULT_MAIL_FROM,
  DEFAULT_PORT,
  DEFAULT_QUEUE_PREFIX,
  DEFAULT_REDIS_URL,
  DEFAULT_SMTP_URL,
  parseContact,
  parseLinkSecret,
  parseNotifyAddress,
  parsePositiveInt,
  parseRetentionDays,
  parseTimeZone,
  secretsFolderIn,
  setting,
  type Env,
} from '../server-shared/settings.js';
import { KEPT_SECRET_FILES } from '../server-shared/kept-secrets.js';
import type { DkimKey } from './send-mail.js';
import { readTeamFile, type Host } from '../server-shared/hosts/team.js';
import type { RoutingQuestion } from '../domain/routing.js';
import { parseMetricsPort } from '../server-shared/metrics.js';
import { parseAllowPrivate } from '../server-shared/webhooks.js';
import { DEFAULT_RETRY_SCHEDULE, type RetrySchedule } from './retry-window.js';
import { parseReplyMailbox, type ReplyMailbox } from './replies/settings.js';

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
  /** How buyers reach the sales desk (CONTACT_EMAIL, CONTACT_PHONE): every e-mail's footer names it. */
  contact: Contact;
  /** Signs the booking links in the e-mails (the same secret as the API's). */
  bookingLinkSecret: string;
  /** The secrets' files this start made in SECRETS_DIR (when the worker started before any API), to be logged. */
  secretsMade: readonly string[];
  concurrency: number;
  /** Signs every message when set (DKIM_DOMAIN, DKIM_SELECTOR and the private key, all three). */
  dkim?: DkimKey;
  /** The team (TEAM_FILE, the API's): where each host's calendar is, for the event the worker writes into it. */
  team: Host[] | undefined;
  /** The team file's questions, whose labels the sales notice shows beside the prospect's answers; none without. */
  questions: readonly RoutingQuestion[];
  /** The Prometheus endpoint's port (METRICS_PORT); unset: none. */
  metricsPort: number | undefined;
  /** Where it listens (METRICS_HOST): this machine only unless told. */
  metricsHost: string;
  /** Webhook deliveries: whether private targets are allowed (WEBHOOK_ALLOW_PRIVATE), and the retry schedule. */
  webhooks: { allowPrivate: boolean; retry: RetrySchedule };
  logLevel: string;
  /** The texts (SMPP_URL, SMS_FROM): the SMSC to bind to and the sender; unset, no texts. */
  sms: SmsSettings | undefined;
  /** RETENTION_DAYS: after this many days past its slot, a booking's personal data is removed (retention.ts). */
  retentionDays: number;
  /** REPLY_MAILBOX_*: where calendars send the prospect's answer, read by replies/reader.ts; unset: not read. */
  replyMailbox: ReplyMailbox | undefined;
  /** SALES_NOTIFY_EMAIL (the API's): told of a booking a prospect's Decline cancels. */
  salesNotifyEmail: string | undefined;
}

/** Jobs one worker holds at once: most of a job's time is spent waiting on PostgreSQL, Redis and the SMTP server. */
export const DEFAULT_WORKER_CONCURRENCY = 100;

export function loadWorkerConfig(env: Env = process.env): WorkerConfig {
  const mailFrom = setting(env, 'MAIL_FROM') ?? DEFAULT_MAIL_FROM;
  // The API's secret: set in the environment, else the one kept in SECRETS_DIR (whichever program starts first makes it).
  const kept = secretsFolderIn(env);
  const teamFile = readTeamFile(env);
  return {
    databaseUrl: setting(env, 'DATABASE_URL') ?? DEFAULT_DATABASE_URL,
    redisUrl: setting(env, 'REDIS_URL') ?? DEFAULT_REDIS_URL,
    queuePrefix: setting(env, 'QUEUE_PREFIX') ?? DEFAULT_QUEUE_PREFIX,
    smtpUrl: setting(env, 'SMTP_URL') ?? DEFAULT_SMTP_URL,
    sms: parseSmsSettings(env),
    mailFrom,
    replyTo: setting(env, 'REPLY_TO') ?? mailFrom,
    bookingTimeZone: parseTimeZone(setting(env, 'BOOKING_TIME_ZONE')),
    // Without a trailing slash, so that links are this plus a path.
    publicUrl: (setting(env, 'PUBLIC_URL') ?? `http://127.0.0.1:${setting(env, 'PORT') ?? DEFAULT_PORT}`).replace(
      /\/+$/,
      '',
    ),
    contact: parseContact(env),
    bookingLinkSecret: parseLinkSecret(
      setting(env, 'BOOKING_LINK_SECRET') ?? kept?.secret(KEPT_SECRET_FILES.bookingLinkSecret),
    ),
    secretsMade: kept?.made ?? [],
    concurrency: parsePositiveInt('WORKER_CONCURRENCY', setting(env, 'WORKER_CONCURRENCY'), DEFAULT_WORKER_CONCURRENCY),
    dkim: parseDkim(env),
    team: teamFile?.hosts,
    questions: teamFile?.routing.questions ?? [],
    metricsPort: parseMetricsPort(setting(env, 'METRICS_PORT')),
    metricsHost: setting(env, 'METRICS_HOST') ?? '127.0.0.1',
    webhooks: {
      allowPrivate: parseAllowPrivate(setting(env, 'WEBHOOK_ALLOW_PRIVATE')),
      retry: parseRetrySchedule(env),
    },
    logLevel: setting(env, 'LOG_LEVEL') ?? 'info',
    retentionDays: parseRetentionDays(setting(env, 'RETENTION_DAYS')),
    replyMailbox: parseReplyMailbox(env),
    salesNotifyEmail: parseNotifyAddress('SALES_NOTIFY_EMAIL', setting(env, 'SALES_NOTIFY_EMAIL')),
  };
}

/** Seconds, fractions allowed (tests shorten the schedule), above 0. */
function parseSeconds(env: Env, name: string, fallbackMs: number): number {
  const value = setting(env, name);
  if (value === undefined) return fallbackMs;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new ConfigError(`${name} must be a number of seconds above 0, got "${value}"`);
  return Math.round(seconds * 1000);
}

/**
 * The webhook retry schedule: WEBHOOK_RETRY_FIRST_SECONDS (10), doubling up to WEBHOOK_RETRY_MAX_SECONDS (3600), for
 * WEBHOOK_RETRY_WINDOW_SECONDS (86400: a day). Tests shorten them; in production keep the window at a day or more.
 */
function parseRetrySchedule(env: Env): RetrySchedule {
  const schedule = {
    firstDelayMs: parseSeconds(env, 'WEBHOOK_RETRY_FIRST_SECONDS', DEFAULT_RETRY_SCHEDULE.firstDelayMs),
    maxDelayMs: parseSeconds(env, 'WEBHOOK_RETRY_MAX_SECONDS', DEFAULT_RETRY_SCHEDULE.maxDelayMs),
    windowMs: parseSeconds(env, 'WEBHOOK_RETRY_WINDOW_SECONDS', DEFAULT_RETRY_SCHEDULE.windowMs),
  };
  if (schedule.maxDelayMs < schedule.firstDelayMs)
    throw new ConfigError('WEBHOOK_RETRY_MAX_SECONDS must not be below WEBHOOK_RETRY_FIRST_SECONDS');
  return schedule;
}

/** A DNS label or several (a selector may hold dots); nothing that could leave the DKIM-Signature header's tag. */
const DNS_NAME = /^(?!-)[A-Za-z0-9-]{1,63}(?:\.(?!-)[A-Za-z0-9-]{1,63})*$/;

/**
 * DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY (PEM; `\n` stands for a line break, for an env file) or
 * DKIM_PRIVATE_KEY_FILE: all of them or none. A partial set, or a key that is no private key, stops the worker at
 * start-up rather than at its first message.
 */
function parseDkim(env: Env): DkimKey | undefined {
  const domainName = setting(env, 'DKIM_DOMAIN');
  const keySelector = setting(env, 'DKIM_SELECTOR');
  const inlineKey = setting(env, 'DKIM_PRIVATE_KEY');
  const keyFile = setting(env, 'DKIM_PRIVATE_KEY_FILE');
  if (inlineKey !== undefined && keyFile !== undefined)
    throw new ConfigError('DKIM_PRIVATE_KEY and DKIM_PRIVATE_KEY_FILE are both set: set one of them');
  const keySource =
    inlineKey !== undefined ? 'DKIM_PRIVATE_KEY' : keyFile !== undefined ? 'DKIM_PRIVATE_KEY_FILE' : undefined;
  if (domainName === undefined && keySelector === undefined && keySource === undefined) return undefined;
  if (domainName === undefined || keySelector === undefined || keySource === undefined) {
    const missing = [
      ...(domainName === undefined ? ['DKIM_DOMAIN'] : []),
      ...(keySelector === undefined ? ['DKIM_SELECTOR'] : []),
      ...(keySource === undefined ? ['DKIM_PRIVATE_KEY (or DKIM_PRIVATE_KEY_FILE)'] : []),
    ];
    throw new ConfigError(
      `DKIM signing needs DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY together; not set: ${missing.join(', ')}`,
    );
  }
  if (!DNS_NAME.test(domainName))
    throw new ConfigError(`DKIM_DOMAIN must be a domain name such as converge.example.com, got "${domainName}"`);
  if (!DNS_NAME.test(keySelector))
    throw new ConfigError(`DKIM_SELECTOR must be a DNS label such as mail2026, got "${keySelector}"`);
  const privateKey = inlineKey !== undefined ? inlineKey.replace(/\\n/g, '\n') : readKeyFile(keyFile ?? '');
  try {
    createPrivateKey(privateKey);
  } catch {
    throw new ConfigError(
      `${keySource} must be a private key in PEM (-----BEGIN PRIVATE KEY----- …), and it is not one`,
    );
  }
  return { domainName, keySelector, privateKey };
}

function readKeyFile(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(
      `DKIM_PRIVATE_KEY_FILE cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)}): ${file}`,
    );
  }
}
