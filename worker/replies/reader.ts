/**
 * The reply mailbox's reader: the prospects' answers to their invitations (iTIP REPLY over e-mail) read over IMAP
 * with imapflow, IDLE where the server offers it (a new message wakes it at once), else a poll, and a poll anyway
 * every REPLY_MAILBOX_POLL_SECONDS. One worker process reads at a time: each pass holds a PostgreSQL advisory lock,
 * as the sweep does. Where it stopped (the mailbox's UIDVALIDITY and the last UID read) is kept in
 * reply_mailbox_marks, so a restart reads on from there; only messages with a calendar part are downloaded.
 * A reply acted on is marked \Seen and $DemoReplyRead; one not acted on stays as it was (or is moved to
 * REPLY_MAILBOX_IGNORED_FOLDER) and is logged by its UID in the mailbox and why, never by an address.
 */
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { ImapFlow, type MessageStructureObject } from 'imapflow';
import type { DNSResolver } from 'mailauth';
import type { QueuedJob } from '../../server-shared/jobs.js';
import { withTimeout } from '../../server-shared/time-limits.js';
import { handleReply } from './handle.js';
import type { ReplyMailbox } from './settings.js';

const READER_LOCK = 'converge:reply-mailbox';
/** The keyword a reply acted on carries beside \Seen, so that a person reading the mailbox sees it was handled. */
export const READ_KEYWORD = '$DemoReplyRead';

export interface ReplyReaderDeps {
  db: Knex;
  logger: Logger;
  enqueue: (job: QueuedJob) => Promise<void>;
  mailbox: ReplyMailbox;
  mailFrom: string;
  linkSecret: string;
  salesNotifyEmail: string | undefined;
  /** DNS for DKIM and SPF; unset: the system's. Tests answer their own records. */
  resolver?: DNSResolver;
  now?: () => Date;
}

export interface ReplyReader {
  /** Reads the mailbox now (a pass already running is followed by one more). */
  readNow(): Promise<void>;
  stop(): Promise<void>;
}

/** Whether a message has a part a calendar could have written (the only ones downloaded). */
function hasCalendarPart(node: MessageStructureObject | undefined): boolean {
  if (!node) return false;
  const type = node.type.toLowerCase();
  if (type === 'text/calendar' || type === 'application/ics') return true;
  const name = node.dispositionParameters?.filename ?? node.parameters?.name ?? '';
  if (/\.ics$/i.test(name)) return true;
  return (node.childNodes ?? []).some(hasCalendarPart);
}

export function startReplyReader(deps: ReplyReaderDeps): ReplyReader {
  const { mailbox, logger } = deps;
  const markKey = `${mailbox.host}:${mailbox.port}/${mailbox.folder}`;
  let client: ImapFlow | undefined;
  let away = false;
  let stopped = false;
  let running: Promise<void> | undefined;
  let again = false;

  const connect = async (): Promise<ImapFlow> => {
    if (client?.usable) return client;
    const fresh = new ImapFlow({
      host: mailbox.host,
      port: mailbox.port,
      secure: mailbox.secure,
      auth: { user: mailbox.user, pass: mailbox.password },
      logger: false,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      missingIdleCommand: 'NOOP',
      // IDLE (where offered) soon after each pass, so that a new message wakes the reader at once.
      autoIdleDelay: 1000,
    });
    // A closed connection is opened again by the next pass; a new message wakes the reader.
    fresh.on('error', () => {});
    fresh.on('close', () => {
      if (client === fresh) client = undefined;
    });
    fresh.on('exists', () => void readNow());
    await fresh.connect();
    await fresh.mailboxOpen(mailbox.folder);
    client = fresh;
    return fresh;
  };

  const pass = async (): Promise<void> => {
    await deps.db.transaction(async (trx) => {
      const { rows } = await trx.raw('SELECT pg_try_advisory_xact_lock(hashtextextended(?, 0)) AS locked', [
        READER_LOCK,
      ]);
      if (!rows[0]?.locked) return;
      let imap: ImapFlow;
      try {
        imap = await connect();
      } catch (err) {
        // imapflow's own words ("Command failed") say little: the server's answer says more (a refused login).
        const said = (err as { responseText?: string }).responseText;
        const error = said ? `${(err as Error).message}: ${said}` : (err as Error).message;
        if (!away) logger.warn({ error }, 'reply mailbox unreachable; will try again');
        away = true;
        return;
      }
      if (away) logger.info('reply mailbox reachable again');
      away = false;
      // Caught here, so that the mark of what was read in full before the failure commits with the lock's transaction.
      await readMailbox(trx, imap).catch((err: Error) =>
        logger.warn({ error: err.message }, 'reading the reply mailbox failed; will try again'),
      );
    });
  };

  const readMailbox = async (trx: Knex.Transaction, imap: ImapFlow): Promise<void> => {
    // Asks the server for what arrived: the poll where there is no IDLE, and a check where IDLE said nothing.
    await imap.noop();
    const opened = imap.mailbox;
    if (!opened || opened.exists === 0) return;
    const validity = String(opened.uidValidity);
    const mark = (await trx('reply_mailbox_marks').where({ mailbox: markKey }).first()) as
      { uid_validity: string; last_uid: string } | undefined;
    // A new UIDVALIDITY renumbers the mailbox: read it again from the start (replies already applied change nothing).
    const after = mark && String(mark.uid_validity) === validity ? Number(mark.last_uid) : 0;
    const found: { uid: number; calendar: boolean }[] = [];
    for await (const message of imap.fetch(`${after + 1}:*`, { uid: true, bodyStructure: true }, { uid: true })) {
      // "n:*" names the last message even when its UID is below n.
      if (message.uid > after) found.push({ uid: message.uid, calendar: hasCalendarPart(message.bodyStructure) });
    }
    let last = after;
    const save = () =>
      trx.raw(
        `INSERT INTO reply_mailbox_marks (mailbox, uid_validity, last_uid) VALUES (?, ?, ?)
           ON CONFLICT (mailbox) DO UPDATE SET uid_validity = EXCLUDED.uid_validity, last_uid = EXCLUDED.last_uid,
             updated_at = now()`,
        [markKey, validity, last],
      );
    try {
      for (const message of found) {
        if (message.calendar) await handleMessage(imap, message.uid);
        last = message.uid;
      }
    } finally {
      // Up to the last message handled in full: one that failed half-way is read again next time.
      if (last > after || !mark) await save();
    }
  };

  const handleMessage = async (imap: ImapFlow, uid: number): Promise<void> => {
    const fetched = await imap.fetchOne(String(uid), { source: true }, { uid: true });
    if (!fetched || !fetched.source) return;
    const verdict = await handleReply(deps, fetched.source);
    if ('ignored' in verdict) {
      logger.info({ mailboxUid: uid, why: verdict.ignored }, 'reply mailbox message not acted on');
      if (mailbox.ignoredFolder) {
        await imap.mailboxCreate(mailbox.ignoredFolder).catch(() => undefined);
        await imap.messageMove(String(uid), mailbox.ignoredFolder, { uid: true });
      }
      return;
    }
    for (const job of verdict.jobs) {
      // A job not queued now is queued by the sweep: its row is stored.
      await withTimeout(deps.enqueue(job), 5000, 'enqueueing a reply job').catch((err: Error) =>
        logger.warn({ bookingId: verdict.bookingId, error: err.message }, 'reply job left to the sweep'),
      );
    }
    await imap.messageFlagsAdd(String(uid), ['\\Seen', READ_KEYWORD], { uid: true });
    logger.info(
      {
        mailboxUid: uid,
        bookingId: verdict.bookingId,
        partstat: verdict.partstat,
        outcome: verdict.outcome,
        by: verdict.by,
      },
      'prospect reply read',
    );
  };

  const readNow = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await pass().catch((err: Error) =>
          logger.warn({ error: err.message }, 'reading the reply mailbox failed; will try again'),
        );
      } while (again && !stopped);
    })().finally(() => {
      running = undefined;
    });
    return running;
  };

  const timer = setInterval(() => void readNow(), mailbox.pollMs);
  void readNow();
  return {
    readNow,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
      const open = client;
      client = undefined;
      if (open) await withTimeout(open.logout(), 1000, 'closing the reply mailbox').catch(() => open.close());
    },
  };
}
