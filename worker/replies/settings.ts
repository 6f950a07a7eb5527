/**
 * The reply mailbox's settings (REPLY_MAILBOX_URL, REPLY_MAILBOX_ADDRESS, REPLY_MAILBOX_IGNORED_FOLDER,
 * REPLY_MAILBOX_POLL_SECONDS), parsed by worker/config.ts: both of the first two or neither, checked at start.
 */
import { isIP } from 'node:net';
import { ConfigError, setting, type Env } from '../../server-shared/settings.js';

export interface ReplyMailbox {
  /** Where the reader logs in: host, port, TLS, user, password and the folder read (INBOX unless the path names one). */
  host: string;
  port: number;
  secure: boolean;
  user: string;
  password: string;
  folder: string;
  /** The invitations' ORGANIZER: calendars send the prospect's answer here. */
  address: string;
  /** Where a message the reader does not act on is moved; unset: it stays where it is, untouched. */
  ignoredFolder?: string;
  /** How often the mailbox is read when the server offers no IDLE, or IDLE says nothing. */
  pollMs: number;
}

export const DEFAULT_REPLY_POLL_SECONDS = 30;

const ADDRESS = /^[^\s@<>()",;:\\[\]]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+$/;

function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare === '::1';
}

export function parseReplyMailbox(env: Env): ReplyMailbox | undefined {
  const raw = setting(env, 'REPLY_MAILBOX_URL');
  const address = setting(env, 'REPLY_MAILBOX_ADDRESS');
  if (raw === undefined && address === undefined) return undefined;
  if (raw === undefined || address === undefined)
    throw new ConfigError(
      `Reading the prospects' replies needs REPLY_MAILBOX_URL and REPLY_MAILBOX_ADDRESS together; not set: ${
        raw === undefined ? 'REPLY_MAILBOX_URL' : 'REPLY_MAILBOX_ADDRESS'
      }`,
    );
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('REPLY_MAILBOX_URL must be a URL such as imaps://user:password@imap.example.com/INBOX');
  }
  if (url.protocol !== 'imaps:' && url.protocol !== 'imap:')
    throw new ConfigError(
      `REPLY_MAILBOX_URL must start with imaps:// (or imap:// on this machine), got ${url.protocol}//`,
    );
  // A password sent in the clear is only acceptable when it never leaves the machine.
  if (url.protocol === 'imap:' && !isLoopback(url.hostname))
    throw new ConfigError('REPLY_MAILBOX_URL may use imap:// (no TLS) only on a loopback address; use imaps://');
  if (!url.username || !url.password)
    throw new ConfigError(
      'REPLY_MAILBOX_URL must name the mailbox user and password: imaps://user:password@host/INBOX',
    );
  if (!ADDRESS.test(address))
    throw new ConfigError('REPLY_MAILBOX_ADDRESS must be an e-mail address such as demo-replies@example.com');
  const folder = decodeURIComponent(url.pathname.replace(/^\/+/, '')) || 'INBOX';
  const pollSeconds = setting(env, 'REPLY_MAILBOX_POLL_SECONDS');
  const poll = pollSeconds === undefined ? DEFAULT_REPLY_POLL_SECONDS : Number(pollSeconds);
  if (!Number.isFinite(poll) || poll <= 0)
    throw new ConfigError(`REPLY_MAILBOX_POLL_SECONDS must be a number of seconds above 0, got "${pollSeconds}"`);
  const ignoredFolder = setting(env, 'REPLY_MAILBOX_IGNORED_FOLDER');
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : url.protocol === 'imaps:' ? 993 : 143,
    secure: url.protocol === 'imaps:',
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    folder,
    address,
    ...(ignoredFolder ? { ignoredFolder } : {}),
    pollMs: Math.round(poll * 1000),
  };
}
