/** The queue contract between the API (producer) and the worker (consumer). */
/**
 * The one queue of every delivery a booking causes: its e-mails, its host-calendar writes, its webhook deliveries. A
 * job of an earlier release still there after an upgrade (another queue name, another job name) is not taken; the
 * sweep enqueues its row again once it has been pending a minute.
 */
export const DELIVERY_QUEUE = 'deliveries';

/**
 * The one job: one try of one delivery (a row of deliveries, of any channel), due at `dueAt`. The row's channel and
 * kind (server-shared/delivery-kinds.ts) say how it goes.
 */
export const DELIVER_JOB = 'deliver';

/**
 * The names of an earlier release's jobs (one for e-mails and calendar writes, one for webhook tries): such a job
 * still queued during a rolling upgrade fails for good, naming it, and the sweep enqueues its row again as a `deliver`.
 */
export const EARLIER_JOB_NAMES: readonly string[] = ['send-email', 'deliver-webhook'];

/**
 * The delivery's id and the try it makes: the epoch milliseconds its row was due at when the job was queued. A job
 * whose row has been rescheduled since (a failed webhook try, a replay) finds another due time there and does
 * nothing. Only these travel through Redis: no personal data, no secrets.
 */
export interface DeliverPayload {
  deliveryId: string;
  dueAt: number;
}

/** A job as it is put on the queue. */
export interface QueuedJob {
  name: typeof DELIVER_JOB;
  payload: DeliverPayload;
}

/** The job that makes the try of delivery `deliveryId` due at `dueAt` (epoch milliseconds). */
export function deliveryJob(deliveryId: string, dueAt: number): QueuedJob {
  return { name: DELIVER_JOB, payload: { deliveryId, dueAt } };
}

/**
 * The job's id in the queue. While a job with that id is queued, retrying or running, adding it again does
 * nothing: the API and the sweep may both enqueue a row without sending it twice. The id names the try, so that a
 * webhook's next one (after a failure, or a replay) is a job of its own.
 */
export function jobIdOf(job: QueuedJob): string {
  return `delivery-${job.payload.deliveryId}-${job.payload.dueAt}`;
}

/** What the producer and the worker need of a BullMQ queue. */
export interface JobQueue {
  add(name: string, data: unknown, options: { jobId: string; delay?: number }): Promise<unknown>;
}

/**
 * The one way a job is put on the queue, by the API and by the worker alike. A try due later (a webhook's retry) waits
 * in the queue until then (BullMQ's delay); the sweep finds it again from its row if Redis loses it.
 */
export async function enqueueJob(queue: JobQueue, job: QueuedJob, now = Date.now()): Promise<void> {
  const delay = Math.max(0, job.payload.dueAt - now);
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
