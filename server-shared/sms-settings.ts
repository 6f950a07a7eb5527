/**
 * The texts' settings (issue 40), read by both programs: SMPP_URL (smpp://system_id:password@host:port, optionally
 * ?window=N) turns texts
 * on, and SMS_FROM names the sender (an alphanumeric id of up to 11 characters, or a number). Checked at start: a
 * program with SMPP_URL and no SMS_FROM, or either malformed, does not start; SMS_FROM alone sends nothing.
 */
import { ConfigError, setting, type Env } from './settings.js';

export interface SmsSettings {
  host: string;
  port: number;
  systemId: string;
  password: string;
  /** The sender as the texts show it. */
  from: string;
  /** Submits sent and not yet answered, at most (the account's window, `?window=` on SMPP_URL). */
  window: number;
}

/** Texts to one number in 24 hours, whichever booking they are about (SMS_PER_NUMBER_PER_DAY; 0: no limit). */
export const DEFAULT_SMS_PER_NUMBER_PER_DAY = 5;

/**
 * Texts of one booking in all (SMS_PER_BOOKING; 0: no limit): its confirmation, reminder and cancel, and a few moves'
 * updates with their reminders, before a booking moved again and again texts no more.
 */
export const DEFAULT_SMS_PER_BOOKING = 8;

/** The window SMSCs commonly grant an account when its contract names none. */
export const DEFAULT_SMPP_WINDOW = 10;

/** SMPP's customary port. */
export const DEFAULT_SMPP_PORT = 2775;

const ALPHANUMERIC_FROM = /^[A-Za-z0-9 ]{1,11}$/;
const NUMBER_FROM = /^\+?[0-9]{3,15}$/;

/** The settings, or undefined when SMPP_URL is unset (no texts: nothing changes). */
export function parseSmsSettings(env: Env): SmsSettings | undefined {
  const url = setting(env, 'SMPP_URL');
  const from = setting(env, 'SMS_FROM');
  if (url === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError('SMPP_URL must look like smpp://system_id:password@host:2775');
  }
  if (parsed.protocol !== 'smpp:' || !parsed.hostname || !parsed.username)
    throw new ConfigError('SMPP_URL must look like smpp://system_id:password@host:2775');
  const window = parsed.searchParams.get('window') ?? String(DEFAULT_SMPP_WINDOW);
  if (!/^[1-9][0-9]{0,3}$/.test(window))
    throw new ConfigError(`SMPP_URL's window must be a whole number from 1 to 9999, got "${window}"`);
  if (from === undefined) throw new ConfigError('SMS_FROM must be set with SMPP_URL (a sender id or a number)');
  if (!ALPHANUMERIC_FROM.test(from) && !NUMBER_FROM.test(from))
    throw new ConfigError(`SMS_FROM must be up to 11 letters and digits, or a number, got "${from}"`);
  return {
    host: parsed.hostname,
    port: parsed.port ? Number(parsed.port) : DEFAULT_SMPP_PORT,
    systemId: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    from,
    window: Number(window),
  };
}
