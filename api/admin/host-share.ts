/**
 * Each host's share of the demos, across routes (GET /api/admin/hosts/share), for the sales page: the bookings made in
 * the last 28 days and not cancelled, by host and by the route that chose them (bookings.routing), so sales sees
 * whether the fair choice spreads the demos as the weights say.
 */
import Router from '@koa/router';
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import type { HostShare, HostShareReport } from '../../domain/routing.js';
import { readUnlessDatabaseDown, type Db } from '../db.js';
import { adminOrSession, answer, sessionRefusals, unreadable, type OpenApiPart } from '../openapi-parts.js';

/** The window the share counts, as the routing's fairness counts its demos. */
export const SHARE_DAYS = 28;
export const HOST_SHARE_PATH = '/api/admin/hosts/share';

export interface HostShareDeps {
  db: Db;
  logger: Logger;
  now: () => Date;
  /** The team's hosts, in the file's order: each listed, with none of the demos too. */
  team: readonly { email: string; name: string }[];
  requireAdmin: (ctx: Context, next: Next) => Promise<void>;
}

interface ShareRow {
  host_email: string;
  host_name: string;
  rule: number | null;
  label: string | null;
  demos: string;
}

/** The demos of the window by host and route, each host of the team listed (a host gone from the team too). */
export async function readHostShare(db: Db, team: HostShareDeps['team'], now: Date): Promise<HostShareReport> {
  const since = new Date(now.getTime() - SHARE_DAYS * 86_400_000);
  const rows = (await db('bookings')
    .where('created_at', '>=', since)
    .andWhere('status', 'booked')
    .whereNotNull('host_email')
    .groupByRaw("host_email, routing -> 'rule', routing ->> 'label'")
    .select(
      'host_email',
      db.raw('max(host_name) AS host_name'),
      db.raw("(routing -> 'rule')::int AS rule"),
      db.raw("routing ->> 'label' AS label"),
      db.raw('count(*) AS demos'),
    )) as ShareRow[];
  const hosts = new Map<string, HostShare>(
    team.map((host) => [
      host.email.toLowerCase(),
      { email: host.email.toLowerCase(), name: host.name, demos: 0, share: 0, routes: [] },
    ]),
  );
  for (const row of rows) {
    const host = hosts.get(row.host_email) ?? {
      email: row.host_email,
      name: row.host_name,
      demos: 0,
      share: 0,
      routes: [],
    };
    hosts.set(row.host_email, host);
    const demos = Number(row.demos);
    host.demos += demos;
    host.routes.push({ rule: row.rule, label: row.label ?? 'no routing record', demos });
  }
  const total = [...hosts.values()].reduce((sum, host) => sum + host.demos, 0);
  for (const host of hosts.values()) {
    host.share = total === 0 ? 0 : Math.round((host.demos / total) * 1000) / 1000;
    host.routes.sort((a, b) => (a.rule ?? Infinity) - (b.rule ?? Infinity));
  }
  return { since: since.toISOString(), days: SHARE_DAYS, total, hosts: [...hosts.values()] };
}

export function hostShareRoutes(deps: HostShareDeps): Router {
  const router = new Router();
  router.get(HOST_SHARE_PATH, deps.requireAdmin, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await readUnlessDatabaseDown(
      () => readHostShare(deps.db, deps.team, deps.now()),
      deps.logger,
      'host share',
    );
  });
  return router;
}

const hostShareSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['since', 'days', 'total', 'hosts'],
  properties: {
    since: { type: 'string', format: 'date-time', description: 'The window counts bookings made from this instant.' },
    days: { type: 'integer' },
    total: { type: 'integer', description: 'Demos of the window, not cancelled, with a host.' },
    hosts: {
      type: 'array',
      description: 'Each host of the team in its order (then any host no longer on it), with none of the demos too.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['email', 'name', 'demos', 'share', 'routes'],
        properties: {
          email: { type: 'string' },
          name: { type: 'string' },
          demos: { type: 'integer' },
          share: { type: 'number', description: 'Their demos over the total, from 0 to 1 (three decimals).' },
          routes: {
            type: 'array',
            description: 'Their demos by the route that chose them.',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['rule', 'label', 'demos'],
              properties: {
                rule: {
                  type: ['integer', 'null'],
                  description: "The route's index in the team file; null: no routes.",
                },
                label: { type: 'string' },
                demos: { type: 'integer' },
              },
            },
          },
        },
      },
    },
  },
};

export const hostShareOpenApi: OpenApiPart = {
  paths: {
    [HOST_SHARE_PATH]: {
      get: {
        operationId: 'hostShare',
        summary: `For the sales page: each host's share of the demos booked in the last ${SHARE_DAYS} days and not cancelled, across routes and by route.`,
        ...adminOrSession,
        responses: {
          '200': answer('Each host and their demos.', 'HostShare'),
          ...sessionRefusals,
          '503': unreadable,
        },
      },
    },
  },
  components: { schemas: { HostShare: hostShareSchema } },
};
