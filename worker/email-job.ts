/**
 * The worker's one job, `deliver`: one try of one row of deliveries, by its id and due time. An e-mail or a
 * host-calendar write is sent here, its kind looked up in the registry (kind-writers.ts) saying how the message is
 * written and whether it still tells the truth; a webhook delivery's try is webhook-job.ts's. The sweep (sweep.ts) finds the
 * rows still waiting. A row of a kind the registry does not know is refused for good, never guessed at.
 */
import { brand } from '../domain/brand.js';
import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import { DELIVER_JOB, EARLIER_JOB_NAMES, type DeliverPayload } from '../server-shared/jobs.js';
import { isDeliveryKind } from '../server-shared/delivery-kinds.js';
import { invitePathOf, managePathOf } from '../server-shared/booking-link.js';
import { singleLine } from '../domain/text.js';
import { mailDomain } from '../server-shared/sender.js';
import type { ProspectEmailOptions } from './email/confirmation.js';
import {
  deliver,
  deliverClaimed,
  type Composed,
  type Composition,
  type Delivery,
  type DeliveryDeps,
  type DeliveryOutcome,
} from './deliver.js';
import { KIND_WRITERS, type EmailKindWriter, type Written } from './kind-writers.js';
import { bookingUid } from '../server-shared/invitation.js';
import { claim, type EmailRow, type Lead } from './outbox.js';
import { notClaimed, tryWebhook, type WebhookDeps } from './webhook-job.js';

export interface JobContext {
  deps: DeliveryDeps;
  /** What the webhook deliveries need. */
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
  if (kind.channel === 'webhook')
    throw new UnrecoverableError(`a ${row.kind} row is neither an e-mail nor a calendar write`);
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

/**
 * Sends one outbox row (an e-mail or a host-calendar write), unless it no longer tells the truth or an earlier e-mail
 * about its booking is still in flight.
 */
export function processEmail(deps: DeliveryDeps, id: string, signal?: AbortSignal): Promise<DeliveryOutcome> {
  return deliver(deps, bookingDelivery(deps, id), signal);
}

/** How the row `id`, an e-mail or a calendar write, is composed and ordered: by its kind's registry line. */
function bookingDelivery(deps: DeliveryDeps, id: string): Delivery {
  return {
    id,
    log: deps.logger.child({ emailId: id }),
    compose: ({ row, lead }) => (lead ? composeRow(deps, row, lead) : null),
    orderOf: (row) => (isDeliveryKind(row.kind) ? KIND_WRITERS[row.kind].order : undefined),
  };
}

/**
 * Claims the job's row for the try it carries, whatever its channel, and hands it on: a webhook delivery to its try
 * (webhook-job.ts), an e-mail or a calendar write to its send.
 */
async function processDelivery(
  context: JobContext,
  job: Job,
  { deliveryId, dueAt }: DeliverPayload,
  signal?: AbortSignal,
  token?: string,
): Promise<string> {
  const claimedAt = Date.now();
  const claimed = await claim(context.deps.db, deliveryId, dueAt);
  if (claimed.claimed && claimed.channel === 'webhook') return tryWebhook(context.webhooks, claimed.delivery, signal);
  if (!claimed.claimed && claimed.channel === 'webhook') return notClaimed(context.webhooks, deliveryId);
  const delivery = bookingDelivery(context.deps, deliveryId);
  const outcome = await deliverClaimed(context.deps, delivery, claimed, claimedAt, signal);
  if (outcome === 'waiting') return waitForEarlierEmail(job, token);
  return outcome === 'missing' ? context.leaveToOwner(job, deliveryId) : outcome;
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

/** The job's row and due time, or a refusal for good: a job without them is no job of this release. */
function payloadOf(job: Job): DeliverPayload {
  const data: unknown = job.data;
  const payload = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  if (typeof payload.deliveryId !== 'string' || typeof payload.dueAt !== 'number')
    throw new UnrecoverableError('a deliver job without its delivery and due time');
  return { deliveryId: payload.deliveryId, dueAt: payload.dueAt };
}

/**
 * Runs a `deliver` job: its row's e-mail or calendar write, or its webhook delivery's try (webhook-job.ts). A job of
 * another name, or without its row's id and due time, fails for good (no retries), with the reason; a job of an
 * earlier release's name leaves its row to the sweep, which enqueues it again as a `deliver`.
 */
export async function runJob(context: JobContext, job: Job, signal?: AbortSignal, token?: string): Promise<string> {
  if (EARLIER_JOB_NAMES.includes(job.name))
    throw new UnrecoverableError(`a "${job.name}" job of an earlier release; the sweep enqueues its row again`);
  if (job.name !== DELIVER_JOB) throw new UnrecoverableError(`unknown job name "${job.name}"`);
  return processDelivery(context, job, payloadOf(job), signal, token);
}
