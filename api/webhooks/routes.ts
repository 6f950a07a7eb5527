/**
 * The operators' webhook API, behind the operations token (`Authorization: Bearer $ADMIN_TOKEN`): the endpoints
 * (list, add, remove), the delivery log per endpoint or event, and replays of one event or of everything since an
 * instant. docs/webhooks.md tells operators how to use it.
 */
import Router from '@koa/router';
import type { Logger } from 'pino';
import { ConfigError } from '../../server-shared/settings.js';
import { TargetRefused, checkTargetUrl, resolveTarget } from '../../server-shared/webhook-targets.js';
import { newWebhookSecret, parseWebhookSecret } from '../../server-shared/webhooks.js';
import { requireAdminToken } from '../admin/auth.js';
import { readUnlessDatabaseDown, unlessDatabaseDown, type Db } from '../db.js';
import { enqueueStored, type DeliveryQueue } from '../delivery-queue.js';
import { ApiError } from '../errors.js';
import type { RateLimiter } from '../rate-limit.js';
import { validateBody } from '../validation.js';
import {
  adminOnly,
  adminRefusals,
  answer,
  bodyRefusals,
  json,
  refused,
  unchanged,
  unreadable,
  unreadBodyRefusals,
  uuidParameter,
  type OpenApiPart,
} from '../openapi-parts.js';
import {
  addEndpoint,
  eventExists,
  listDeliveries,
  listEndpoints,
  removeEndpoint,
  replay,
  type ReplayScope,
} from './repository.js';
import {
  UUID_PATTERN,
  deliveryListSchema,
  endpointCreatedSchema,
  endpointListSchema,
  newEndpointSchema,
  replayedSchema,
  replaySchema,
  webhookEventOperations,
  webhookEventSchemas,
  type NewEndpoint,
  type ReplayRequest,
} from './schemas.js';

const UUID = new RegExp(UUID_PATTERN);

export const DELIVERY_LIST_LIMIT = 100;

const messageFor = (field: string) => (field === 'url' ? 'url must be a URL.' : `${field} is not valid.`);

export interface WebhookRouteDeps {
  db: Db;
  queue: DeliveryQueue;
  logger: Logger;
  adminToken: string | undefined;
  adminLimiter: RateLimiter;
  /** WEBHOOK_ALLOW_PRIVATE. */
  allowPrivate: boolean;
}

const noEndpoint = () => new ApiError(404, 'Not found', 'There is no webhook endpoint with this id.');
const noEvent = () => new ApiError(404, 'Not found', 'There is no webhook event with this id.');

export function webhookRoutes(deps: WebhookRouteDeps): Router {
  const router = new Router({ prefix: '/api/admin/webhooks' });
  router.use(requireAdminToken(deps.adminToken, deps.adminLimiter));
  router.use(async (ctx, next) => {
    ctx.set('Cache-Control', 'no-store');
    await next();
  });
  const read = <T>(what: string, work: () => Promise<T>) => readUnlessDatabaseDown(work, deps.logger, what);
  const write = <T>(what: string, work: () => Promise<T>) =>
    unlessDatabaseDown(
      work,
      deps.logger,
      what,
      'We could not reach our records right now. Nothing was changed; please try again in a few minutes.',
    );

  router.get('/endpoints', async (ctx) => {
    ctx.body = { endpoints: await read('webhook endpoints', () => listEndpoints(deps.db)) };
  });

  router.post(
    '/endpoints',
    validateBody<NewEndpoint>({
      schema: newEndpointSchema,
      messages: (_error, field) => messageFor(field),
      summary: 'Invalid webhook endpoint',
    }),
    async (ctx) => {
      const { url, secret, description } = ctx.state.body;
      let signingSecret: string;
      try {
        signingSecret = secret === undefined ? newWebhookSecret() : parseWebhookSecret('secret', secret);
        // The same checks each try makes: the scheme, and the address the name resolves to now.
        await resolveTarget(checkTargetUrl(url, deps.allowPrivate), deps.allowPrivate);
      } catch (err) {
        if (err instanceof TargetRefused)
          throw new ApiError(400, 'Invalid webhook endpoint', `url: ${err.message}.`, { url: err.message });
        if (err instanceof ConfigError)
          throw new ApiError(400, 'Invalid webhook endpoint', err.message, { secret: err.message });
        throw err;
      }
      const endpoint = await write('webhook endpoint not added', () =>
        addEndpoint(deps.db, { url, secret: signingSecret, ...(description ? { description } : {}) }),
      );
      deps.logger.info({ endpointId: endpoint.id }, 'webhook endpoint added');
      ctx.status = 201;
      // The secret is answered this once: keep it where the receiver verifies signatures.
      ctx.body = { ...endpoint, secret: signingSecret };
    },
  );

  router.delete('/endpoints/:id', async (ctx) => {
    if (!UUID.test(ctx.params.id ?? '')) throw noEndpoint();
    const outcome = await write('webhook endpoint not removed', () => removeEndpoint(deps.db, ctx.params.id!));
    if (outcome === 'missing') throw noEndpoint();
    if (outcome === 'environment')
      throw new ApiError(
        409,
        'Set by WEBHOOK_URL',
        'This endpoint comes from WEBHOOK_URL: unset WEBHOOK_URL and WEBHOOK_SECRET and restart the API to remove it.',
      );
    deps.logger.info({ endpointId: ctx.params.id }, 'webhook endpoint removed');
    ctx.status = 204;
  });

  router.get('/deliveries', async (ctx) => {
    const endpointId = typeof ctx.query.endpoint === 'string' ? ctx.query.endpoint : undefined;
    const eventId = typeof ctx.query.event === 'string' ? ctx.query.event : undefined;
    const limit = typeof ctx.query.limit === 'string' ? Number(ctx.query.limit) : DELIVERY_LIST_LIMIT;
    if ((endpointId !== undefined && !UUID.test(endpointId)) || (eventId !== undefined && !UUID.test(eventId))) {
      throw new ApiError(400, 'Invalid filter', 'endpoint and event must be ids (UUIDs).');
    }
    if (!Number.isInteger(limit) || limit < 1 || limit > DELIVERY_LIST_LIMIT)
      throw new ApiError(400, 'Invalid filter', `limit must be a whole number from 1 to ${DELIVERY_LIST_LIMIT}.`);
    ctx.body = {
      deliveries: await read('webhook deliveries', () =>
        listDeliveries(deps.db, { limit, ...(endpointId ? { endpointId } : {}), ...(eventId ? { eventId } : {}) }),
      ),
    };
  });

  const replayAndQueue = async (scope: ReplayScope, endpointId: string | undefined) => {
    if (
      endpointId !== undefined &&
      (await read('webhook endpoints', () => listEndpoints(deps.db, endpointId))).length === 0
    )
      throw noEndpoint();
    const jobs = await write('webhook replay not stored', () => replay(deps.db, scope, endpointId));
    await enqueueStored(deps.queue, jobs, deps.logger);
    deps.logger.info(
      {
        ...('eventId' in scope ? { eventId: scope.eventId } : { since: scope.since.toISOString() }),
        endpointId,
        deliveries: jobs.length,
      },
      'webhook replay',
    );
    return { replayed: jobs.length };
  };

  router.post(
    '/events/:id/replay',
    validateBody<ReplayRequest>({
      schema: replaySchema,
      messages: (_error, field) => messageFor(field),
      summary: 'Invalid replay',
    }),
    async (ctx) => {
      const id = ctx.params.id ?? '';
      if (!UUID.test(id) || !(await read('webhook events', () => eventExists(deps.db, id)))) throw noEvent();
      ctx.status = 202;
      ctx.body = await replayAndQueue({ eventId: id }, ctx.state.body.endpointId);
    },
  );

  router.post(
    '/replay',
    validateBody<ReplayRequest>({
      schema: replaySchema,
      messages: (_error, field) => messageFor(field),
      summary: 'Invalid replay',
    }),
    async (ctx) => {
      const since = ctx.state.body.since === undefined ? Number.NaN : Date.parse(ctx.state.body.since);
      if (Number.isNaN(since))
        throw new ApiError(400, 'Invalid replay', 'since must be an ISO 8601 instant, such as 2026-12-01T09:00:00Z.', {
          since: 'since must be an ISO 8601 instant.',
        });
      ctx.status = 202;
      ctx.body = await replayAndQueue({ since: new Date(since) }, ctx.state.body.endpointId);
    },
  );
  return router;
}

export const webhooksOpenApi: OpenApiPart = {
  paths: {
    '/api/admin/webhooks/endpoints': {
      get: {
        operationId: 'listWebhookEndpoints',
        summary:
          "For operations: the webhook endpoints, their state (active, failing, stopped) and their deliveries' counts. Secrets are never listed.",
        ...adminOnly,
        responses: { '200': answer('Oldest first.', 'WebhookEndpointList'), ...adminRefusals, '503': unreadable },
      },
      post: {
        operationId: 'addWebhookEndpoint',
        summary:
          'For operations: add an endpoint; it gets every event raised from then on (a replay sends it earlier ones).',
        ...adminOnly,
        requestBody: { required: true, content: json('NewWebhookEndpoint') },
        responses: {
          '201': answer('Added; the answer holds its signing secret, this once.', 'WebhookEndpointCreated'),
          '400': refused(
            'Not an https:// URL, an address (written, or resolved from its name) that is not globally reachable, such as a private or loopback one or one carried inside IPv6 (without WEBHOOK_ALLOW_PRIVATE=true), or not a whsec_ secret; or a key it does not take.',
          ),
          ...unreadBodyRefusals,
          ...adminRefusals,
          '503': unchanged,
        },
      },
    },
    '/api/admin/webhooks/endpoints/{id}': {
      delete: {
        operationId: 'removeWebhookEndpoint',
        summary: 'For operations: remove an endpoint added through this API; its log stays.',
        ...adminOnly,
        parameters: [uuidParameter('id', "The endpoint's id.")],
        responses: {
          '204': { description: 'Removed: it takes no new events, and its pending ones are not tried.' },
          '404': refused('No such endpoint.'),
          '409': refused('The endpoint of WEBHOOK_URL: unset the setting instead.'),
          ...adminRefusals,
          '503': unchanged,
        },
      },
    },
    '/api/admin/webhooks/deliveries': {
      get: {
        operationId: 'listWebhookDeliveries',
        summary:
          'For operations: the delivery log, newest first, each delivery with its latest tries (status, response time, first bytes of the answer).',
        ...adminOnly,
        parameters: [
          {
            name: 'endpoint',
            in: 'query',
            required: false,
            description: "Only this endpoint's.",
            schema: { type: 'string', format: 'uuid' },
          },
          {
            name: 'event',
            in: 'query',
            required: false,
            description: "Only this event's.",
            schema: { type: 'string', format: 'uuid' },
          },
          {
            name: 'limit',
            in: 'query',
            required: false,
            schema: { type: 'integer', minimum: 1, maximum: DELIVERY_LIST_LIMIT, default: DELIVERY_LIST_LIMIT },
          },
        ],
        responses: {
          '200': answer('Newest first.', 'WebhookDeliveryList'),
          '400': refused('A filter that is not an id, or a limit out of range.'),
          ...adminRefusals,
          '503': unreadable,
        },
      },
    },
    '/api/admin/webhooks/events/{id}/replay': {
      post: {
        operationId: 'replayWebhookEvent',
        summary:
          'For operations: send one event again (the same event id) to every endpoint in use, or to one; a failing endpoint replayed to is active again.',
        ...adminOnly,
        parameters: [uuidParameter('id', 'The event id (webhook-id).')],
        requestBody: { required: true, content: json('WebhookReplay') },
        responses: {
          '202': answer('Queued.', 'WebhookReplayed'),
          ...bodyRefusals,
          '404': refused('No such event or endpoint.'),
          ...adminRefusals,
          '503': unchanged,
        },
      },
    },
    '/api/admin/webhooks/replay': {
      post: {
        operationId: 'replayWebhooksSince',
        summary:
          "For operations: send every event raised since an instant again, to every endpoint in use or to one, in each booking's order; a failing endpoint replayed to is active again.",
        ...adminOnly,
        requestBody: { required: true, content: json('WebhookReplay') },
        responses: {
          '202': answer('Queued.', 'WebhookReplayed'),
          ...bodyRefusals,
          '404': refused('No such endpoint.'),
          ...adminRefusals,
          '503': unchanged,
        },
      },
    },
  },
  // OpenAPI 3.1: what this API sends to the operators' endpoints (docs/webhooks.md).
  webhooks: webhookEventOperations(),
  components: {
    schemas: {
      WebhookEndpointList: endpointListSchema,
      WebhookEndpointCreated: endpointCreatedSchema,
      NewWebhookEndpoint: newEndpointSchema,
      WebhookDeliveryList: deliveryListSchema,
      WebhookReplay: replaySchema,
      WebhookReplayed: replayedSchema,
      ...webhookEventSchemas,
    },
  },
};
