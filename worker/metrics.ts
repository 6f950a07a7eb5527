/**
 * The worker's metrics: what each outbox row came to, by kind; the time from a booking to its confirmation accepted
 * by the SMTP server (speed to lead); the texts' tries, their delivery receipts and the SMPP bind; and, read when
 * scraped, the outbox's backlog and the age of its oldest row due, by kind, and the queue's jobs by state.
 */
import type { Knex } from 'knex';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { DELIVERY_KIND_NAMES, DELIVERY_KINDS } from '../server-shared/delivery-kinds.js';
import { programRegistry } from '../server-shared/metrics.js';
import { RECEIPT_STATES } from './sms/smpp-link.js';

/** The receipts' states SMPP names; any other word an SMSC sends is counted as `other`, so labels stay few. */
const KNOWN_RECEIPT_STATES = new Set(Object.values(RECEIPT_STATES));

export type RowOutcome = 'sent' | 'failed' | 'refused' | 'dropped';

/** What a webhook try came to (channels/webhook.ts), `refused` for a target refused before connecting (its address). */
export type WebhookTryOutcome = 'delivered' | 'retry' | 'exhausted' | 'gone' | 'refused';

/**
 * What a text's try came to (channels/sms.ts): `throttled` (the SMSC asked to slow down) and `unbound` (no bind, or
 * its answer lost with a dropped bind) are tried again; `refused`, for good.
 */
export type TextOutcome = 'sent' | 'throttled' | 'unbound' | 'refused';

/** The SMPP bind's part: sms/smpp-link.ts tells it each bind and each drop, sms/inbound.ts each receipt recorded. */
export interface SmsMetrics {
  bindChanged(bound: boolean): void;
  receiptRecorded(state: string): void;
}

export interface WorkerMetrics extends SmsMetrics {
  registry: Registry;
  /** One try of a text of the outbox, by its kind. */
  textTried(kind: string, outcome: TextOutcome): void;
  /** One try of a webhook delivery, by endpoint id (a handful, set by operators: never the URL). */
  webhookDelivered(endpointId: string, outcome: WebhookTryOutcome): void;
  /** What one delivery of an outbox row came to; `storedAt`, for a sent confirmation, when its booking was stored. */
  delivered(kind: string, outcome: RowOutcome, storedAt?: Date): void;
}

export interface JobCounts {
  getJobCounts(...states: string[]): Promise<Record<string, number>>;
}

export function createWorkerMetrics(db: Knex, queue: JobCounts): WorkerMetrics {
  const registry = programRegistry('worker');
  const rows = new Counter({
    name: 'converge_outbox_deliveries_total',
    help: 'Deliveries of outbox rows by kind and outcome: sent, failed (to be tried again), refused (for good), dropped (no longer true).',
    labelNames: ['kind', 'outcome'] as const,
    registers: [registry],
  });
  const speedToLead = new Histogram({
    name: 'converge_speed_to_lead_seconds',
    help: 'Time from a booking being stored to its confirmation accepted by the SMTP server.',
    buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300, 900, 3600],
    registers: [registry],
  });
  new Gauge({
    name: 'converge_outbox_backlog',
    help: 'Outbox rows due and still to send (neither sent, refused nor dropped), by kind.',
    labelNames: ['kind'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of await openRows(db)) this.set({ kind: row.kind }, row.count);
    },
  });
  new Gauge({
    name: 'converge_outbox_oldest_seconds',
    help: 'Age of the oldest outbox row due and still to send, by kind (from when it fell due).',
    labelNames: ['kind'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of await openRows(db)) this.set({ kind: row.kind }, row.oldest);
    },
  });
  const webhookTries = new Counter({
    name: 'converge_webhook_deliveries_total',
    help: 'Tries of webhook deliveries by endpoint id and outcome: delivered, retry (failed, tried again), exhausted (failed for the whole retry window: the endpoint is failing), gone (410: the endpoint stopped), refused (its address is not allowed).',
    labelNames: ['endpoint', 'outcome'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'converge_webhook_endpoints_failing',
    help: 'Webhook endpoints marked failing (their events wait for a replay) or stopped by a 410, by state.',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      const { rows } = (await db.raw(
        `SELECT count(*) FILTER (WHERE failing_since IS NOT NULL AND stopped_at IS NULL)::int AS failing, count(*) FILTER (WHERE stopped_at IS NOT NULL)::int AS stopped
           FROM webhook_endpoints WHERE removed_at IS NULL`,
      )) as { rows: { failing: number; stopped: number }[] };
      this.set({ state: 'failing' }, rows[0]?.failing ?? 0);
      this.set({ state: 'stopped' }, rows[0]?.stopped ?? 0);
    },
  });
  const texts = new Counter({
    name: 'converge_sms_texts_total',
    help: 'Tries of texts by kind and outcome: sent (taken by the SMSC), throttled (the SMSC asked to slow down; tried again), unbound (no bind, or its answer lost with the bind; tried again), refused (for good).',
    labelNames: ['kind', 'outcome'] as const,
    registers: [registry],
  });
  const receipts = new Counter({
    name: 'converge_sms_receipts_total',
    help: "Delivery receipts recorded on their texts' rows, by state (delivered, undeliverable, expired, rejected, …; other: a word SMPP does not name).",
    labelNames: ['state'] as const,
    registers: [registry],
  });
  const bound = new Gauge({
    name: 'converge_sms_bound',
    help: "1 while this worker's SMPP bind is up, 0 while it is not (or the worker has no SMPP_URL).",
    registers: [registry],
  });
  const bindEvents = new Counter({
    name: 'converge_sms_bind_events_total',
    help: 'SMPP binds made (bound) and lost (dropped: the SMSC or the network closed a bound session).',
    labelNames: ['event'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'converge_queue_jobs',
    help: "The e-mail queue's jobs by state (waiting, active, delayed, failed).",
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed');
      for (const [state, count] of Object.entries(counts)) this.set({ state }, count);
    },
  });
  return {
    registry,
    webhookDelivered(endpointId, outcome) {
      webhookTries.inc({ endpoint: endpointId, outcome });
    },
    textTried(kind, outcome) {
      texts.inc({ kind, outcome });
    },
    receiptRecorded(state) {
      receipts.inc({ state: KNOWN_RECEIPT_STATES.has(state) ? state : 'other' });
    },
    bindChanged(isBound) {
      bound.set(isBound ? 1 : 0);
      bindEvents.inc({ event: isBound ? 'bound' : 'dropped' });
    },
    delivered(kind, outcome, storedAt) {
      rows.inc({ kind, outcome });
      if (kind === 'confirmation' && outcome === 'sent' && storedAt)
        speedToLead.observe((Date.now() - storedAt.getTime()) / 1000);
    },
  };
}

/**
 * The kinds a worker drains by itself, retried with backoff (the registry says which). A webhook's tries have their
 * own measure: a failing endpoint's wait for a replay, not for a worker.
 */
const DRAINED_KINDS = DELIVERY_KIND_NAMES.filter((kind) => DELIVERY_KINDS[kind].retry.policy === 'backoff');

/** Each drained kind's rows due and open, and the age of the oldest; one query a scrape, by the sweep's partial index. */
async function openRows(db: Knex): Promise<{ kind: string; count: number; oldest: number }[]> {
  const { rows } = (await db.raw(
    `SELECT kind, count(*)::int AS count, extract(epoch FROM now() - min(due_at))::float AS oldest FROM deliveries
      WHERE kind = ANY(?) AND sent_at IS NULL AND failed_at IS NULL AND dropped_at IS NULL AND due_at <= now() GROUP BY kind`,
    [DRAINED_KINDS],
  )) as { rows: { kind: string; count: number; oldest: number }[] };
  return rows;
}
