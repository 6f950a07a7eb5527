/**
 * The webhook channel: a row of the `webhook` kind is one endpoint's copy of one event (db/functions/webhooks.sql),
 * signed and posted (webhook-post.ts). A 2xx status is delivered, a 410 stops the endpoint, anything else is tried
 * again by the kind's retry window (retry-window.ts); every try is logged (webhook_attempts) with the row's new
 * state, and an endpoint tried for a whole window is marked failing, never silently left.
 */
import type { Attributes } from '@opentelemetry/api';
import { UnrecoverableError } from 'bullmq';
import { withoutAddresses } from '../../domain/text.js';
import type { WorkerMetrics } from '../metrics.js';
import type { Claimed } from '../delivery-row.js';
import { parseRetryAfter } from '../retry-window.js';
import { postWebhook, type WebhookMessage, type WebhookTarget } from './webhook-post.js';
import { SendFailure, type Sender } from './sender.js';

export interface WebhookSenderDeps {
  /** WEBHOOK_ALLOW_PRIVATE: http:// and private addresses allowed. */
  allowPrivate: boolean;
  /** How long one try may take, the answer's body included; WEBHOOK_TIMEOUT_MS when unset. */
  timeoutMs?: number;
  metrics?: WorkerMetrics;
  now?: () => number;
}

export interface WebhookPost {
  target: WebhookTarget;
  /** The ids its log lines name: its endpoint's and its event's, and the event's type. */
  ids: { endpointId: string; eventId: string; event: string };
  /** The event's id and body; signed with the time it is sent. */
  event: Omit<WebhookMessage, 'timestamp'>;
}

export function webhookSender(deps: WebhookSenderDeps): Sender<WebhookPost> {
  const now = deps.now ?? Date.now;
  return {
    receiver: 'the endpoint',
    span: 'webhook post',
    describe: ({ row, event }: Claimed): Attributes => ({
      'converge.webhook.endpoint.id': row.endpoint_id ?? undefined,
      'converge.webhook.event.id': row.event_id ?? undefined,
      'converge.webhook.event.type': event?.type,
    }),
    compose({ row, event }: Claimed): WebhookPost {
      if (!event || row.event_id === null || row.endpoint_id === null)
        throw new UnrecoverableError(`a ${row.kind} row without its endpoint and event`);
      return {
        target: { url: event.url, secret: event.secret },
        ids: { endpointId: row.endpoint_id, eventId: row.event_id, event: event.type },
        event: { id: row.event_id, body: JSON.stringify(event.payload) },
      };
    },
    async send({ target, ids, event }, signal) {
      // Receivers check that the signature's time is recent, so a retry is signed with the time it is sent.
      const result = await postWebhook(
        target,
        { ...event, timestamp: new Date(now()) },
        {
          allowPrivate: deps.allowPrivate,
          ...(deps.timeoutMs !== undefined ? { timeoutMs: deps.timeoutMs } : {}),
          signal,
        },
      );
      const excerpt = result.excerpt && withoutAddresses(result.excerpt);
      const fields = {
        ...ids,
        status: result.status,
        durationMs: result.durationMs,
        ...(result.refused ? { refused: true } : {}),
      };
      // A 2xx status is delivered, even when the answer's body then did not finish in time (kept as the row's note):
      // under Standard Webhooks the status is the receiver's word that it has the event, and what follows is read for
      // the delivery log only. Trying again would send an event the receiver said it has.
      if (result.status !== null && result.status >= 200 && result.status < 300)
        return { status: result.status, excerpt, fields, ...(result.error ? { note: result.error } : {}) };
      const error = result.error ?? `answered ${result.status}`;
      if (result.status === 410) throw new SendFailure(error, { ends: 'receiver', status: 410, excerpt, fields });
      throw new SendFailure(error, {
        ...(result.status !== null ? { status: result.status } : {}),
        retryAfterMs: parseRetryAfter(result.retryAfter, now()),
        excerpt,
        fields,
      });
    },
    async record(trx, { row }, tried) {
      await trx('webhook_attempts').insert({
        delivery_id: row.id,
        status: tried.status,
        duration_ms: tried.durationMs,
        response_excerpt: tried.excerpt,
        error: tried.error?.slice(0, 2000) ?? null,
      });
      const endpoint = trx('webhook_endpoints').where({ id: row.endpoint_id });
      if (tried.outcome === 'exhausted')
        await endpoint
          .whereNull('failing_since')
          .update({ failing_since: trx.fn.now(), failing_reason: (tried.error ?? '').slice(0, 500) });
      if (tried.outcome === 'gone') await endpoint.whereNull('stopped_at').update({ stopped_at: trx.fn.now() });
      // The target refused before any connection (its address) is counted apart from the receiver's answers.
      const counted = tried.fields.refused ? 'refused' : tried.outcome === 'sent' ? 'delivered' : tried.outcome;
      if (row.endpoint_id !== null) deps.metrics?.webhookDelivered(row.endpoint_id, counted);
    },
  };
}
