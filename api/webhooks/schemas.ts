/**
 * The webhook API's JSON Schemas: the bodies Ajv validates (routes.ts), the answers the OpenAPI document describes
 * and the tests hold real answers to, and what a receiver is sent (the document's `webhooks` section).
 */
import type { JSONSchemaType } from 'ajv';
import type * as oas from 'openapi3-ts/oas31';
import { WEBHOOK_EVENT_DESCRIPTIONS, WEBHOOK_EVENT_TYPES, webhookEventSchema } from '../../server-shared/webhooks.js';
import { json, stringOrNull } from '../openapi-parts.js';
import { DELIVERY_LOG_ATTEMPTS } from './repository.js';

export interface NewEndpoint {
  url: string;
  secret?: string;
  description?: string;
}

export const newEndpointSchema: JSONSchemaType<NewEndpoint> = {
  type: 'object',
  additionalProperties: false,
  required: ['url'],
  properties: {
    url: {
      type: 'string',
      minLength: 1,
      maxLength: 2000,
      description: 'https:// (http:// and private addresses only with WEBHOOK_ALLOW_PRIVATE=true).',
    },
    secret: {
      type: 'string',
      nullable: true,
      maxLength: 200,
      description: 'whsec_ and 24 to 64 bytes in base64; made for you when absent, and answered once.',
    },
    description: { type: 'string', nullable: true, maxLength: 200 },
  },
};

export interface ReplayRequest {
  /** Every event raised since this instant (ISO 8601). */
  since?: string;
  /** Only to this endpoint; else to every endpoint in use. */
  endpointId?: string;
}

export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

export const replaySchema: JSONSchemaType<ReplayRequest> = {
  type: 'object',
  additionalProperties: false,
  required: [],
  properties: {
    since: {
      type: 'string',
      nullable: true,
      maxLength: 40,
      description: 'ISO 8601 instant: every event since then (required for POST /api/admin/webhooks/replay).',
    },
    endpointId: { type: 'string', nullable: true, pattern: UUID_PATTERN, description: 'Only to this endpoint.' },
  },
};

const endpointProperties = {
  id: { type: 'string', format: 'uuid' },
  url: { type: 'string' },
  description: { type: ['string', 'null'] },
  source: {
    type: 'string',
    enum: ['environment', 'admin'],
    description: "environment: WEBHOOK_URL's (remove it by unsetting the setting); admin: added through this API.",
  },
  state: {
    type: 'string',
    enum: ['active', 'failing', 'stopped'],
    description:
      "failing: a delivery failed for its whole retry window, and the endpoint's events wait for a replay; stopped: it answered 410 Gone, and nothing more goes to it.",
  },
  createdAt: { type: 'string', format: 'date-time' },
  failingSince: stringOrNull('When it was marked failing (date-time), or null.'),
  failingReason: stringOrNull('What the last try of the delivery given up on came to, or null.'),
  stoppedAt: stringOrNull('When it answered 410 (date-time), or null.'),
  pending: {
    type: 'integer',
    description:
      'Deliveries not yet delivered (waiting their turn, retrying, or given up on and waiting for a replay).',
  },
  delivered: { type: 'integer' },
  exhausted: { type: 'integer', description: 'Deliveries given up on after the retry window, waiting for a replay.' },
};
const endpointSchema = {
  type: 'object',
  additionalProperties: false,
  required: Object.keys(endpointProperties),
  properties: endpointProperties,
};
export const endpointListSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['endpoints'],
  properties: { endpoints: { type: 'array', items: endpointSchema } },
};
export const endpointCreatedSchema = {
  type: 'object',
  additionalProperties: false,
  required: [...Object.keys(endpointProperties), 'secret'],
  properties: {
    ...endpointProperties,
    secret: { type: 'string', description: 'The signing secret (whsec_…): answered this once, never listed.' },
  },
};
export const deliveryListSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['deliveries'],
  properties: {
    deliveries: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: [
          'id',
          'eventId',
          'eventType',
          'bookingId',
          'endpointId',
          'createdAt',
          'attempts',
          'nextAttemptAt',
          'deliveredAt',
          'exhaustedAt',
          'lastStatus',
          'lastError',
          'log',
        ],
        properties: {
          id: { type: 'string', format: 'uuid' },
          eventId: { type: 'string', format: 'uuid', description: 'The webhook-id every try of it sends.' },
          eventType: { type: 'string', enum: [...WEBHOOK_EVENT_TYPES] },
          bookingId: { type: 'string', format: 'uuid' },
          endpointId: { type: 'string', format: 'uuid' },
          createdAt: { type: 'string', format: 'date-time' },
          attempts: { type: 'integer' },
          nextAttemptAt: stringOrNull('When the next try is due (date-time); null once delivered or given up on.'),
          deliveredAt: stringOrNull('When the receiver answered 2xx (date-time), or null.'),
          exhaustedAt: stringOrNull('When it was given up on after the retry window (date-time), or null.'),
          lastStatus: { type: ['integer', 'null'] },
          lastError: stringOrNull(
            'Why the last try got no answer (a refused address, a timeout, a connection error), or null.',
          ),
          log: {
            type: 'array',
            description: `The latest ${DELIVERY_LOG_ATTEMPTS} tries, newest first.`,
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['attemptedAt', 'status', 'durationMs', 'responseExcerpt', 'error'],
              properties: {
                attemptedAt: { type: 'string', format: 'date-time' },
                status: { type: ['integer', 'null'], description: "The receiver's status; null when no answer came." },
                durationMs: { type: 'integer', description: 'Response time.' },
                responseExcerpt: stringOrNull("The first 1 KB of the answer's body (at most 64 KB is read)."),
                error: stringOrNull('Why no answer came, or null.'),
              },
            },
          },
        },
      },
    },
  },
};
export const replayedSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['replayed'],
  properties: { replayed: { type: 'integer', description: 'Deliveries put back to be tried now.' } },
};

const webhookSchemaName = (type: string) =>
  `Webhook${type
    .split(/[._]/)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('')}`;

/** Each event's payload (server-shared/webhooks.ts), named as the `webhooks` section refers to it. */
export const webhookEventSchemas = Object.fromEntries(
  WEBHOOK_EVENT_TYPES.map((type) => [webhookSchemaName(type), webhookEventSchema(type)]),
);

/** The `webhooks` section: what a receiver is sent, one entry per event, with the Standard Webhooks headers. */
export function webhookEventOperations(): Record<string, oas.PathItemObject> {
  const header = (name: string, description: string): oas.ParameterObject => ({
    name,
    in: 'header',
    required: true,
    description,
    schema: { type: 'string' },
  });
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `webhook_${type.replace('.', '_')}`,
          summary: WEBHOOK_EVENT_DESCRIPTIONS[type],
          description:
            type === 'booking.attended' || type === 'booking.no_show'
              ? 'Raised when sales marks a demo after its time (the sales page).'
              : "Raised in the transaction that changes the booking; tried until the receiver answers 2xx, in the order of the booking's events.",
          parameters: [
            header(
              'webhook-id',
              "The event id (also the body's id): the same on every try, so a receiver can drop repeats.",
            ),
            header(
              'webhook-timestamp',
              'Seconds since 1970 when this try was signed; reject ones far from your clock.',
            ),
            header(
              'webhook-signature',
              'v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}"> with the endpoint\'s secret (Standard Webhooks).',
            ),
          ],
          requestBody: {
            required: true,
            content: json(webhookSchemaName(type)),
          },
          responses: {
            '2XX': { description: 'Taken: not sent again (unless replayed).' },
            '410': { description: 'Gone: nothing more is sent to this endpoint.' },
            default: {
              description:
                'Tried again with backoff (Retry-After honoured) for at least 24 hours; then the endpoint is marked failing and its events wait for a replay.',
            },
          },
        },
      },
    ]),
  );
}
