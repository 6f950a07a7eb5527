/** Parsing of the settings both programs read, and their defaults. Reading process.env stays in each config.ts. */
import { DEFAULT_BOOKING_TIME_ZONE, isValidTimeZone } from '../domain/booking.js';
import { secretsFolder, type SecretsFolder } from './kept-secrets.js';
import { DEFAULT_RETENTION_DAYS } from '../domain/retention.js';
import { brand, type Contact } from '../domain/brand.js';

export type Env = Record<string, string | undefined>;

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/converge';
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';
export const DEFAULT_SMTP_URL = 'smtp://127.0.0.1:1025';
export const DEFAULT_MAIL_FROM = 'Converge Demos <demos@converge.localhost>';
export const DEFAULT_PORT = 3000;
/** BullMQ's key prefix in Redis; tests give each run its own. */
export const DEFAULT_QUEUE_PREFIX = 'converge';

export class ConfigError extends Error {}

export function setting(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

export function parsePort(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ConfigError(`PORT must be a port number, got "${value}"`);
  return port;
}

export function parseTimeZone(value: string | undefined): string {
  const zone = value ?? DEFAULT_BOOKING_TIME_ZONE;
  if (!isValidTimeZone(zone)) {
    throw new ConfigError(`BOOKING_TIME_ZONE must be an IANA zone such as Europe/Berlin, got "${zone}"`);
  }
  return zone;
}

export function parseCount(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0)
    throw new ConfigError(`${name} must be a whole number, 0 or more, got "${value}"`);
  return number;
}

/**
 * TRUST_PROXY: how many proxies in front of the API append to X-Forwarded-For. 0 (or false) trusts none;
 * true means one, as it always has.
 */
export function parseProxyHops(value: string | undefined): number {
  if (value === undefined) return 0;
  if (/^(true|yes|on)$/i.test(value)) return 1;
  if (/^(false|no|off)$/i.test(value)) return 0;
  const hops = Number(value);
  if (!Number.isInteger(hops) || hops < 0 || hops > 10) {
    throw new ConfigError(
      `TRUST_PROXY must be the number of trusted proxies in front of the API (0 to 10), got "${value}"`,
    );
  }
  return hops;
}

/** Long enough not to be guessed: the operations token and the booking-link secret alike. */
const SECRET_MIN_LENGTH = 32;

function longEnough(name: string, value: string): string {
  if (value.length < SECRET_MIN_LENGTH) {
    throw new ConfigError(
      `${name} must be at least ${SECRET_MIN_LENGTH} characters long (it has ${value.length}); make one with: openssl rand -hex 32`,
    );
  }
  return value;
}

/** The operations token: unset turns the endpoint off; a short one is refused, since it could be guessed. */
export function parseAdminToken(value: string | undefined): string | undefined {
  return value === undefined ? undefined : longEnough('ADMIN_TOKEN', value);
}

/**
 * BOOKING_LINK_SECRET signs the links that let a prospect reach their booking; both programs need the same one.
 * Required: a link signed with a guessable or missing secret would open anyone's booking.
 */
export function parseLinkSecret(value: string | undefined): string {
  if (value === undefined) {
    throw new ConfigError(
      `BOOKING_LINK_SECRET is not set: it signs the booking links in the e-mails (the API and the worker need the same one); make one with: openssl rand -hex 32`,
    );
  }
  return longEnough('BOOKING_LINK_SECRET', value);
}

/**
 * BOOKING_LINK_PREVIOUS_SECRETS: the secrets booking links were signed with before a rotation (separated by commas,
 * spaces or line breaks). Links signed with one of them still open their booking; new links use BOOKING_LINK_SECRET.
 */
export function parsePreviousLinkSecrets(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((secret) => longEnough('BOOKING_LINK_PREVIOUS_SECRETS', secret));
}

/**
 * SECRETS_DIR: the folder where the programs keep the secrets they make for themselves (docker compose's volume,
 * shared by the API and the worker). Unset, they make none, and BOOKING_LINK_SECRET is required.
 */
export function secretsFolderIn(env: Env): SecretsFolder | undefined {
  const dir = setting(env, 'SECRETS_DIR');
  return dir === undefined ? undefined : secretsFolder(dir);
}

export function parsePositiveInt(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1)
    throw new ConfigError(`${name} must be a whole number above 0, got "${value}"`);
  return number;
}

/** SALES_NOTIFY_EMAIL: one plain address (name@domain), or unset for no notices. */
export function parseNotifyAddress(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^[^\s@<>,;"]+@[^\s@<>,;"]+\.[^\s@<>,;"]+$/.test(value))
    throw new ConfigError(`${name} must be one e-mail address such as sales@example.com, got "${value}"`);
  return value;
}

/** A phone number as people print it: an optional +, then digits with spaces, dots, dashes, slashes or brackets. */
const PRINTED_PHONE = /^\+?\d[\d ()./-]{3,28}\d$/;

/**
 * CONTACT_EMAIL and CONTACT_PHONE: how buyers reach the sales desk, shown in the pages' footer (the API writes them
 * in) and in every e-mail's footer (the worker); unset, the brand's own (domain/brand.ts).
 */
export function parseContact(env: Env): Contact {
  const email = parseNotifyAddress('CONTACT_EMAIL', setting(env, 'CONTACT_EMAIL')) ?? brand.company.contact.email;
  const phone = setting(env, 'CONTACT_PHONE') ?? brand.company.contact.phone;
  if (!PRINTED_PHONE.test(phone))
    throw new ConfigError(`CONTACT_PHONE must be a phone number such as +49 30 5557 2100, got "${phone}"`);
  return { email, phone };
}

/** RETENTION_DAYS: a whole number of days, 1 or more; unset, DEFAULT_RETENTION_DAYS. */
export function parseRetentionDays(value: string | undefined): number {
  return parsePositiveInt('RETENTION_DAYS', value, DEFAULT_RETENTION_DAYS);
}
