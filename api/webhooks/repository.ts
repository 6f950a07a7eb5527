/**
 * The API's SQL for webhooks (a booking's event is raised by its change's own statement, with webhook_raise of
 * db/functions/webhooks.sql): the jobs of the deliveries it stored, the endpoints (WEBHOOK_URL's, written at start, and those operators add), the delivery
 * log, and replays, which put deliveries back to be tried now and return their jobs for the caller to queue.
 */
import { deliveryJob, type QueuedJob } from '../../server-shared/jobs.js';
import type { EnvironmentEndpoint } from '../../server-shared/webhooks.js';
import type { WebhookDeliveryView } from '../../domain/sales.js';
import type { Db } from '../db.js';

/** A delivery stored with its event: its id, and the epoch milliseconds its first try is due. */
export interface StoredDelivery {
  id: string;
  due: number | string;
}

export function webhookJobs(deliveries: readonly StoredDelivery[]): QueuedJob[] {
  return deliveries.map((delivery) => deliveryJob(delivery.id, Number(delivery.due)));
}

/**
 * Writes WEBHOOK_URL's endpoint (its URL and secret as set now), or marks it removed when the setting is gone. Every
 * API process does this at start; it changes nothing when the settings are what the row holds.
 */
export async function registerEnvironmentEndpoint(db: Db, endpoint: EnvironmentEndpoint | undefined): Promise<void> {
  if (!endpoint) {
    await db('webhook_endpoints')
      .where({ from_environment: true })
      .whereNull('removed_at')
      .update({ removed_at: db.fn.now() });
    return;
  }
  await db.raw(
    `INSERT INTO webhook_endpoints (url, secret, description, from_environment) VALUES (?, ?, 'WEBHOOK_URL', true)
       ON CONFLICT (from_environment) WHERE from_environment DO UPDATE SET url = excluded.url, secret = excluded.secret, removed_at = NULL,
         stopped_at = CASE WHEN webhook_endpoints.url = excluded.url THEN webhook_endpoints.stopped_at END`,
    [endpoint.url, endpoint.secret],
  );
}

export type EndpointState = 'active' | 'failing' | 'stopped';

export interface EndpointView {
  id: string;
  url: string;
  description: string | null;
  /** `environment`: WEBHOOK_URL's; `admin`: added through this API. */
  source: 'environment' | 'admin';
  state: EndpointState;
  createdAt: string;
  failingSince: string | null;
  failingReason: string | null;
  stoppedAt: string | null;
  /** Deliveries still to go (including those waiting for a replay), delivered, and given up on (waiting for a replay). */
  pending: number;
  delivered: number;
  exhausted: number;
}

interface EndpointRow {
  id: string;
  url: string;
  description: string | null;
  from_environment: boolean;
  created_at: Date;
  failing_since: Date | null;
  failing_reason: string | null;
  stopped_at: Date | null;
  pending: number;
  delivered: number;
  exhausted: number;
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

function endpointView(row: EndpointRow): EndpointView {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    source: row.from_environment ? 'environment' : 'admin',
    state: row.stopped_at ? 'stopped' : row.failing_since ? 'failing' : 'active',
    createdAt: row.created_at.toISOString(),
    failingSince: iso(row.failing_since),
    failingReason: row.failing_reason,
    stoppedAt: iso(row.stopped_at),
    pending: row.pending,
    delivered: row.delivered,
    exhausted: row.exhausted,
  };
}

const ENDPOINT_SQL = `SELECT e.id, e.url, e.description, e.from_environment, e.created_at, e.failing_since, e.failing_reason, e.stopped_at,
    count(d.id) FILTER (WHERE d.sent_at IS NULL)::int AS pending,
    count(d.id) FILTER (WHERE d.sent_at IS NOT NULL)::int AS delivered,
    count(d.id) FILTER (WHERE d.failed_at IS NOT NULL AND d.sent_at IS NULL)::int AS exhausted
  FROM webhook_endpoints e LEFT JOIN deliveries d ON d.endpoint_id = e.id AND d.channel = 'webhook'
  WHERE e.removed_at IS NULL`;

/** The endpoints in use, oldest first, with their state and their deliveries' counts. Secrets are never listed. */
export async function listEndpoints(db: Db, id?: string): Promise<EndpointView[]> {
  const { rows } = (await db.raw(
    `${ENDPOINT_SQL} ${id ? 'AND e.id = ?' : ''} GROUP BY e.id ORDER BY e.created_at, e.id`,
    id ? [id] : [],
  )) as {
    rows: EndpointRow[];
  };
  return rows.map(endpointView);
}

export async function addEndpoint(
  db: Db,
  endpoint: { url: string; secret: string; description?: string },
): Promise<EndpointView> {
  const [row] = (await db('webhook_endpoints')
    .insert({ url: endpoint.url, secret: endpoint.secret, description: endpoint.description ?? null })
    .returning('id')) as { id: string }[];
  const [view] = await listEndpoints(db, row!.id);
  return view!;
}

/** Removes an endpoint added through the API: it takes no new events and its pending ones are not tried. Its log stays. */
export async function removeEndpoint(db: Db, id: string): Promise<'removed' | 'missing' | 'environment'> {
  const row: { from_environment: boolean } | undefined = await db('webhook_endpoints')
    .where({ id })
    .whereNull('removed_at')
    .first('from_environment');
  if (!row) return 'missing';
  if (row.from_environment) return 'environment';
  await db('webhook_endpoints').where({ id }).update({ removed_at: db.fn.now() });
  return 'removed';
}

/** Endpoints marked failing or stopped, for the health endpoint: ids and times only, never URLs. */
export async function endpointsNeedingCare(
  db: Db,
): Promise<{ id: string; state: 'failing' | 'stopped'; since: string }[]> {
  const rows: { id: string; failing_since: Date | null; stopped_at: Date | null }[] = await db('webhook_endpoints')
    .whereNull('removed_at')
    .where((where) => where.whereNotNull('failing_since').orWhereNotNull('stopped_at'))
    .orderBy('created_at')
    .select('id', 'failing_since', 'stopped_at');
  return rows.map((row) =>
    row.stopped_at
      ? { id: row.id, state: 'stopped' as const, since: row.stopped_at.toISOString() }
      : { id: row.id, state: 'failing' as const, since: row.failing_since!.toISOString() },
  );
}

export const DELIVERY_LOG_ATTEMPTS = 20;

/** The delivery log, newest first: per endpoint, event and/or booking, each with its latest tries (status, time, first bytes). */
export async function listDeliveries(
  db: Db,
  filter: { endpointId?: string; eventId?: string; bookingId?: string; limit: number },
): Promise<WebhookDeliveryView[]> {
  const query = db('deliveries as d')
    .join('webhook_events as ev', 'ev.id', 'd.event_id')
    .where('d.channel', 'webhook')
    .select(
      ...['id', 'event_id', 'booking_id', 'endpoint_id', 'created_at', 'attempts', 'last_status', 'last_error'].map(
        (column) => `d.${column}`,
      ),
      // A delivery's try due, delivered and given up, under the names the delivery log answers with.
      'd.due_at as next_attempt_at',
      'd.sent_at as delivered_at',
      'd.failed_at as exhausted_at',
      'ev.type',
    )
    .orderBy([
      { column: 'd.created_at', order: 'desc' },
      { column: 'd.position', order: 'desc' },
    ])
    .limit(filter.limit);
  if (filter.endpointId) query.where('d.endpoint_id', filter.endpointId);
  if (filter.eventId) query.where('d.event_id', filter.eventId);
  if (filter.bookingId) query.where('d.booking_id', filter.bookingId);
  const rows = (await query) as {
    id: string;
    event_id: string;
    type: string;
    booking_id: string;
    endpoint_id: string;
    created_at: Date;
    attempts: number;
    next_attempt_at: Date;
    delivered_at: Date | null;
    exhausted_at: Date | null;
    last_status: number | null;
    last_error: string | null;
  }[];
  const attempts =
    rows.length === 0
      ? []
      : (
          (await db.raw(
            `SELECT a.* FROM unnest(?::uuid[]) AS ids(id) CROSS JOIN LATERAL (
         SELECT delivery_id, attempted_at, status, duration_ms, response_excerpt, error FROM webhook_attempts
           WHERE delivery_id = ids.id ORDER BY attempted_at DESC, id DESC LIMIT ?) a`,
            [`{${rows.map((row) => row.id).join(',')}}`, DELIVERY_LOG_ATTEMPTS],
          )) as {
            rows: {
              delivery_id: string;
              attempted_at: Date;
              status: number | null;
              duration_ms: number;
              response_excerpt: string | null;
              error: string | null;
            }[];
          }
        ).rows;
  return rows.map((row) => ({
    id: row.id,
    eventId: row.event_id,
    eventType: row.type,
    bookingId: row.booking_id,
    endpointId: row.endpoint_id,
    createdAt: row.created_at.toISOString(),
    attempts: row.attempts,
    nextAttemptAt: row.delivered_at || row.exhausted_at ? null : row.next_attempt_at.toISOString(),
    deliveredAt: iso(row.delivered_at),
    exhaustedAt: iso(row.exhausted_at),
    lastStatus: row.last_status,
    lastError: row.last_error,
    log: attempts
      .filter((attempt) => attempt.delivery_id === row.id)
      .map((attempt) => ({
        attemptedAt: attempt.attempted_at.toISOString(),
        status: attempt.status,
        durationMs: attempt.duration_ms,
        responseExcerpt: attempt.response_excerpt,
        error: attempt.error,
      })),
  }));
}

/** The events a replay covers: one by its id, or every one raised since an instant. */
export type ReplayScope = { eventId: string } | { since: Date };

/**
 * Puts the events' deliveries back to be tried now, to every endpoint in use but those a 410 stopped (or only to
 * `endpointId`): those delivered go again (with the same event id, so receivers can tell a repeat), those given up
 * on start a new retry window, and an endpoint with no delivery of an event yet (added since) gets one. Each
 * endpoint replayed to is no longer failing. Returns the jobs to queue.
 */
export async function replay(db: Db, scope: ReplayScope, endpointId?: string): Promise<QueuedJob[]> {
  return db.transaction(async (trx) => {
    const events =
      'eventId' in scope ? trx.raw('ev.id = ?', [scope.eventId]) : trx.raw('ev.created_at >= ?', [scope.since]);
    const endpoints = endpointId ? trx.raw('e.id = ?', [endpointId]) : trx.raw('true');
    const { rows } = (await trx.raw(
      `WITH targets AS (
         SELECT ev.id AS event_id, ev.booking_id, ev.position, e.id AS endpoint_id FROM webhook_events ev
           CROSS JOIN webhook_endpoints e
           WHERE ? AND ? AND e.removed_at IS NULL AND e.stopped_at IS NULL),
       healed AS (
         UPDATE webhook_endpoints SET failing_since = NULL, failing_reason = NULL
           WHERE id IN (SELECT endpoint_id FROM targets) AND failing_since IS NOT NULL RETURNING id)
       INSERT INTO deliveries (channel, kind, event_id, endpoint_id, booking_id, position)
         SELECT 'webhook', 'webhook', event_id, endpoint_id, booking_id, position FROM targets
         ON CONFLICT (event_id, endpoint_id) DO UPDATE SET sent_at = NULL, failed_at = NULL, failing_since = NULL,
           due_at = date_trunc('milliseconds', now())
         RETURNING id, (extract(epoch FROM due_at) * 1000)::bigint AS due`,
      [events, endpoints],
    )) as { rows: StoredDelivery[] };
    return webhookJobs(rows);
  });
}

export async function eventExists(db: Db, id: string): Promise<boolean> {
  return (await db('webhook_events').where({ id }).first('id')) !== undefined;
}
