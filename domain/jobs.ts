/** The queue contract between the API (producer) and the worker (consumer). */
export const CONFIRMATION_QUEUE = 'demo-confirmations';
export const SEND_CONFIRMATION_JOB = 'send-confirmation';
/** The sweep's old job scheduler in Redis, removed at start; the sweep is now a timer in each worker. */
export const LEGACY_SWEEP_JOB = 'sweep-pending-confirmations';

/** Only the row id travels through Redis: no personal data, no secrets. */
export interface SendConfirmationPayload {
  demoRequestId: string;
}

/** Retries with exponential backoff: 5 s, 10 s, 20 s, 40 s … */
export const confirmationJobOptions = {
  attempts: 6,
  backoff: { type: 'exponential', delay: 5000 },
  removeOnComplete: true,
  // A job that ran out of attempts is removed so that the sweep can enqueue the row again later.
  removeOnFail: true,
} as const;

/** A row still unsent this long after it was stored is enqueued again by the sweep. */
export const SWEEP_GRACE_MS = 60_000;
export const SWEEP_EVERY_MS = 30_000;
/** After this many failed sends the sweep leaves a row alone; its last error stays on the row for ops. */
export const MAX_CONFIRMATION_ATTEMPTS = 20;
