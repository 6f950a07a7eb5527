/** The API's settings, read from the environment once at boot. No other API file reads process.env. */
import {
  DEFAULT_SMS_PER_BOOKING,
  DEFAULT_SMS_PER_NUMBER_PER_DAY,
  parseSmsSettings,
} from '../server-shared/sms-settings.js';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DEFAULT_DATABASE_URL,
  DEFAULT_MAIL_FROM,
  DEFAULT_PORT,
  DEFAULT_QUEUE_PREFIX,
  DEFAULT_REDIS_URL,
  parseAdminToken,
  parseContact,
  parseCount,
  parseLinkSecret,
  parseNotifyAddress,
  parsePort,
  parsePositiveInt,
  parsePreviousLinkSecrets,
  parseProxyHops,
  parseTimeZone,
  secretsFolderIn,
  setting,
  ConfigError,
  type Env,
} from '../server-shared/settings.js';
import { KEPT_SECRET_FILES, PREVIOUS_LINK_SECRETS_FILE } from '../server-shared/kept-secrets.js';
import { DEFAULT_BOOKING_LIMITS, type BookingLimits } from './bookings/book.js';
import { DEFAULT_FOLLOW_UPS, type FollowUpSettings } from './bookings/emails.js';
import { DEFAULT_MIN_NOTICE_MINUTES } from '../domain/booking.js';
import { readTeamFile, type Team } from '../server-shared/hosts/team.js';
import { parseRoutingSettings, type RoutingSettings } from './routing/settings.js';
import { REFRESH_EVERY_MS } from './hosts/calendars.js';
import { DEFAULT_MEETING_URL_TEMPLATE, parseMeetingUrlTemplate } from './bookings/meeting.js';
import { parseMetricsPort } from '../server-shared/metrics.js';
import type { Contact } from '../domain/brand.js';
import { parseWebhookSettings, type WebhookSettings } from '../server-shared/webhooks.js';
import { parseFunnelSources } from './funnel/known-sources.js';

export interface ApiConfig {
  port: number;
  host: string;
  databaseUrl: string;
  redisUrl: string;
  queuePrefix: string;
  bookingTimeZone: string;
  publicUrl: string;
  /** How buyers reach the sales desk (CONTACT_EMAIL, CONTACT_PHONE), for the pages' footer. */
  contact: Contact;
  /** Folder of the built page (index.html, 404.html, assets/). */
  webRoot: string;
  /** Signs and checks the booking links (the same secret as the worker's). */
  bookingLinkSecret: string;
  /** Secrets of before a rotation: links signed with them still open their booking. */
  previousLinkSecrets: string[];
  /** The sender of the e-mails: its domain names each booking's calendar event (UID). */
  mailFrom: string;
  /** Bearer token of the operations endpoints (GET /api/demo-requests); unset turns them off. */
  adminToken: string | undefined;
  /** The secrets' files this start made in SECRETS_DIR (the first start of a compose deployment), to be logged. */
  secretsMade: readonly string[];
  /** Per client address; 0 turns the limit off. */
  demoRequestsPerHour: number;
  emailChecksPerMinute: number;
  /** The booking's settings, resolved (each unset one at its default). */
  booking: BookingSettings;
  /** Proxies in front of the API that append to X-Forwarded-For: the client is that many entries from the right. */
  trustProxy: number;
  /** A client must send its request's headers within this long, and the whole request (body included) within the other. */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** Open connections one client (an IPv4 address, an IPv6 /64) may hold; 0: no bound. Not applied behind a proxy. */
  connectionsPerClient: number;
  /** The team that gives the demos (TEAM_FILE), validated, with its routing; unset: slots by slotCapacity and no host. */
  team: Team | undefined;
  /** Where an account's owner is found (ACCOUNTS_FILE, OWNER_LOOKUP_URL); both unset: no owner is looked for. */
  routing: RoutingSettings;
  /**
   * How often each host's calendar is read in the background (HOST_CALENDAR_POLL_SECONDS, default 30): the busy
   * times, and a host's deletion or decline of a demo's event (api/hosts/host-answers.ts) noticed within it.
   */
  calendarPollMs: number;
  /** The Prometheus endpoint's port (METRICS_PORT); unset: none. */
  metricsPort: number | undefined;
  /** Where it listens (METRICS_HOST): this machine only unless told. */
  metricsHost: string;
  /** FUNNEL_SOURCES: sources the funnel counts under their own name beside the bookings' (lower case); none listed when unset. */
  funnelSources: string[];
  /** WEBHOOK_URL and WEBHOOK_SECRET (one endpoint from the environment) and WEBHOOK_ALLOW_PRIVATE. */
  webhooks: WebhookSettings;
  logLevel: string;
}

/** Seconds: bodies are at most 16 KB, so a client that is still sending after this long is holding a socket. */
export const DEFAULT_HEADERS_TIMEOUT_SECONDS = 5;
export const DEFAULT_REQUEST_TIMEOUT_SECONDS = 10;
/** A browser opens at most 6 connections to a host; this leaves room for a few people behind one address. */
export const DEFAULT_CONNECTIONS_PER_CLIENT = 50;

/** The folder of package.json: the same from source (api/) and from the build (dist/api/). */
function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}
export const DEFAULT_WEB_ROOT = path.join(projectRoot(), 'dist', 'web');

/**
 * The booking's settings, resolved: what the booking's routes and rules are given, each unset one at its default.
 * Resolved here once (from the environment by loadApiConfig, from a program's own choices by bookingSettings) and
 * passed down as they are.
 */
export interface BookingSettings {
  /** How long before a slot bookings and moves close (MIN_NOTICE_MINUTES). */
  minNoticeMinutes: number;
  /** The slot's capacity and the 24-hour ceilings (SLOT_CAPACITY, BOOKINGS_PER_*, EMAILS_PER_RECIPIENT_PER_DAY). */
  limits: BookingLimits;
  /** The reminder and the sales desk's notices (REMINDER_MINUTES_BEFORE, SALES_NOTIFY_EMAIL). */
  followUps: FollowUpSettings;
  /** Each booking's video room (MEETING_URL_TEMPLATE, `{room}` for its name). */
  meetingUrlTemplate: string;
}

/** The settings a program (a test, a script) chooses, each at its default when unset. */
export function bookingSettings(
  given: {
    minNoticeMinutes?: number | undefined;
    limits?: Partial<BookingLimits> | undefined;
    followUps?: FollowUpSettings | undefined;
    meetingUrlTemplate?: string | undefined;
  } = {},
): BookingSettings {
  const limits = given.limits ?? {};
  return {
    minNoticeMinutes: given.minNoticeMinutes ?? DEFAULT_MIN_NOTICE_MINUTES,
    limits: {
      slotCapacity: limits.slotCapacity ?? DEFAULT_BOOKING_LIMITS.slotCapacity,
      perEmailPerDay: limits.perEmailPerDay ?? DEFAULT_BOOKING_LIMITS.perEmailPerDay,
      perDomainPerDay: limits.perDomainPerDay ?? DEFAULT_BOOKING_LIMITS.perDomainPerDay,
      emailsPerRecipientPerDay: limits.emailsPerRecipientPerDay ?? DEFAULT_BOOKING_LIMITS.emailsPerRecipientPerDay,
    },
    followUps: given.followUps ?? DEFAULT_FOLLOW_UPS,
    meetingUrlTemplate: given.meetingUrlTemplate ?? DEFAULT_MEETING_URL_TEMPLATE,
  };
}

function parseBookingSettings(env: Env): BookingSettings {
  const count = (name: string, fallback: number) => parseCount(name, setting(env, name), fallback);
  const salesNotifyEmail = parseNotifyAddress('SALES_NOTIFY_EMAIL', setting(env, 'SALES_NOTIFY_EMAIL'));
  return {
    minNoticeMinutes: count('MIN_NOTICE_MINUTES', DEFAULT_MIN_NOTICE_MINUTES),
    limits: {
      slotCapacity: parsePositiveInt(
        'SLOT_CAPACITY',
        setting(env, 'SLOT_CAPACITY'),
        DEFAULT_BOOKING_LIMITS.slotCapacity,
      ),
      perEmailPerDay: count('BOOKINGS_PER_EMAIL_PER_DAY', DEFAULT_BOOKING_LIMITS.perEmailPerDay),
      perDomainPerDay: count('BOOKINGS_PER_DOMAIN_PER_DAY', DEFAULT_BOOKING_LIMITS.perDomainPerDay),
      emailsPerRecipientPerDay: count('EMAILS_PER_RECIPIENT_PER_DAY', DEFAULT_BOOKING_LIMITS.emailsPerRecipientPerDay),
    },
    followUps: {
      reminderMinutesBefore: count('REMINDER_MINUTES_BEFORE', DEFAULT_FOLLOW_UPS.reminderMinutesBefore),
      ...(salesNotifyEmail ? { salesNotifyEmail } : {}),
      // Checked here too, so that the API and the worker agree on whether texts are sent.
      ...(parseSmsSettings(env)
        ? {
            texts: {
              zone: parseTimeZone(setting(env, 'BOOKING_TIME_ZONE')),
              perNumberPerDay: count('SMS_PER_NUMBER_PER_DAY', DEFAULT_SMS_PER_NUMBER_PER_DAY),
              perBooking: count('SMS_PER_BOOKING', DEFAULT_SMS_PER_BOOKING),
            },
          }
        : {}),
    },
    meetingUrlTemplate: parseMeetingUrlTemplate(setting(env, 'MEETING_URL_TEMPLATE')),
  };
}

export function loadApiConfig(env: Env = process.env): ApiConfig {
  const port = parsePort(setting(env, 'PORT'), DEFAULT_PORT);
  const host = setting(env, 'HOST') ?? '127.0.0.1';
  // A secret set in the environment wins; else, with SECRETS_DIR, the one kept there (made on the first start).
  const kept = secretsFolderIn(env);
  return {
    port,
    host,
    databaseUrl: setting(env, 'DATABASE_URL') ?? DEFAULT_DATABASE_URL,
    redisUrl: setting(env, 'REDIS_URL') ?? DEFAULT_REDIS_URL,
    queuePrefix: setting(env, 'QUEUE_PREFIX') ?? DEFAULT_QUEUE_PREFIX,
    bookingTimeZone: parseTimeZone(setting(env, 'BOOKING_TIME_ZONE')),
    publicUrl: setting(env, 'PUBLIC_URL') ?? `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`,
    contact: parseContact(env),
    webRoot: setting(env, 'WEB_ROOT') ?? DEFAULT_WEB_ROOT,
    adminToken: parseAdminToken(setting(env, 'ADMIN_TOKEN') ?? kept?.secret(KEPT_SECRET_FILES.adminToken)),
    bookingLinkSecret: parseLinkSecret(
      setting(env, 'BOOKING_LINK_SECRET') ?? kept?.secret(KEPT_SECRET_FILES.bookingLinkSecret),
    ),
    previousLinkSecrets: parsePreviousLinkSecrets(
      setting(env, 'BOOKING_LINK_PREVIOUS_SECRETS') ?? kept?.read(PREVIOUS_LINK_SECRETS_FILE),
    ),
    secretsMade: kept?.made ?? [],
    mailFrom: setting(env, 'MAIL_FROM') ?? DEFAULT_MAIL_FROM,
    demoRequestsPerHour: parseCount('DEMO_REQUESTS_PER_HOUR', setting(env, 'DEMO_REQUESTS_PER_HOUR'), 5),
    emailChecksPerMinute: parseCount('EMAIL_CHECKS_PER_MINUTE', setting(env, 'EMAIL_CHECKS_PER_MINUTE'), 30),
    booking: parseBookingSettings(env),
    trustProxy: parseProxyHops(setting(env, 'TRUST_PROXY')),
    ...parseClientTimeouts(env),
    connectionsPerClient: parseCount(
      'CONNECTIONS_PER_CLIENT',
      setting(env, 'CONNECTIONS_PER_CLIENT'),
      DEFAULT_CONNECTIONS_PER_CLIENT,
    ),
    ...teamSettings(env),
    calendarPollMs:
      parsePositiveInt(
        'HOST_CALENDAR_POLL_SECONDS',
        setting(env, 'HOST_CALENDAR_POLL_SECONDS'),
        REFRESH_EVERY_MS / 1000,
      ) * 1000,
    metricsPort: parseMetricsPort(setting(env, 'METRICS_PORT')),
    metricsHost: setting(env, 'METRICS_HOST') ?? '127.0.0.1',
    funnelSources: parseFunnelSources(setting(env, 'FUNNEL_SOURCES')),
    webhooks: parseWebhookSettings(env),
    logLevel: setting(env, 'LOG_LEVEL') ?? 'info',
  };
}

function teamSettings(env: Env): { team: Team | undefined; routing: RoutingSettings } {
  const team = readTeamFile(env);
  return { team, routing: parseRoutingSettings(env, team !== undefined) };
}

function parseClientTimeouts(env: Env): { headersTimeoutMs: number; requestTimeoutMs: number } {
  const headers = parsePositiveInt(
    'HEADERS_TIMEOUT_SECONDS',
    setting(env, 'HEADERS_TIMEOUT_SECONDS'),
    DEFAULT_HEADERS_TIMEOUT_SECONDS,
  );
  const request = parsePositiveInt(
    'REQUEST_TIMEOUT_SECONDS',
    setting(env, 'REQUEST_TIMEOUT_SECONDS'),
    DEFAULT_REQUEST_TIMEOUT_SECONDS,
  );
  // Node refuses a headers timeout longer than the request's, which contains it.
  if (headers > request)
    throw new ConfigError(
      `HEADERS_TIMEOUT_SECONDS (${headers}) must not be above REQUEST_TIMEOUT_SECONDS (${request})`,
    );
  return { headersTimeoutMs: headers * 1000, requestTimeoutMs: request * 1000 };
}

/** What a migration run needs: the database, and how much to log. No other setting is required for it. */
export function loadMigrationConfig(env: Env = process.env): {
  databaseUrl: string;
  logLevel: string;
  waitSeconds: number;
} {
  return {
    databaseUrl: setting(env, 'DATABASE_URL') ?? DEFAULT_DATABASE_URL,
    logLevel: setting(env, 'LOG_LEVEL') ?? 'info',
    /** How long `migrate.js --wait` waits for the migration Job. */
    waitSeconds: parsePositiveInt('MIGRATE_WAIT_SECONDS', setting(env, 'MIGRATE_WAIT_SECONDS'), 600),
  };
}
