/** GET /api/hosts: for operators (the operations token), each host's calendar state and when it last read. */
import Router from '@koa/router';
import type { HostCalendars } from '../../server-shared/hosts/calendars.js';
import { requireAdminToken } from '../admin-auth.js';
import type { RateLimiter } from '../rate-limit.js';

export function hostRoutes(deps: {
  hostCalendars: HostCalendars | undefined;
  adminToken: string | undefined;
  adminLimiter: RateLimiter;
}): Router {
  const router = new Router();
  router.get('/api/hosts', requireAdminToken(deps.adminToken, deps.adminLimiter), (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { team: deps.hostCalendars !== undefined, hosts: deps.hostCalendars?.status() ?? [] };
  });
  return router;
}
