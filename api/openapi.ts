/**
 * The API described as OpenAPI 3.1, served at GET /api/openapi.json: assembled from the parts each route module
 * exports beside its routes (its path items and the schemas they name, request bodies being the very schemas Ajv
 * validates with). The assembler writes every part's schemas the 3.1 way (toOpenApiSchema), and refuses a path or a
 * schema named twice.
 */
import Router from '@koa/router';
import type * as oas from 'openapi3-ts/oas31';
import { brand } from '../domain/brand.js';
import { adminBookingsOpenApi } from './admin/booking-routes.js';
import { reassignOpenApi } from './admin/reassign.js';
import { hostShareOpenApi } from './admin/host-share.js';
import { adminSessionOpenApi } from './admin/sessions.js';
import { bookingLinkOpenApi } from './bookings/routes.js';
import { smsLinkOpenApi } from './bookings/sms-link.js';
import { demoRequestOpenApi } from './bookings/request-routes.js';
import { emailCheckOpenApi } from './email-check/routes.js';
import { funnelOpenApi } from './funnel/routes.js';
import { hostsOpenApi } from './hosts/routes.js';
import { sharedOpenApi, toOpenApiSchema, type OpenApiPart } from './openapi-parts.js';
import { routingOpenApi } from './routing/routes.js';
import { slotsOpenApi } from './slots/routes.js';
import { webhooksOpenApi } from './webhooks/routes.js';

export const OPENAPI_PATH = '/api/openapi.json';

const openApiOpenApi: OpenApiPart = {
  paths: {
    [OPENAPI_PATH]: {
      get: {
        operationId: 'openApi',
        summary: 'This document.',
        responses: {
          '200': { description: 'OpenAPI 3.1.', content: { 'application/json': { schema: { type: 'object' } } } },
        },
      },
    },
  },
};

/** In the order the document lists them. */
export const OPENAPI_PARTS: readonly OpenApiPart[] = [
  sharedOpenApi,
  demoRequestOpenApi,
  emailCheckOpenApi,
  routingOpenApi,
  slotsOpenApi,
  hostsOpenApi,
  adminBookingsOpenApi,
  reassignOpenApi,
  hostShareOpenApi,
  adminSessionOpenApi,
  bookingLinkOpenApi,
  smsLinkOpenApi,
  webhooksOpenApi,
  funnelOpenApi,
  openApiOpenApi,
];

/** The version of the API contract (not of the site): it rises when a documented shape changes. */
const API_VERSION = '1.0.0';

/** The entries of every part's section, each name once. */
function merged<T>(parts: readonly OpenApiPart[], section: (part: OpenApiPart) => Record<string, T> | undefined) {
  const all: Record<string, T> = {};
  for (const [name, entry] of parts.flatMap((part) => Object.entries(section(part) ?? {}))) {
    if (name in all) throw new Error(`The OpenAPI document names ${name} twice`);
    all[name] = entry;
  }
  return all;
}

/** The whole document, from the given parts (every route's, unless a test says otherwise). */
export function openApiDocument(parts: readonly OpenApiPart[] = OPENAPI_PARTS): oas.OpenAPIObject {
  const schemas = merged(parts, (part) => part.components?.schemas);
  return {
    openapi: '3.1.0',
    info: {
      title: `${brand.product} site API`,
      version: API_VERSION,
      description: `Request Demo for ${brand.product}: book a demo slot, check a work e-mail address, see the free slots; for operations and the sales page, the bookings (with their history and attendance marks), the hosts' calendars, the webhooks (signed as the Standard Webhooks specification says) and the funnel's counts.`,
    },
    paths: merged(parts, (part) => part.paths),
    webhooks: merged(parts, (part) => part.webhooks),
    components: {
      schemas: Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, toOpenApiSchema(schema)])),
      securitySchemes: merged(parts, (part) => part.components?.securitySchemes),
    },
  };
}

export function openApiRoutes(): Router {
  const router = new Router();
  const document = JSON.stringify(openApiDocument());
  router.get(OPENAPI_PATH, (ctx) => {
    ctx.type = 'application/json';
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = document;
  });
  return router;
}
