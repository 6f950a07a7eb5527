/** Handing a message to the SMTP server (nodemailer), behind a function type that tests can stand in for. */
import nodemailer from 'nodemailer';

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

/** What the SMTP server said: its reply line names where a local mail sink stored the message. */
export type SendMail = (mail: OutgoingMail) => Promise<{ messageId?: string; response?: string }>;

export function createSendMail(smtpUrl: string): { sendMail: SendMail; close(): void } {
  // One connection per message. A pooled transport was six times faster in the bench, but nodemailer's pool
  // requeues a message on its own when a connection drops, beside the worker's retries, and the SMTP-outage fault
  // test once saw an e-mail too many with it: held back until that is understood (BENCHMARKS.md).
  // A claim on the row is held while a message is handed over, so a stalled SMTP server must fail in seconds.
  const transport = nodemailer.createTransport({ url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 });
  return {
    sendMail: async (mail) => transport.sendMail(mail),
    close: () => transport.close(),
  };
}
