import Router from '@koa/router';
import { withTimeout } from '../server-shared/time-limits.js';
import type { Db } from './db.js';
import type { DeliveryQueue } from './delivery-queue.js';
import { endpointsNeedingCare } from './webhooks/repository.js';

const CHECK_TIMEOUT_MS = 2000;

/** The query's own timeout does not cover waiting for a connection: the whole check is bounded. */
function databaseAnswers(db: Db): Promise<boolean> {
  return withTimeout(Promise.resolve(db.raw('select 1')), CHECK_TIMEOUT_MS, 'PostgreSQL check').then(
    () => true,
    () => false,
  );
}

/**
 * Webhook endpoints that need an operator: marked failing (their events wait for a replay) or stopped by a 410. Ids
 * and times only (the URLs are the operations API's to show); null when the database does not answer.
 */
function webhookEndpointsNeedingCare(db: Db): Promise<Awaited<ReturnType<typeof endpointsNeedingCare>> | null> {
  return withTimeout(endpointsNeedingCare(db), CHECK_TIMEOUT_MS, 'webhook endpoints').catch(() => null);
}

export function healthRoutes(deps: { db: Db; queue: DeliveryQueue }): Router {
  const router = new Router();
  // Liveness: the process is up and its event loop turns.
  router.get('/healthz', (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { status: 'ok' };
  });
  // Readiness: the services a request needs answer. Webhook endpoints that need care are reported too, but do not
  // make the API unready: the site and the bookings work, and their events wait.
  router.get('/readyz', async (ctx) => {
    const [database, redis, webhooks] = await Promise.all([
      databaseAnswers(deps.db),
      deps.queue.isReachable(),
      webhookEndpointsNeedingCare(deps.db),
    ]);
    const checks = {
      postgres: database ? 'up' : 'down',
      redis: redis ? 'up' : 'down',
      ...(webhooks ? { webhooks: webhooks.length === 0 ? 'ok' : 'failing' } : {}),
    };
    const webhookEndpoints = webhooks && webhooks.length > 0 ? { webhookEndpoints: webhooks } : {};
    ctx.set('Cache-Control', 'no-store');
    if (database && redis) {
      ctx.body = { status: 'ready', checks, ...webhookEndpoints };
      return;
    }
    const down = [database ? null : 'PostgreSQL', redis ? null : 'Redis'].filter(Boolean).join(' and ');
    ctx.status = 503;
    ctx.body = {
      error: 'Not ready',
      details: `${down} ${database || redis ? 'is' : 'are'} not answering.`,
      checks,
      ...webhookEndpoints,
    };
  });
  return router;
}
