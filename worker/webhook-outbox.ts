/**
 * The worker's SQL for webhook deliveries (rows of deliveries on the channel `webhook`, one per endpoint and event):
 * claimed by the claim of every channel (outbox.ts), tried in the order of their booking's events, each try logged
 * (webhook_attempts) with the row's new state in one transaction. A delivery's `sent_at` is when it was delivered, its
 * `failed_at` when it was given up (tried for its whole window); `due_at` is its next try's time.
 */
import type { Knex } from 'knex';
import { DUE_MS, type ClaimedDelivery, type DueRow } from './outbox.js';

/** Whether an earlier event of the delivery's booking is still undelivered to the same endpoint. */
export async function behindEarlierEvent(
  db: Knex,
  delivery: Pick<ClaimedDelivery, 'endpoint_id' | 'booking_id' | 'position'>,
): Promise<boolean> {
  const row = await db('deliveries')
    .where({ channel: 'webhook', endpoint_id: delivery.endpoint_id, booking_id: delivery.booking_id })
    .where('position', '<', delivery.position)
    .whereNull('sent_at')
    .first('id');
  return row !== undefined;
}

export interface Attempt {
  status: number | null;
  durationMs: number;
  excerpt: string | null;
  error: string | null;
}

/** What a try leaves on its row. */
export type AttemptOutcome =
  | { outcome: 'delivered' }
  | { outcome: 'retry'; at: Date }
  /** Tried for the whole window: the row waits for a replay and its endpoint is failing. */
  | { outcome: 'exhausted'; reason: string }
  /** 410 Gone: the endpoint takes nothing more. */
  | { outcome: 'gone' };

/** Logs the try and records its outcome on the delivery (and, when it comes to that, on its endpoint), in one transaction. */
export async function recordAttempt(
  db: Knex,
  delivery: ClaimedDelivery,
  attempt: Attempt,
  result: AttemptOutcome,
): Promise<void> {
  await db.transaction(async (trx) => {
    await trx('webhook_attempts').insert({
      delivery_id: delivery.id,
      status: attempt.status,
      duration_ms: attempt.durationMs,
      response_excerpt: attempt.excerpt,
      error: attempt.error?.slice(0, 2000) ?? null,
    });
    const common = {
      claimed_until: null,
      attempts: trx.raw('attempts + 1'),
      last_status: attempt.status,
      last_error: attempt.error?.slice(0, 2000) ?? null,
    };
    const row = trx('deliveries').where({ id: delivery.id });
    switch (result.outcome) {
      case 'delivered':
        await row.update({ ...common, sent_at: trx.fn.now(), failing_since: null });
        return;
      case 'retry':
        await row.update({
          ...common,
          due_at: result.at,
          failing_since: trx.raw('coalesce(failing_since, now())'),
        });
        return;
      case 'exhausted':
        await row.update({
          ...common,
          failed_at: trx.fn.now(),
          failing_since: trx.raw('coalesce(failing_since, now())'),
        });
        await trx('webhook_endpoints')
          .where({ id: delivery.endpoint_id })
          .whereNull('failing_since')
          .update({ failing_since: trx.fn.now(), failing_reason: result.reason.slice(0, 500) });
        return;
      case 'gone':
        await row.update(common);
        await trx('webhook_endpoints')
          .where({ id: delivery.endpoint_id })
          .whereNull('stopped_at')
          .update({ stopped_at: trx.fn.now() });
        return;
    }
  });
}

/** The next undelivered event of the booking for the endpoint, after `position`: its turn has come. */
export async function nextInLine(
  db: Knex,
  delivery: Pick<ClaimedDelivery, 'endpoint_id' | 'booking_id' | 'position'>,
): Promise<DueRow | null> {
  const { rows } = (await db.raw(
    `SELECT d.id, ${DUE_MS('d')} AS due FROM deliveries d
      WHERE d.channel = 'webhook' AND d.endpoint_id = ? AND d.booking_id = ? AND d.position > ? AND d.sent_at IS NULL AND d.failed_at IS NULL
      ORDER BY d.position LIMIT 1`,
    [delivery.endpoint_id, delivery.booking_id, delivery.position],
  )) as { rows: { id: string; due: string }[] };
  const row = rows[0];
  return row ? { id: row.id, due: Number(row.due) } : null;
}
