/** Handing a message to the SMTP server (nodemailer), behind a function type that tests can stand in for. */
import MailComposer from 'nodemailer/lib/mail-composer';
import { composeMime, type ComposedMime } from './mime.js';
import { createSmtpPool } from './smtp-pool.js';

export interface OutgoingMail {
  from: string;
  replyTo: string | { name: string; address: string };
  to: { name: string; address: string };
  /** Derived from the booking, so a message sent again after a crash is recognisably the same message. */
  messageId: string;
  headers: Record<string, string>;
  subject: string;
  text: string;
  html: string;
  /** The invitation a calendar acts on (a prospect's e-mails). */
  icalEvent?: { method: 'REQUEST' | 'CANCEL'; filename: string; content: string };
  /** Files to keep (the sales desk's copy of the event). */
  attachments?: { filename: string; content: string; contentType: string }[];
}

/**
 * What the SMTP server said: its reply line names where a local mail sink stored the message. `signal` gives up on
 * the send: a message still waiting for a connection is then never sent.
 */
export type SendMail = (mail: OutgoingMail, signal?: AbortSignal) => Promise<{ messageId?: string; response?: string }>;

/** Connections one worker keeps open to the SMTP server; messages beyond these wait in the pool's queue. */
export const SMTP_CONNECTIONS = 8;

/** A message worker/mime.ts leaves alone (an address beyond ASCII, say), built by nodemailer. */
async function withNodemailer(mail: OutgoingMail): Promise<ComposedMime> {
  const message = new MailComposer(mail).compile();
  const { from, to } = message.getEnvelope();
  return { envelope: { from: from || '', to }, raw: (await message.build()).toString('utf8') };
}

export function createSendMail(smtpUrl: string, options: { connections?: number } = {}): { sendMail: SendMail; close(): void } {
  // Pooled: messages go over a few connections kept open instead of a new connection (and greeting) each, which is
  // what bounded a worker to a few dozen messages a second.
  // Tried once: when a connection drops mid-send the send fails, and only the worker tries again: the failure is
  // recorded on the row and retried with the queue's backoff, under the row's claim, as with any other failed send.
  // A claim on the row is held while a message is handed over, so a stalled SMTP server must still fail in seconds.
  const pool = createSmtpPool(smtpUrl, {
    connections: options.connections ?? SMTP_CONNECTIONS,
    maxMessages: 1000,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    // The message is built in full before it is handed over (mime.ts, in one pass), and goes to the connection in
    // one piece, without nodemailer's message objects and streams around it.
    sendMail: async (mail, signal) => {
      const response = await pool.send(composeMime(mail) ?? (await withNodemailer(mail)), signal);
      return { messageId: mail.messageId, response };
    },
    close: () => pool.close(),
  };
}
