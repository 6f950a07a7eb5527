import Router from '@koa/router';
import { withTimeout } from '../server-shared/time-limits.js';
import type { Db } from './db.js';
import type { EmailQueue } from './email-queue.js';

const CHECK_TIMEOUT_MS = 2000;

/** The query's own timeout does not cover waiting for a connection: the whole check is bounded. */
function databaseAnswers(db: Db): Promise<boolean> {
  return withTimeout(Promise.resolve(db.raw('select 1')), CHECK_TIMEOUT_MS, 'PostgreSQL check').then(
    () => true,
    () => false,
  );
}

export function healthRoutes(deps: { db: Db; queue: EmailQueue }): Router {
  const router = new Router();
  // Liveness: the process is up and its event loop turns.
  router.get('/healthz', (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { status: 'ok' };
  });
  // Readiness: the services a request needs answer.
  router.get('/readyz', async (ctx) => {
    const [database, redis] = await Promise.all([databaseAnswers(deps.db), deps.queue.isReachable()]);
    const checks = { postgres: database ? 'up' : 'down', redis: redis ? 'up' : 'down' };
    ctx.set('Cache-Control', 'no-store');
    if (database && redis) {
      ctx.body = { status: 'ready', checks };
      return;
    }
    const down = [database ? null : 'PostgreSQL', redis ? null : 'Redis'].filter(Boolean).join(' and ');
    ctx.status = 503;
    ctx.body = { error: 'Not ready', details: `${down} ${database || redis ? 'is' : 'are'} not answering.`, checks };
  });
  return router;
}
