/**
 * A `deliver` job of a webhook delivery (an endpoint and an event): one try. It claims the row for the try the job
 * carries, waits its turn behind an earlier undelivered event of the same booking to the same endpoint, posts the
 * signed event (webhook-post.ts) and records what came of it. A failed try queues the next one at its time
 * (webhook-retry.ts), so BullMQ's own retries are not used; the sweep finds any try Redis lost.
 */
import type { Span } from '@opentelemetry/api';
import type { Logger } from 'pino';
import type { Knex } from 'knex';
import { deliveryJob, type DeliverPayload, type QueuedJob } from '../server-shared/jobs.js';
import { withoutAddresses } from '../domain/text.js';
import type { WorkerMetrics } from './metrics.js';
import { postWebhook, type PostResult } from './webhook-post.js';
import { inSpan } from './spans.js';
import { nextTry, parseRetryAfter, type RetrySchedule } from './webhook-retry.js';
import { behindEarlierEvent, nextInLine, recordAttempt, type AttemptOutcome } from './webhook-outbox.js';
import { claim, releaseClaim, type ClaimedDelivery } from './outbox.js';

export interface WebhookDeps {
  db: Knex;
  logger: Logger;
  enqueue(job: QueuedJob): Promise<void>;
  /** WEBHOOK_ALLOW_PRIVATE: http:// and private addresses allowed. */
  allowPrivate: boolean;
  retry: RetrySchedule;
  metrics?: WorkerMetrics;
  /** How long one try may take, the answer's body included; WEBHOOK_TIMEOUT_MS when unset. */
  timeoutMs?: number;
  now?: () => number;
}

export type WebhookOutcome = 'delivered' | 'retry' | 'exhausted' | 'gone' | 'waiting' | 'not-claimed';

/** What a try's answer means for its delivery. */
function outcomeOf(result: PostResult, delivery: ClaimedDelivery, deps: WebhookDeps, now: number): AttemptOutcome {
  // A 2xx status is delivered, even when the answer's body then did not finish in time (result.error says so, and is
  // kept with the status): under Standard Webhooks the status is the receiver's word that it has the event, and what
  // follows it is read for the delivery log only. Trying again would send an event the receiver said it has, and a
  // receiver that always trickles its body would be tried for a whole day and marked failing for events it took.
  if (result.status !== null && result.status >= 200 && result.status < 300) return { outcome: 'delivered' };
  if (result.status === 410) return { outcome: 'gone' };
  const failingSince = delivery.failing_since?.getTime() ?? now;
  const next = nextTry(delivery.attempts + 1, failingSince, now, deps.retry, parseRetryAfter(result.retryAfter, now));
  if ('exhausted' in next) return { outcome: 'exhausted', reason: describe(result) };
  return { outcome: 'retry', at: new Date(next.at) };
}

function describe(result: PostResult): string {
  return result.status !== null ? `answered ${result.status}` : (result.error ?? 'no answer');
}

/** One try of a webhook delivery: claims it for the try the job carries, then tries it (tryWebhook). */
export async function processWebhook(
  deps: WebhookDeps,
  payload: DeliverPayload,
  signal?: AbortSignal,
): Promise<WebhookOutcome> {
  const claimed = await claim(deps.db, payload.deliveryId, payload.dueAt);
  if (!claimed.claimed) return notClaimed(deps, payload.deliveryId);
  if (claimed.channel !== 'webhook') {
    await releaseClaim(deps.db, payload.deliveryId);
    throw new Error(`delivery ${payload.deliveryId} is not a webhook's`);
  }
  return tryWebhook(deps, claimed.delivery, signal);
}

/** A webhook delivery not claimed: delivered, rescheduled, held elsewhere, or its endpoint waits. */
export function notClaimed(deps: WebhookDeps, deliveryId: string): WebhookOutcome {
  deps.logger.debug(
    { deliveryId },
    'webhook delivery not claimed (delivered, rescheduled, held elsewhere, or its endpoint waits)',
  );
  return 'not-claimed';
}

/**
 * The try of a claimed webhook delivery, in a `deliver webhook` span (tracing on) that names the delivery, its
 * endpoint, event, type and booking by id, the receiver's status and what the try came to; the POST's own HTTP span
 * beneath it carries the target's origin, never its path (server-shared/tracing-sdk.ts).
 */
export function tryWebhook(
  deps: WebhookDeps,
  delivery: ClaimedDelivery,
  signal?: AbortSignal,
): Promise<WebhookOutcome> {
  return inSpan(
    'deliver webhook',
    { attributes: { 'converge.webhook.delivery.id': delivery.id } },
    (span) => tryDelivery(deps, delivery, span, signal),
    (outcome) => outcome,
  );
}

async function tryDelivery(
  deps: WebhookDeps,
  delivery: ClaimedDelivery,
  span: Span,
  signal?: AbortSignal,
): Promise<WebhookOutcome> {
  const now = deps.now ?? Date.now;
  const log = deps.logger.child({ deliveryId: delivery.id });
  const endpointLog = log.child({
    endpointId: delivery.endpoint_id,
    eventId: delivery.event_id,
    event: delivery.type,
    bookingId: delivery.booking_id,
  });
  span.setAttributes({
    'converge.webhook.endpoint.id': delivery.endpoint_id,
    'converge.webhook.event.id': delivery.event_id,
    'converge.webhook.event.type': delivery.type,
    'converge.booking.id': delivery.booking_id,
  });
  if (await behindEarlierEvent(deps.db, delivery)) {
    // The earlier one's success queues this one; the sweep stands behind that.
    await releaseClaim(deps.db, delivery.id);
    endpointLog.info('webhook waits for an earlier event of its booking to reach the endpoint');
    return 'waiting';
  }
  const result = await postWebhook(
    { url: delivery.url, secret: delivery.secret },
    // The event's own time signs it: receivers check it is recent, so a retry is signed with the time it is sent.
    { id: delivery.event_id, body: JSON.stringify(delivery.payload), timestamp: new Date(now()) },
    {
      allowPrivate: deps.allowPrivate,
      ...(deps.timeoutMs !== undefined ? { timeoutMs: deps.timeoutMs } : {}),
      ...(signal ? { signal } : {}),
    },
  );
  const attempt = {
    status: result.status,
    durationMs: result.durationMs,
    excerpt: result.excerpt && withoutAddresses(result.excerpt),
    error: result.error,
  };
  if (result.status !== null) span.setAttribute('http.response.status_code', result.status);
  const outcome = outcomeOf(result, delivery, deps, now());
  await recordAttempt(deps.db, delivery, attempt, outcome);
  deps.metrics?.webhookDelivered(delivery.endpoint_id, result.refused ? 'refused' : outcome.outcome);
  const fields = {
    status: result.status,
    durationMs: result.durationMs,
    attempts: delivery.attempts + 1,
    ...(result.error ? { error: result.error } : {}),
  };
  switch (outcome.outcome) {
    case 'delivered': {
      endpointLog.info(fields, 'webhook delivered');
      const next = await nextInLine(deps.db, delivery);
      if (next) await deps.enqueue(deliveryJob(next.id, next.due));
      return 'delivered';
    }
    case 'retry':
      endpointLog.warn({ ...fields, nextAttemptAt: outcome.at.toISOString() }, 'webhook not delivered; will retry');
      await deps.enqueue(deliveryJob(delivery.id, outcome.at.getTime()));
      return 'retry';
    case 'exhausted':
      // Never switched off silently: the endpoint is marked failing (the health endpoint and the admin API show it),
      // and its events wait until an operator replays them.
      endpointLog.error(
        { ...fields, reason: outcome.reason },
        'webhook endpoint failing: tried for the whole retry window; its events wait for a replay',
      );
      return 'exhausted';
    case 'gone':
      endpointLog.error(fields, 'webhook endpoint answered 410 Gone: nothing more is sent to it');
      return 'gone';
  }
}
