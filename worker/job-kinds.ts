/**
 * The worker's seam for kinds of job: for each job name, how a job is handled and where the sweep finds the rows of
 * that kind still waiting to be sent. A name the map does not hold is refused, never guessed at.
 * Adding a kind of e-mail takes a template (email/), a row kind, and one line in JOB_KINDS.
 */
import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import type { Knex } from 'knex';
import {
  MAX_EMAIL_ATTEMPTS,
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
import { CONFIRMATION_SEQUENCE } from '../server-shared/prospect-emails.js';
import { mailDomain } from '../server-shared/sender.js';
import { deliver, type Composed, type DeliveryDeps, type DeliveryOutcome } from './deliver.js';
import { renderCancellation, renderReminder, renderUpdate } from './email/booking-changes.js';
import { renderConfirmation, type ProspectEmailOptions } from './email/confirmation.js';
import { renderSalesNotice } from './email/sales-notice.js';
import {
  BOOKING_EMAIL_COLUMNS,
  BOOKING_EMAILS,
  CONFIRMATIONS,
  behindEarlierEmail,
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
  /** Does the job's work; what it returns is the job's result in the queue. `token` is the worker's lock on the job. */
  handle(context: JobContext, payload: JobPayloads[N], job: Job, signal?: AbortSignal, token?: string): Promise<string>;
  /** The payloads of rows of this kind due and still pending after the grace period, for the sweep to enqueue. */
  pending(db: Knex, graceMs: number): Promise<JobPayloads[N][]>;
}

/** What composing a message needs: no database, no SMTP. */
export type ComposeDeps = Pick<DeliveryDeps, 'mailFrom' | 'timeZone' | 'publicUrl' | 'linkSecret' | 'now'>;

/** How long a job waits before it looks again whether the earlier e-mail about its booking has gone. */
export const EARLIER_EMAIL_WAIT_MS = 1000;

function prospectOptions(deps: ComposeDeps, bookingId: string, sequence: number): ProspectEmailOptions {
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

/** A booking's row as its confirmation is claimed: the booking as it stands at that moment. */
export interface ConfirmationRow {
  id: string;
  name: string;
  email: string;
  company: string;
  time_slot: Date;
  status: 'booked' | 'cancelled';
  sequence: number;
}

/**
 * The confirmation announces the booking as it was made, the event's first version (SEQUENCE 0). Once the booking
 * has changed (moved or cancelled) the change's own e-mail tells the prospect where it stands, and a confirmation
 * sent now would put back what the change replaced: null, so it is dropped and never sent.
 */
export function composeConfirmation(deps: ComposeDeps, row: ConfirmationRow): Composed | null {
  if (row.status !== 'booked' || row.sequence !== CONFIRMATION_SEQUENCE) return null;
  const booking = { id: row.id, name: row.name, email: row.email, company: row.company, timeSlot: row.time_slot };
  const email = renderConfirmation(booking, prospectOptions(deps, row.id, CONFIRMATION_SEQUENCE));
  return toProspect(email, booking.email, `<${bookingUid(row.id, deps.mailFrom)}>`, 'REQUEST');
}

/** Sends a booking's confirmation, unless the booking has moved on since it was made. */
export function processConfirmation(deps: DeliveryDeps, payload: SendConfirmationPayload, signal?: AbortSignal): Promise<DeliveryOutcome> {
  const id = payload.demoRequestId;
  return deliver<ConfirmationRow>(
    deps,
    {
      outbox: CONFIRMATIONS,
      id,
      columns: ['id', 'name', 'email', 'company', 'time_slot', 'status', 'sequence'],
      label: 'confirmation',
      log: deps.logger.child({ bookingId: id }),
      // The claim reads the row as it stands: a change committed before it is seen here.
      compose: async (row) => composeConfirmation(deps, row),
    },
    signal,
  );
}

/**
 * The message for a booking_emails row, or null when it no longer tells the truth about its booking. Each carries
 * the sequence of the change it announces (the row's), never the booking's current one.
 */
export function composeBookingEmail(deps: ComposeDeps, row: BookingEmailRow, lead: Lead): Composed | null {
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
      behindEarlier: () => behindEarlierEmail(deps.db, id),
      async compose(row) {
        if (row.kind !== kind) throw new UnrecoverableError(`row ${id} is a ${row.kind}, not a ${kind}`);
        const lead = await findLead(deps.db, row.booking_id);
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
    const ids = await findStalePending(db, graceMs, MAX_EMAIL_ATTEMPTS);
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
    async handle(context, payload, job, signal, token) {
      const outcome = await processBookingEmail(context.deps, kind, payload, signal);
      if (outcome === 'waiting') return waitForEarlierEmail(job, token);
      return outcome === 'missing' ? context.leaveToOwner(job, payload.emailId) : outcome;
    },
    async pending(db, graceMs) {
      const ids = await findDueBookingEmails(db, kind, kind === 'reminder' ? 0 : graceMs, MAX_EMAIL_ATTEMPTS);
      return ids.map((emailId) => ({ emailId }));
    },
  };
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
export function runJob(context: JobContext, job: Job, signal?: AbortSignal, token?: string): Promise<string> {
  const { name } = job;
  if (!isJobName(name)) throw new UnrecoverableError(`unknown job name "${name}"`);
  // The payload comes from Redis as the producer wrote it for this name (server-shared/jobs.ts, enqueueJob).
  return (JOB_KINDS[name] as JobKind<typeof name>).handle(context, job.data as JobPayloads[typeof name], job, signal, token);
}

/** Every kind's pending rows, as jobs to enqueue again. */
export async function pendingJobs(db: Knex, graceMs: number): Promise<QueuedJob[]> {
  const jobs: QueuedJob[] = [];
  for (const name of Object.keys(JOB_KINDS) as JobName[]) {
    for (const payload of await JOB_KINDS[name].pending(db, graceMs)) jobs.push({ name, payload } as QueuedJob);
  }
  return jobs;
}
