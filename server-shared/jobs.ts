/** The queue contract between the API (producer) and the worker (consumer). */
/**
 * The one queue of every e-mail job. It was once named 'demo-confirmations': a job still there after an
 * upgrade is not taken, and the sweep enqueues its row here again once it has been pending a minute.
 */
export const EMAIL_QUEUE = 'booking-emails';
export const SEND_CONFIRMATION_JOB = 'send-confirmation';

/** Only the row id travels through Redis: no personal data, no secrets. */
export interface SendConfirmationPayload {
  demoRequestId: string;
}

/** The e-mails about a booking after its confirmation, each a row of booking_emails (the outbox they share). */
export const BOOKING_EMAIL_KINDS = ['update', 'cancellation', 'reminder', 'sales-notice'] as const;
export type BookingEmailKind = (typeof BOOKING_EMAIL_KINDS)[number];

/** Only the booking_emails row's id travels through Redis. */
export interface BookingEmailPayload {
  emailId: string;
}

/** The job that sends a booking_emails row of a kind. */
export type BookingEmailJob<K extends BookingEmailKind = BookingEmailKind> = `send-${K}`;
export function bookingEmailJob<K extends BookingEmailKind>(kind: K): BookingEmailJob<K> {
  return `send-${kind}`;
}

/** Every job the worker takes, by name, with its payload (which names its row). A new kind of job is a new line here. */
export type JobPayloads = { [SEND_CONFIRMATION_JOB]: SendConfirmationPayload } & { [J in BookingEmailJob]: BookingEmailPayload };
export type JobName = keyof JobPayloads;
/** A job as it is put on the queue: its name and its payload, matched. */
export type QueuedJob = { [N in JobName]: { name: N; payload: JobPayloads[N] } }[JobName];

/**
 * The job's id in the queue. While a job with that id is queued, retrying or running, adding it again does
 * nothing: the API and the sweep may both enqueue a row without sending it twice.
 */
export function jobIdOf(job: QueuedJob): string {
  // A confirmation is named by its row alone (as jobs already queued are); any other kind by its name and row.
  return job.name === SEND_CONFIRMATION_JOB ? job.payload.demoRequestId : `${job.name}-${job.payload.emailId}`;
}

/** What the producer and the worker need of a BullMQ queue. */
export interface JobQueue {
  add(name: string, data: unknown, options: { jobId: string }): Promise<unknown>;
}

/** The one way a job is put on the queue, by the API and by the worker's sweep alike. */
export async function enqueueJob(queue: JobQueue, job: QueuedJob): Promise<void> {
  await queue.add(job.name, job.payload, { jobId: jobIdOf(job) });
}

/** Retries with exponential backoff: 5 s, 10 s, 20 s, 40 s … */
export const emailJobOptions = {
  attempts: 6,
  backoff: { type: 'exponential', delay: 5000 },
  removeOnComplete: true,
  // A job that ran out of attempts is removed so that the sweep can enqueue the row again later.
  removeOnFail: true,
} as const;

/** A row still unsent this long after it was stored is enqueued again by the sweep. */
export const SWEEP_GRACE_MS = 60_000;
export const SWEEP_EVERY_MS = 30_000;
/** After this many failed sends of an e-mail the sweep leaves its row alone; its last error stays on the row for ops. */
export const MAX_EMAIL_ATTEMPTS = 20;
