/**
 * One try of one row of the outbox, of any channel: the claim, the row's turn in its line, its sender's message and
 * send under the claim's lease, the marks, and what a failure leads to by its kind's retry policy; with its span, its
 * log lines and its counts. The channel is only its sender (channels/): nothing here asks which one it is. A plain
 * function of its context, so tests call it directly.
 */
import { SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api';
import { UnrecoverableError } from 'bullmq';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { withoutAddresses } from '../domain/text.js';
import { ORDER_GROUPS, type DeliveryKindData } from '../server-shared/delivery-kinds.js';
import { deliveryJob, type QueuedJob } from '../server-shared/jobs.js';
import { SendFailure, type Sender, type Senders, type Tried } from './channels/sender.js';
import type { WorkerMetrics, RowOutcome } from './metrics.js';
import {
  CLAIM_LEASE_MS,
  claim,
  markDropped,
  markSent,
  recordFailure,
  recordTry,
  releaseClaim,
  type ClaimRefusal,
} from './outbox.js';
import type { Claimed } from './delivery-row.js';
import { behindEarlier, nextInLine } from './delivery-order.js';
import { nextTry, type RetrySchedule } from './retry-window.js';
import { OUTCOME, inSpan } from './spans.js';

/** A registry line as the worker reads it: any channel it has a sender for. */
export type KindLine = Omit<DeliveryKindData, 'channel'> & { channel: string };

export interface DeliveryContext {
  db: Knex;
  logger: Logger;
  /** The registry's lines by kind (server-shared/delivery-kinds.ts). */
  kinds: Readonly<Record<string, KindLine>>;
  /** A sender for each channel (channels/). */
  senders: Senders;
  /** Puts a job on the queue: a retry window's next try, the next row of an endpoint's line. */
  enqueue(job: QueuedJob): Promise<void>;
  /** The 'window' retry policy's schedule (WEBHOOK_RETRY_*). */
  retryWindow: RetrySchedule;
  /** Counts what each row came to (METRICS_PORT); none when unset. */
  metrics?: WorkerMetrics;
  now?: () => Date;
}

/**
 * What a try came to, for its job. 'waiting': an earlier row of its booking's line is in flight (the job looks again
 * shortly); 'in-line': an earlier event is still to reach its endpoint (whose delivery enqueues this one); 'retry',
 * 'exhausted', 'gone': a failure under a retry window (the next try enqueued; given up; the receiver stopped).
 */
export type DeliveryOutcome =
  'sent' | 'dropped' | 'waiting' | 'in-line' | 'retry' | 'exhausted' | 'gone' | ClaimRefusal;

/** The row's attributes on its spans. */
const DELIVERY_ID = 'converge.delivery.id';
const BOOKING_ID = 'converge.booking.id';
const DELIVERY_KIND = 'converge.delivery.kind';

/**
 * The error the queue sees: its text without any e-mail address (mail servers quote the recipient), and
 * unrecoverable when the receiver refused for good (a 5xx reply, a refusal), so that it is not retried.
 */
function describeFailure(err: unknown): Error {
  const message = withoutAddresses(err instanceof Error ? err.message : String(err));
  return refusedForGood(err) ? new UnrecoverableError(message) : new Error(message);
}

function refusedForGood(err: unknown): boolean {
  if (err instanceof UnrecoverableError || (err instanceof SendFailure && err.ends === 'message')) return true;
  const code = (err as { responseCode?: number } | null)?.responseCode;
  return code !== undefined && code >= 500 && code < 600;
}

/** Marks `span` failed with the error's text as the row keeps it (no address), and whether it is for good. */
function spanFailed(span: Span, err: unknown): void {
  const failure = describeFailure(err);
  span.setAttribute(OUTCOME, failure instanceof UnrecoverableError ? 'refused' : 'failed');
  const code = (err as { responseCode?: number } | null)?.responseCode;
  if (code !== undefined) span.setAttribute('smtp.response_code', code);
  if (err instanceof SendFailure && err.status !== undefined)
    span.setAttribute('http.response.status_code', err.status);
  span.setStatus({ code: SpanStatusCode.ERROR, message: failure.message });
}

/** An error thrown for a claimed row carries its booking's id, for the queue's `job failed` line about it. */
function withBooking(err: Error, bookingId: string): Error {
  return Object.assign(err, { bookingId });
}

/** The booking a failed delivery was about, when the failure came from a claimed row. */
export function bookingIdOfFailure(err: Error): string | undefined {
  const bookingId: unknown = (err as { bookingId?: unknown }).bookingId;
  return typeof bookingId === 'string' ? bookingId : undefined;
}

/** Stops waiting for the receiver when the worker shuts down; the send then counts as failed and is retried. */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error(`send abandoned: ${String(signal.reason ?? 'worker shutting down')}`));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** A signal that aborts with the job's, or after `ms`; `done` lets go of both. */
function whileClaimHolds(signal: AbortSignal | undefined, ms: number): { signal: AbortSignal; done(): void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort('the claim on the row runs out'), Math.max(0, ms));
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted) onAbort();
  return {
    signal: controller.signal,
    done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    },
  };
}

/**
 * Claims the row for the try due at `dueAt` (its job's; unset: whichever is due), sends it, and marks it the moment
 * the receiver takes it. No database transaction or row lock is held while the receiver is talked to. A worker killed
 * between the receiver's answer and the mark leaves a claim that runs out, and the sweep sends again: at least once,
 * and that window is the only one where a second copy (with the same Message-ID, or event id) can go out.
 */
export async function deliver(
  context: DeliveryContext,
  deliveryId: string,
  dueAt?: number,
  signal?: AbortSignal,
): Promise<DeliveryOutcome> {
  const claimedAt = Date.now();
  const claimed = await claim(context.db, deliveryId, dueAt);
  const log = context.logger.child({ deliveryId });
  if (!claimed.claimed) {
    // A missing row is the caller's to report: it may belong to another deployment sharing this Redis.
    if (claimed.reason !== 'missing')
      log.info(
        { reason: claimed.reason, bookingId: claimed.bookingId, channel: claimed.channel },
        'delivery not claimed; nothing to do',
      );
    return claimed.reason;
  }
  const { row } = claimed;
  const sender = context.senders[context.kinds[row.kind]?.channel ?? row.channel];
  return inSpan(
    `deliver ${row.channel}`,
    {
      attributes: {
        [DELIVERY_ID]: row.id,
        [BOOKING_ID]: row.booking_id,
        [DELIVERY_KIND]: row.kind,
        ...sender?.describe?.(claimed),
      },
    },
    (span) =>
      deliverClaimed(
        context,
        claimed,
        sender,
        claimedAt,
        log.child({ kind: row.kind, bookingId: row.booking_id }),
        span,
        signal,
      ),
    (outcome) => outcome,
    spanFailed,
  );
}

async function deliverClaimed(
  context: DeliveryContext,
  claimed: Claimed,
  sender: Sender | undefined,
  claimedAt: number,
  log: Logger,
  span: Span,
  signal: AbortSignal | undefined,
): Promise<DeliveryOutcome> {
  const { db } = context;
  const { row } = claimed;
  const label = row.kind;
  const line = context.kinds[row.kind];
  const order = line?.order && ORDER_GROUPS[line.order];
  if (await behindEarlier(db, row, line?.order)) {
    await releaseClaim(db, row.id);
    if (order?.by === 'event') {
      // The earlier one's delivery enqueues this one; the sweep stands behind that.
      log.info(`${label} waits for an earlier event of its booking to reach ${sender?.receiver ?? 'its receiver'}`);
      return 'in-line';
    }
    // A message never overtakes one its recipient should read first: asked once the row is held, before anything goes.
    log.info(`${label} waits for an earlier delivery about its booking`);
    return 'waiting';
  }
  let message: unknown;
  try {
    if (!line) throw new UnrecoverableError(`no kind "${row.kind}" in this worker's registry`);
    if (!sender) throw new UnrecoverableError(`no sender for the channel "${line.channel}" in this worker`);
    message = sender.compose(claimed, context.now?.() ?? new Date());
  } catch (err) {
    // A row this worker cannot write (a kind or channel it does not know) stays, refused, for operations to see.
    const failure = describeFailure(err);
    await recordFailure(db, row.id, failure.message, failure instanceof UnrecoverableError);
    context.metrics?.delivered(row.kind, 'refused');
    log.error({ error: failure.message }, `${label} cannot be written`);
    throw withBooking(err instanceof Error ? err : failure, row.booking_id);
  }
  if (message === null) {
    await markDropped(db, row.id);
    context.metrics?.delivered(row.kind, 'dropped');
    log.info(`${label} no longer applies; dropped`);
    return 'dropped';
  }
  const tried = await tryOnce(
    sender!,
    message,
    line!,
    claimed,
    claimedAt,
    signal,
    context.now?.() ?? new Date(),
    context.retryWindow,
  );
  await recordWhileLeaseLasts(
    () =>
      sender!.record
        ? recordTry(db, row.id, tried, (trx) => sender!.record!(trx, claimed, tried))
        : tried.outcome === 'sent'
          ? markSent(db, row.id)
          : recordTry(db, row.id, tried),
    claimedAt,
    log,
    label,
    signal,
  ).catch((err: unknown) => {
    throw withBooking(err instanceof Error ? err : new Error(String(err)), row.booking_id);
  });
  // The receiver's status (a webhook's), on the delivery's span as on its row.
  if (tried.status !== null) span.setAttribute('http.response.status_code', tried.status);
  context.metrics?.delivered(row.kind, ROW_OUTCOME[tried.outcome], row.created_at);
  const fields = { ...tried.fields, attempts: row.attempts + 1, ...(tried.error ? { error: tried.error } : {}) };
  switch (tried.outcome) {
    case 'sent': {
      log.info(fields, `${label} sent`);
      // The next event of its line waits for this one: its turn has come.
      const next = order?.by === 'event' ? await nextInLine(db, row) : null;
      if (next) await context.enqueue(deliveryJob(next.id, next.due));
      return 'sent';
    }
    case 'retry':
      if (tried.at) {
        log.warn({ ...fields, nextAttemptAt: tried.at.toISOString() }, `${label} not sent; will retry`);
        await context.enqueue(deliveryJob(row.id, tried.at.getTime()));
        return 'retry';
      }
      // Thrown: the queue retries it with backoff.
      log.warn(fields, `${label} not sent; will retry`);
      throw withBooking(new Error(tried.error ?? 'not sent'), row.booking_id);
    case 'refused':
      log.warn(fields, `${label} refused for good by ${sender!.receiver}; no more tries`);
      throw withBooking(new UnrecoverableError(tried.error ?? 'refused'), row.booking_id);
    case 'exhausted':
      // Never given up silently: an error line, and the channel's own mark (a webhook's endpoint marked failing, which
      // the health endpoint and the admin API show); the row waits until an operator replays it.
      log.error(fields, `${label} tried for its whole retry window; given up, it waits for a replay`);
      return 'exhausted';
    case 'gone':
      log.error(fields, `${label} not sent: ${sender!.receiver} is gone; nothing more is sent to it`);
      return 'gone';
  }
}

/** How the outbox's count names what a try came to. */
const ROW_OUTCOME: Record<Tried['outcome'], RowOutcome> = {
  sent: 'sent',
  retry: 'failed',
  refused: 'refused',
  exhausted: 'refused',
  gone: 'refused',
};

/**
 * Sends the message in the transport's span, bounded by the claim's lease, and says what the try came to: by the
 * receiver's answer and the kind's retry policy ('backoff': the queue's retries; 'window': the next try's time).
 */
async function tryOnce(
  sender: Sender,
  message: unknown,
  line: KindLine,
  { row }: Claimed,
  claimedAt: number,
  signal: AbortSignal | undefined,
  now: Date,
  schedule: RetrySchedule,
): Promise<Tried> {
  // Messages of the jobs in hand wait their turn for the transport: a send still unfinished shortly before the claim
  // runs out is given up (never sent, if it was still waiting), so that no send outlives its claim.
  const sending = whileClaimHolds(signal, claimedAt + CLAIM_LEASE_MS - MARK_MARGIN_MS - Date.now());
  const started = performance.now();
  const durationMs = () => Math.round(performance.now() - started);
  try {
    const receipt = await inSpan(
      sender.span,
      { kind: SpanKind.CLIENT, attributes: { [DELIVERY_KIND]: row.kind } },
      () => unlessAborted(sender.send(message, sending.signal), sending.signal),
      () => 'sent',
      spanFailed,
    );
    return {
      outcome: 'sent',
      error: receipt.note ?? null,
      status: receipt.status ?? null,
      excerpt: receipt.excerpt ?? null,
      durationMs: durationMs(),
      fields: { ...(receipt.response ? { response: receipt.response } : {}), ...receipt.fields },
    };
  } catch (err) {
    const failure = describeFailure(err);
    const said = err instanceof SendFailure ? err : undefined;
    const tried = {
      error: failure.message,
      status: said?.status ?? null,
      excerpt: said?.excerpt ?? null,
      durationMs: durationMs(),
      fields: said?.fields ?? {},
    };
    if (failure instanceof UnrecoverableError) return { ...tried, outcome: 'refused' };
    if (said?.ends === 'receiver') return { ...tried, outcome: 'gone' };
    if (line.retry.policy === 'backoff') return { ...tried, outcome: 'retry' };
    const failingSince = row.failing_since?.getTime() ?? now.getTime();
    const next = nextTry(row.attempts + 1, failingSince, now.getTime(), schedule, said?.retryAfterMs);
    return 'exhausted' in next
      ? { ...tried, outcome: 'exhausted' }
      : { ...tried, outcome: 'retry', at: new Date(next.at) };
  } finally {
    sending.done();
  }
}

/** How long before the lease ends the worker stops trying to record a try (and leaves it to the sweep). */
const MARK_MARGIN_MS = 5000;

/**
 * The try has been made: recording it is what keeps the sweep from sending it again once the lease runs out. So a
 * database that does not answer (a restart, a failover) is tried again until shortly before the lease ends, or until
 * the worker is told to stop.
 */
async function recordWhileLeaseLasts(
  record: () => Promise<void>,
  claimedAt: number,
  log: Logger,
  label: string,
  signal: AbortSignal | undefined,
): Promise<void> {
  const deadline = claimedAt + CLAIM_LEASE_MS - MARK_MARGIN_MS;
  for (let wait = 250; ; wait = Math.min(wait * 2, 2000)) {
    try {
      await record();
      return;
    } catch (err) {
      // A worker shutting down does not wait out an outage: its grace period is shorter than the lease.
      if (signal?.aborted || Date.now() + wait >= deadline) {
        log.error({ err }, `${label} tried but not recorded; the sweep may send it again when the claim runs out`);
        throw err;
      }
      log.warn(
        { error: err instanceof Error ? err.message : String(err) },
        `${label} tried; recording it failed, trying again`,
      );
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}
