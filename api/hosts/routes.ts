/** GET /api/hosts: for operators (the operations token), each host's calendar state and when it last read. */
import Router from '@koa/router';
import type { HostCalendars } from './calendars.js';
import { requireAdminToken } from '../admin/auth.js';
import type { RateLimiter } from '../rate-limit.js';
import { adminOnly, adminRefusals, answer, type OpenApiPart } from '../openapi-parts.js';
import { hostListSchema } from './schemas.js';

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

export const hostsOpenApi: OpenApiPart = {
  paths: {
    '/api/hosts': {
      get: {
        operationId: 'listHosts',
        summary: "For operations: each host's calendar state and when it last read. Absent when no ADMIN_TOKEN is set.",
        ...adminOnly,
        responses: { '200': answer("In the team file's order.", 'HostList'), ...adminRefusals },
      },
    },
  },
  components: { schemas: { HostList: hostListSchema } },
};
