/**
 * The worker's one job: send one outbox row (an e-mail or a host-calendar write, of deliveries) by its id. The row's kind, looked up in the registry
 * (kind-writers.ts), says how the message is written and whether it still tells the truth; the sweep finds the rows
 * still waiting, kind by kind. A row of a kind the registry does not know is refused for good, never guessed at.
 */
import { brand } from '../domain/brand.js';
import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import type { Knex } from 'knex';
import {
  DELIVER_WEBHOOK_JOB,
  SEND_EMAIL_JOB,
  emailJob,
  type QueuedJob,
  type SendEmailPayload,
} from '../server-shared/jobs.js';
import { DELIVERY_KINDS, DELIVERY_KIND_NAMES, isDeliveryKind } from '../server-shared/delivery-kinds.js';
import { invitePathOf, managePathOf } from '../server-shared/booking-link.js';
import { singleLine } from '../domain/text.js';
import { mailDomain } from '../server-shared/sender.js';
import type { ProspectEmailOptions } from './email/confirmation.js';
import { deliver, type Composed, type Composition, type DeliveryDeps, type DeliveryOutcome } from './deliver.js';
import { KIND_WRITERS, type EmailKindWriter, type Written } from './kind-writers.js';
import { bookingUid } from '../server-shared/invitation.js';
import { findDueEmails, type EmailRow, type Lead } from './outbox.js';
import { processWebhook, type WebhookDeps } from './webhook-job.js';

export interface JobContext {
  deps: DeliveryDeps;
  /** What the webhook deliveries need (the `deliver-webhook` job). */
  webhooks: WebhookDeps;
  /** For a row this worker's database does not hold: hands the job back to the queue for its owner. */
  leaveToOwner(job: Job, rowId: string): string;
}

/** What composing a message needs: no database, no SMTP. */
export type ComposeDeps = Pick<DeliveryDeps, 'mailFrom' | 'timeZone' | 'publicUrl' | 'contact' | 'linkSecret' | 'now'>;

/** How long a job waits before it looks again whether the earlier e-mail about its booking has gone. */
export const EARLIER_EMAIL_WAIT_MS = 1000;

function prospectOptions(deps: ComposeDeps, bookingId: string, sequence: number): ProspectEmailOptions {
  return {
    timeZone: deps.timeZone,
    mailFrom: deps.mailFrom,
    publicUrl: deps.publicUrl,
    contact: deps.contact ?? brand.company.contact,
    now: deps.now?.() ?? new Date(),
    inviteUrl: `${deps.publicUrl}${invitePathOf(bookingId, deps.linkSecret)}`,
    manageUrl: `${deps.publicUrl}${managePathOf(bookingId, deps.linkSecret)}`,
    sequence,
  };
}

/**
 * What an outbox row comes to, or null when it no longer tells the truth about its booking. Each tells the booking
 * with the slot and the sequence of the change it announces (the row's), never the booking's current ones.
 */
export function composeRow(deps: ComposeDeps, row: EmailRow, lead: Lead): Composition | null {
  if (!isDeliveryKind(row.kind)) throw new UnrecoverableError(`no kind "${row.kind}" in this worker's registry`);
  const kind = KIND_WRITERS[row.kind];
  const options = prospectOptions(deps, lead.id, row.sequence);
  if (!kind.stillTrue(row, lead, options.now)) return null;
  const booking = { ...lead, timeSlot: row.time_slot };
  if (kind.channel === 'calendar') {
    if (row.recipient === null) return null;
    return {
      channel: 'calendar',
      write: {
        hostEmail: row.recipient,
        uid: bookingUid(lead.id, deps.mailFrom),
        ics: kind.event(booking, row, options),
      },
    };
  }
  const message = composeMessage(deps, kind, row, lead, kind.write(booking, row, options));
  return message && { channel: 'email', message };
}

/** The e-mail for an outbox row of an e-mail kind, or null when it no longer tells the truth. */
export function composeEmail(deps: ComposeDeps, row: EmailRow, lead: Lead): Composed | null {
  const composed = composeRow(deps, row, lead);
  if (composed?.channel === 'calendar') throw new Error(`a ${row.kind} row is not an e-mail`);
  return composed?.message ?? null;
}

function composeMessage(
  deps: ComposeDeps,
  kind: EmailKindWriter,
  row: EmailRow,
  lead: Lead,
  written: Written,
): Composed | null {
  const messageId = kind.messageId?.(lead, deps.mailFrom) ?? `<${row.kind}-${row.id}@${mailDomain(deps.mailFrom)}>`;
  const message = { messageId, subject: written.subject, text: written.text, html: written.html };
  const calendar =
    kind.method && written.ics
      ? kind.calendarAs === 'file'
        ? {
            attachments: [
              {
                filename: 'demo.ics',
                content: written.ics,
                contentType: `text/calendar; charset=utf-8; method=${kind.method}`,
              },
            ],
          }
        : { icalEvent: { method: kind.method, filename: 'invite.ics', content: written.ics } }
      : {};
  if (kind.to === 'row') {
    if (row.recipient === null) return null;
    const host = lead.host?.email === row.recipient ? lead.host : undefined;
    return {
      ...message,
      to: { name: host ? singleLine(host.name) : (kind.recipientName ?? ''), address: row.recipient },
      // Answering it writes to the prospect.
      replyTo: { name: lead.name, address: lead.email },
      ...calendar,
    };
  }
  // One thread per booking in the prospect's mail program: every later e-mail answers the confirmation.
  const confirmation = `<${bookingUid(lead.id, deps.mailFrom)}>`;
  const thread = messageId === confirmation ? {} : { inReplyTo: confirmation, references: confirmation };
  return {
    ...message,
    ...thread,
    // The name made safe for a header: no line breaks or control characters.
    to: { name: singleLine(lead.name), address: lead.email },
    ...calendar,
  };
}

/** Sends one outbox row, unless it no longer tells the truth or an earlier e-mail about its booking is still in flight. */
export function processEmail(
  deps: DeliveryDeps,
  payload: SendEmailPayload,
  signal?: AbortSignal,
): Promise<DeliveryOutcome> {
  const id = payload.emailId;
  return deliver(
    deps,
    {
      id,
      log: deps.logger.child({ emailId: id }),
      compose: ({ row, lead }) => (lead ? composeRow(deps, row, lead) : null),
      orderOf: (row) => (isDeliveryKind(row.kind) ? KIND_WRITERS[row.kind].order : undefined),
    },
    signal,
  );
}

/**
 * Puts the job back in the queue for a moment, not counting it as a try: an earlier e-mail about its booking is still
 * being sent (at most for its claim's lease). Without the worker's lock on the job it ends, and the sweep enqueues the
 * row again later.
 */
async function waitForEarlierEmail(job: Job, token: string | undefined): Promise<string> {
  if (token === undefined) return 'waiting';
  await job.moveToDelayed(Date.now() + EARLIER_EMAIL_WAIT_MS, token);
  throw new DelayedError();
}

/**
 * Runs a job: an e-mail's (`send-email`) or a webhook delivery's try (`deliver-webhook`, webhook-job.ts). A job of
 * another name, or without its row's id, fails for good (no retries), with the reason.
 */
export async function runJob(context: JobContext, job: Job, signal?: AbortSignal, token?: string): Promise<string> {
  if (job.name === DELIVER_WEBHOOK_JOB) {
    const data: unknown = job.data;
    const payload = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
    if (typeof payload.deliveryId !== 'string' || typeof payload.dueAt !== 'number')
      throw new UnrecoverableError('a deliver-webhook job without its delivery and due time');
    return processWebhook(context.webhooks, { deliveryId: payload.deliveryId, dueAt: payload.dueAt }, signal);
  }
  if (job.name !== SEND_EMAIL_JOB) throw new UnrecoverableError(`unknown job name "${job.name}"`);
  const data: unknown = job.data;
  const emailId = typeof data === 'object' && data !== null && 'emailId' in data ? data.emailId : undefined;
  if (typeof emailId !== 'string') throw new UnrecoverableError('a send-email job without the id of its row');
  const outcome = await processEmail(context.deps, { emailId }, signal);
  if (outcome === 'waiting') return waitForEarlierEmail(job, token);
  return outcome === 'missing' ? context.leaveToOwner(job, emailId) : outcome;
}

/**
 * The rows still to send, kind by kind, as jobs to enqueue again: those sent at once (which the API enqueued) once
 * they have waited out the grace period, those sent when due (reminders, which only the sweep enqueues, so that Redis
 * holds no timer that could be lost) from their due time.
 */
export async function pendingJobs(db: Knex, graceMs: number): Promise<QueuedJob[]> {
  const jobs: QueuedJob[] = [];
  for (const kind of DELIVERY_KIND_NAMES) {
    const { sent, maxAttempts } = DELIVERY_KINDS[kind];
    for (const id of await findDueEmails(db, kind, sent === 'at once' ? graceMs : 0, maxAttempts))
      jobs.push(emailJob(id));
  }
  return jobs;
}
