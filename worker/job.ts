/**
 * The worker's one job, `deliver`: one try of one row of deliveries, by its id and due time (deliver.ts), whatever
 * its channel. Here the job's context (the registry and a sender per channel, channels/) and what the queue is told:
 * a row waiting for an earlier one of its booking is looked at again shortly, a row this database does not hold is
 * left to its owner. A job of another name, or of an earlier release, fails for good; the sweep (sweep.ts) enqueues
 * its row again.
 */
import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { DELIVERY_KINDS } from '../server-shared/delivery-kinds.js';
import { DELIVER_JOB, EARLIER_JOB_NAMES, type DeliverPayload, type QueuedJob } from '../server-shared/jobs.js';
import { calendarSender, type CalendarSenderDeps } from './channels/calendar.js';
import { emailSender, type EmailSenderDeps } from './channels/email.js';
import { smsSender, type SmsSenderDeps } from './channels/sms.js';
import type { Senders } from './channels/sender.js';
import { webhookSender } from './channels/webhook.js';
import { deliver, type DeliveryContext, type KindLine } from './deliver.js';
import type { WorkerMetrics } from './metrics.js';
import { DEFAULT_RETRY_SCHEDULE, type RetrySchedule } from './retry-window.js';

/** What the worker's deliveries need: the database, the transports and what the messages are written with. */
export interface DeliveryDeps extends EmailSenderDeps, CalendarSenderDeps, SmsSenderDeps {
  db: Knex;
  logger: Logger;
  metrics?: WorkerMetrics;
  /** Puts a job on the queue (a webhook's next try, the next event in its endpoint's line); unset: the sweep finds them. */
  enqueue?(job: QueuedJob): Promise<void>;
  /** WEBHOOK_ALLOW_PRIVATE, WEBHOOK_RETRY_*, WEBHOOK_TIMEOUT_MS; unset: public addresses, the default window. */
  webhooks?: { allowPrivate: boolean; retry: RetrySchedule; timeoutMs?: number };
}

/** A sender for each channel the registry names. */
export function channelSenders(deps: DeliveryDeps): Senders {
  return {
    email: emailSender(deps),
    calendar: calendarSender(deps),
    webhook: webhookSender({
      allowPrivate: deps.webhooks?.allowPrivate ?? false,
      ...(deps.webhooks?.timeoutMs !== undefined ? { timeoutMs: deps.webhooks.timeoutMs } : {}),
      ...(deps.metrics ? { metrics: deps.metrics } : {}),
      ...(deps.now ? { now: () => deps.now!().getTime() } : {}),
    }),
    sms: smsSender(deps),
  };
}

/** The context of the worker's deliveries: the registry's lines and a sender per channel, unless given others. */
export function deliveryContext(
  deps: DeliveryDeps,
  kinds: Readonly<Record<string, KindLine>> = DELIVERY_KINDS,
  senders: Senders = channelSenders(deps),
): DeliveryContext {
  return {
    db: deps.db,
    logger: deps.logger,
    kinds,
    senders,
    enqueue: deps.enqueue ?? (() => Promise.resolve()),
    retryWindow: deps.webhooks?.retry ?? DEFAULT_RETRY_SCHEDULE,
    ...(deps.metrics ? { metrics: deps.metrics } : {}),
    ...(deps.now ? { now: deps.now } : {}),
  };
}

export interface JobContext extends DeliveryContext {
  /** For a row this worker's database does not hold: hands the job back to the queue for its owner. */
  leaveToOwner(job: Job, rowId: string): string;
}

/** How long a job waits before it looks again whether the earlier row of its booking's line has gone. */
export const EARLIER_ROW_WAIT_MS = 1000;

/**
 * Puts the job back in the queue for a moment, not counting it as a try: an earlier row of its booking's line is still
 * being sent (at most for its claim's lease). Without the worker's lock on the job it ends, and the sweep enqueues the
 * row again later.
 */
async function waitForEarlierRow(job: Job, token: string | undefined): Promise<string> {
  if (token === undefined) return 'waiting';
  await job.moveToDelayed(Date.now() + EARLIER_ROW_WAIT_MS, token);
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
 * Runs a `deliver` job: one try of its row. A job of another name, or without its row's id and due time, fails for
 * good (no retries), with the reason; a job of an earlier release's name leaves its row to the sweep, which enqueues it
 * again as a `deliver`.
 */
export async function runJob(context: JobContext, job: Job, signal?: AbortSignal, token?: string): Promise<string> {
  if (EARLIER_JOB_NAMES.includes(job.name))
    throw new UnrecoverableError(`a "${job.name}" job of an earlier release; the sweep enqueues its row again`);
  if (job.name !== DELIVER_JOB) throw new UnrecoverableError(`unknown job name "${job.name}"`);
  const { deliveryId, dueAt } = payloadOf(job);
  const outcome = await deliver(context, deliveryId, dueAt, signal);
  if (outcome === 'waiting') return waitForEarlierRow(job, token);
  return outcome === 'missing' ? context.leaveToOwner(job, deliveryId) : outcome;
}
