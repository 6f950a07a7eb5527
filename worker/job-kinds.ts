/**
 * The worker's seam for kinds of job: for each job name, how a job is handled and where the sweep finds the rows of
 * that kind still waiting to be sent. A name the map does not hold is refused, never guessed at.
 * Adding a kind of e-mail takes a template (email/), a row kind, and one line in JOB_KINDS.
 */
import { UnrecoverableError, type Job } from 'bullmq';
import type { Knex } from 'knex';
import {
  MAX_CONFIRMATION_ATTEMPTS,
  SEND_CONFIRMATION_JOB,
  bookingEmailJob,
  type BookingEmailKind,
  type BookingEmailPayload,
  type JobName,
  type JobPayloads,
  type QueuedJob,
  type SendConfirmationPayload,
} from '../server-shared/jobs.js';
import { invitePathOf, managePathOf } from '../server-shared/booking-link.js';
import { bookingUid } from '../server-shared/invitation.js';
import { mailDomain } from '../server-shared/sender.js';
import { deliver, type Composed, type DeliveryDeps, type DeliveryOutcome } from './deliver.js';
import { renderCancellation, renderReminder, renderUpdate } from './email/booking-changes.js';
import { renderConfirmation, type ProspectEmailOptions } from './email/confirmation.js';
import { renderSalesNotice } from './email/sales-notice.js';
import {
  BOOKING_EMAIL_COLUMNS,
  BOOKING_EMAILS,
  CONFIRMATIONS,
  findDueBookingEmails,
  findLead,
  findStalePending,
  type BookingEmailRow,
  type Lead,
} from './outbox.js';

export interface JobContext {
  deps: DeliveryDeps;
  /** For a row this worker's database does not hold: hands the job back to the queue for its owner. */
  leaveToOwner(job: Job, rowId: string): string;
}

export interface JobKind<N extends JobName> {
  /** Does the job's work; what it returns is the job's result in the queue. */
  handle(context: JobContext, payload: JobPayloads[N], job: Job, signal?: AbortSignal): Promise<string>;
  /** The payloads of rows of this kind due and still pending after the grace period, for the sweep to enqueue. */
  pending(db: Knex, graceMs: number): Promise<JobPayloads[N][]>;
}

function prospectOptions(deps: DeliveryDeps, bookingId: string, sequence: number): ProspectEmailOptions {
  return {
    timeZone: deps.timeZone,
    mailFrom: deps.mailFrom,
    publicUrl: deps.publicUrl,
    now: deps.now?.() ?? new Date(),
    inviteUrl: `${deps.publicUrl}${invitePathOf(bookingId, deps.linkSecret)}`,
    manageUrl: `${deps.publicUrl}${managePathOf(bookingId, deps.linkSecret)}`,
    sequence,
  };
}

/** A message to the prospect from a rendered e-mail; with `method`, the invitation a calendar acts on. */
function toProspect(
  email: { subject: string; text: string; html: string; toName: string; ics?: string },
  address: string,
  messageId: string,
  method?: 'REQUEST' | 'CANCEL',
): Composed {
  return {
    to: { name: email.toName, address },
    messageId,
    subject: email.subject,
    text: email.text,
    html: email.html,
    ...(method && email.ics ? { icalEvent: { method, filename: 'invite.ics', content: email.ics } } : {}),
  };
}

interface ConfirmationRow {
  id: string;
  name: string;
  email: string;
  company: string;
  time_slot: Date;
  sequence: number;
}

/** Sends a booking's confirmation, as the booking stands when it is sent. */
export function processConfirmation(deps: DeliveryDeps, payload: SendConfirmationPayload, signal?: AbortSignal): Promise<DeliveryOutcome> {
  const id = payload.demoRequestId;
  return deliver<ConfirmationRow>(
    deps,
    {
      outbox: CONFIRMATIONS,
      id,
      columns: ['id', 'name', 'email', 'company', 'time_slot', 'sequence'],
      label: 'confirmation',
      log: deps.logger.child({ demoRequestId: id }),
      async compose(row) {
        const booking = { id, name: row.name, email: row.email, company: row.company, timeSlot: row.time_slot };
        const email = renderConfirmation(booking, prospectOptions(deps, id, row.sequence));
        return toProspect(email, booking.email, `<${bookingUid(id, deps.mailFrom)}>`, 'REQUEST');
      },
    },
    signal,
  );
}

/** The message for a booking_emails row, or null when it no longer tells the truth about its booking. */
function composeBookingEmail(deps: DeliveryDeps, row: BookingEmailRow, lead: Lead): Composed | null {
  const booking = { ...lead, timeSlot: row.time_slot };
  const options = prospectOptions(deps, lead.id, row.sequence);
  const messageId = `<${row.kind}-${row.id}@${mailDomain(deps.mailFrom)}>`;
  switch (row.kind) {
    case 'update':
      // A later change has its own e-mail, which tells the booking as it is now.
      return lead.sequence > row.sequence ? null : toProspect(renderUpdate(booking, options), lead.email, messageId, 'REQUEST');
    case 'cancellation':
      return toProspect(renderCancellation(booking, options), lead.email, messageId, 'CANCEL');
    case 'reminder': {
      // Dropped with its slot: moved, cancelled, or already begun (a worker that was away for long).
      const stillHeld = lead.status === 'booked' && lead.timeSlot.getTime() === row.time_slot.getTime();
      if (!stillHeld || row.time_slot.getTime() <= options.now.getTime()) return null;
      return toProspect(renderReminder(booking, options), lead.email, messageId);
    }
    case 'sales-notice': {
      if (!row.recipient || !row.change) return null;
      const notice = renderSalesNotice(booking, row.change, { ...options, sequence: row.sequence });
      return {
        to: { name: 'Sales', address: row.recipient },
        // Answering the notice writes to the prospect.
        replyTo: { name: booking.name, address: lead.email },
        messageId,
        subject: notice.subject,
        text: notice.text,
        html: notice.html,
        attachments: [{ filename: 'demo.ics', content: notice.ics, contentType: 'text/calendar; charset=utf-8; method=PUBLISH' }],
      };
    }
  }
}

/** Sends one booking_emails row; `kind` is the job's, and a row of another kind is refused. */
export function processBookingEmail(deps: DeliveryDeps, kind: BookingEmailKind, payload: BookingEmailPayload, signal?: AbortSignal): Promise<DeliveryOutcome> {
  const id = payload.emailId;
  return deliver<BookingEmailRow>(
    deps,
    {
      outbox: BOOKING_EMAILS,
      id,
      columns: BOOKING_EMAIL_COLUMNS,
      label: kind,
      log: deps.logger.child({ emailId: id, kind }),
      async compose(row) {
        if (row.kind !== kind) throw new UnrecoverableError(`row ${id} is a ${row.kind}, not a ${kind}`);
        const lead = await findLead(deps.db, row.demo_request_id);
        return lead ? composeBookingEmail(deps, row, lead) : null;
      },
    },
    signal,
  );
}

const confirmation: JobKind<typeof SEND_CONFIRMATION_JOB> = {
  async handle(context, payload, job, signal) {
    const outcome = await processConfirmation(context.deps, payload, signal);
    return outcome === 'missing' ? context.leaveToOwner(job, payload.demoRequestId) : outcome;
  },
  async pending(db, graceMs) {
    const ids = await findStalePending(db, graceMs, MAX_CONFIRMATION_ATTEMPTS);
    return ids.map((demoRequestId) => ({ demoRequestId }));
  },
};

/**
 * A kind of booking_emails row. Changes are enqueued by the API at once, so the sweep waits out the grace period
 * before it steps in; a reminder is enqueued by the sweep alone when it falls due (Redis holds no timer that could
 * be lost).
 */
function bookingEmailKind(kind: BookingEmailKind): JobKind<ReturnType<typeof bookingEmailJob>> {
  return {
    async handle(context, payload, job, signal) {
      const outcome = await processBookingEmail(context.deps, kind, payload, signal);
      return outcome === 'missing' ? context.leaveToOwner(job, payload.emailId) : outcome;
    },
    async pending(db, graceMs) {
      const ids = await findDueBookingEmails(db, kind, kind === 'reminder' ? 0 : graceMs, MAX_CONFIRMATION_ATTEMPTS);
      return ids.map((emailId) => ({ emailId }));
    },
  };
}

const JOB_KINDS: { [N in JobName]: JobKind<N> } = {
  [SEND_CONFIRMATION_JOB]: confirmation,
  [bookingEmailJob('update')]: bookingEmailKind('update'),
  [bookingEmailJob('cancellation')]: bookingEmailKind('cancellation'),
  [bookingEmailJob('reminder')]: bookingEmailKind('reminder'),
  [bookingEmailJob('sales-notice')]: bookingEmailKind('sales-notice'),
};

function isJobName(name: string): name is JobName {
  return Object.hasOwn(JOB_KINDS, name);
}

/** Runs a job by its name; an unknown name fails the job for good (no retries), with the name in the reason. */
export function runJob(context: JobContext, job: Job, signal?: AbortSignal): Promise<string> {
  const { name } = job;
  if (!isJobName(name)) throw new UnrecoverableError(`unknown job name "${name}"`);
  // The payload comes from Redis as the producer wrote it for this name (server-shared/jobs.ts, enqueueJob).
  return (JOB_KINDS[name] as JobKind<typeof name>).handle(context, job.data as JobPayloads[typeof name], job, signal);
}

/** Every kind's pending rows, as jobs to enqueue again. */
export async function pendingJobs(db: Knex, graceMs: number): Promise<QueuedJob[]> {
  const jobs: QueuedJob[] = [];
  for (const name of Object.keys(JOB_KINDS) as JobName[]) {
    for (const payload of await JOB_KINDS[name].pending(db, graceMs)) jobs.push({ name, payload } as QueuedJob);
  }
  return jobs;
}
