/**
 * The floor the bench sets beside the worker: nodemailer's own pooled SMTP transport, as nodemailer's documentation
 * sets it up, sending the confirmations of the same rows the worker just sent (the worker's template, the same
 * fields) to the same SMTP server, and nothing else: no queue, no claim, no mark, every message rendered before the
 * first is handed over. Each goes with `<floor-{row id}@…>` as its Message-ID, so the SMTP server's count keeps the
 * two apart. Reads the worker's settings (MAIL_FROM, PUBLIC_URL, BOOKING_LINK_SECRET…) and FLOOR_CREATED_AT, the
 * `created_at` of the rows to send; prints how many it rendered, sends them all at once, prints `cpu <ms>` (its whole life's CPU time), and exits. Run as its own
 * process, as the worker is.
 */
import nodemailer from 'nodemailer';
import pg from 'pg';
import { invitePathOf, managePathOf } from '../../server-shared/booking-link.js';
import { mailDomain } from '../../server-shared/sender.js';
import { loadWorkerConfig } from '../../worker/config.js';
import { renderConfirmation } from '../../worker/email/confirmation.js';
import { SMTP_CONNECTIONS, MESSAGES_PER_CONNECTION } from '../../worker/send-mail.js';

const config = loadWorkerConfig();
const db = new pg.Client({ connectionString: config.databaseUrl });
await db.connect();
const { rows } = await db
  .query<{ id: string; name: string; email: string; company: string; time_slot: Date; sequence: number }>(
    'SELECT id, name, email, company, time_slot, sequence FROM bookings WHERE created_at = $1::timestamptz ORDER BY id',
    [process.env.FLOOR_CREATED_AT],
  )
  .finally(() => db.end());

const now = new Date();
const messages = rows.map((row) => {
  const booking = { id: row.id, name: row.name, email: row.email, company: row.company, timeSlot: row.time_slot };
  const email = renderConfirmation(booking, {
    timeZone: config.bookingTimeZone,
    mailFrom: config.mailFrom,
    publicUrl: config.publicUrl,
    contact: config.contact,
    now,
    inviteUrl: `${config.publicUrl}${invitePathOf(row.id, config.bookingLinkSecret)}`,
    manageUrl: `${config.publicUrl}${managePathOf(row.id, config.bookingLinkSecret)}`,
    sequence: row.sequence,
  });
  return {
    from: config.mailFrom,
    replyTo: config.replyTo,
    to: { name: email.toName, address: row.email },
    messageId: `<floor-${row.id}@${mailDomain(config.mailFrom)}>`,
    headers: { 'Auto-Submitted': 'auto-generated' },
    subject: email.subject,
    text: email.text,
    html: email.html,
    icalEvent: { method: 'REQUEST', filename: 'invite.ics', content: email.ics },
  };
});
process.stdout.write(`${messages.length}\n`);

// The worker's pool size and connection lifetime, nodemailer's defaults otherwise.
const transport = nodemailer.createTransport({
  url: config.smtpUrl,
  pool: true,
  maxConnections: SMTP_CONNECTIONS,
  maxMessages: MESSAGES_PER_CONNECTION,
});
const outcomes = await Promise.allSettled(messages.map((message) => transport.sendMail(message)));
transport.close();
const failed = outcomes.filter((outcome) => outcome.status === 'rejected').length;
const { user, system } = process.cpuUsage();
process.stdout.write(`cpu ${Math.round((user + system) / 1000)}\n`);
if (failed > 0) {
  process.stderr.write(`nodemailer floor: ${failed} of ${messages.length} sends failed\n`);
  process.exitCode = 1;
}
