/** The queue contract between the API (producer) and the worker (consumer). */
/**
 * The one queue of every delivery a booking causes: its e-mails, its host-calendar writes, its webhook deliveries. A
 * job of an earlier release still there after an upgrade (another queue name, another job name) is not taken; the
 * sweep enqueues its row again once it has been pending a minute.
 */
export const DELIVERY_QUEUE = 'deliveries';

/**
 * The job that sends one e-mail or host-calendar write (a row of deliveries); its kind
 * (server-shared/delivery-kinds.ts) says which.
 */
export const SEND_EMAIL_JOB = 'send-email';
/** The job that makes one try of one webhook delivery (a row of deliveries on the channel webhook), due at `dueAt`. */
export const DELIVER_WEBHOOK_JOB = 'deliver-webhook';

/** Only the row's id travels through Redis: no personal data, no secrets. */
export interface SendEmailPayload {
  emailId: string;
}

/**
 * The delivery's id and the try it makes: the epoch milliseconds its row was due at when the job was queued. A job
 * whose row has been rescheduled since (a failed try, a replay) finds another due time there and does nothing.
 */
export interface DeliverWebhookPayload {
  deliveryId: string;
  dueAt: number;
}

/** A job as it is put on the queue. */
export type QueuedJob =
  | { name: typeof SEND_EMAIL_JOB; payload: SendEmailPayload }
  | { name: typeof DELIVER_WEBHOOK_JOB; payload: DeliverWebhookPayload };

/** The job that sends the outbox row `emailId`. */
export function emailJob(emailId: string): QueuedJob {
  return { name: SEND_EMAIL_JOB, payload: { emailId } };
}

/** The job that makes the try of delivery `deliveryId` due at `dueAt` (epoch milliseconds). */
export function webhookJob(deliveryId: string, dueAt: number): QueuedJob {
  return { name: DELIVER_WEBHOOK_JOB, payload: { deliveryId, dueAt } };
}

/**
 * The job's id in the queue. While a job with that id is queued, retrying or running, adding it again does
 * nothing: the API and the sweep may both enqueue a row without sending it twice. A webhook delivery's id names
 * its try, so that the next one (after a failure, or a replay) is a job of its own.
 */
export function jobIdOf(job: QueuedJob): string {
  return job.name === SEND_EMAIL_JOB
    ? `email-${job.payload.emailId}`
    : `webhook-${job.payload.deliveryId}-${job.payload.dueAt}`;
}

/** What the producer and the worker need of a BullMQ queue. */
export interface JobQueue {
  add(name: string, data: unknown, options: { jobId: string; delay?: number }): Promise<unknown>;
}

/**
 * The one way a job is put on the queue, by the API and by the worker alike. A webhook try due later waits in the
 * queue until then (BullMQ's delay); the sweep finds it again from its row if Redis loses it.
 */
export async function enqueueJob(queue: JobQueue, job: QueuedJob, now = Date.now()): Promise<void> {
  const delay = job.name === DELIVER_WEBHOOK_JOB ? Math.max(0, job.payload.dueAt - now) : 0;
  await queue.add(job.name, job.payload, { jobId: jobIdOf(job), ...(delay > 0 ? { delay } : {}) });
}

/** Retries with exponential backoff: 5 s, 10 s, 20 s, 40 s … */
export const deliveryJobOptions = {
  attempts: 6,
  backoff: { type: 'exponential', delay: 5000 },
  removeOnComplete: true,
  // A job that ran out of attempts is removed so that the sweep can enqueue the row again later.
  removeOnFail: true,
} as const;

/** A row still unsent this long after it was stored is enqueued again by the sweep. */
export const SWEEP_GRACE_MS = 60_000;
export const SWEEP_EVERY_MS = 30_000;
