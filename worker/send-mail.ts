/**
 * Handing a message to the SMTP server: nodemailer's pooled SMTP transport, which composes the message (text, HTML,
 * the invitation as an iMIP part, attachments), signs it with DKIM when the worker has a key, and sends it over a few
 * connections kept open. Behind a function type that tests can stand in for.
 */
import nodemailer from 'nodemailer';

export interface OutgoingMail {
  from: string;
  replyTo: string | { name: string; address: string };
  to: { name: string; address: string };
  /** Derived from the booking, so a message sent again after a crash is recognisably the same message. */
  messageId: string;
  /** The message it answers, and its thread (RFC 5322): a booking's later e-mails point at its confirmation. */
  inReplyTo?: string;
  references?: string;
  headers: Record<string, string>;
  subject: string;
  text: string;
  html: string;
  /** The invitation a calendar acts on (a prospect's e-mails); `method` is the METHOD of `content`. */
  icalEvent?: { method: 'REQUEST' | 'CANCEL' | 'PUBLISH'; filename: string; content: string };
  /** Files to keep (the sales desk's copy of the event). */
  attachments?: { filename: string; content: string; contentType: string }[];
}

/**
 * What the SMTP server said: its reply line names where a local mail sink stored the message. `signal` gives up on
 * the send: a message still waiting for a connection is then never sent, and one on the wire has its connection
 * closed, so nothing more of it is written.
 */
export type SendMail = (mail: OutgoingMail, signal?: AbortSignal) => Promise<{ messageId?: string; response?: string }>;

/** Connections one worker keeps open to the SMTP server; messages beyond these wait in the pool's queue. */
export const SMTP_CONNECTIONS = 8;
/** Messages one connection carries before the pool closes it and opens another. */
export const MESSAGES_PER_CONNECTION = 1000;

/** Signs every message (RFC 6376): the public key is published as TXT at `{keySelector}._domainkey.{domainName}`. */
export interface DkimKey {
  domainName: string;
  keySelector: string;
  /** PEM. */
  privateKey: string;
}

export interface MailTransport {
  sendMail: SendMail;
  /** Closes every connection, one still carrying a message included: that send fails (the worker gave up on it). */
  close(): void;
}

export function createSendMail(smtpUrl: string, options: { connections?: number; dkim?: DkimKey } = {}): MailTransport {
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    pool: true,
    maxConnections: options.connections ?? SMTP_CONNECTIONS,
    maxMessages: MESSAGES_PER_CONNECTION,
    // Never sent again by the transport itself: a message whose connection closes under it fails its try, and only
    // the worker tries again, under the row's claim, with the queue's backoff (the row records every try).
    maxRequeues: 0,
    // A claim on the row is held while a message is handed over, so a stalled SMTP server must still fail in seconds.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
    ...(options.dkim ? { dkim: options.dkim } : {}),
  });
  return {
    sendMail: async (mail, signal) => {
      const info = await transport.sendMail({ ...mail, ...(signal ? { signal } : {}) });
      return { messageId: info.messageId, response: info.response };
    },
    close: () => transport.close({ force: true }),
  };
}
