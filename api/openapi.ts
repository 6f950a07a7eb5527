/**
 * The API described as OpenAPI 3.1, served at GET /api/openapi.json. Request bodies are the very schemas Ajv
 * validates with (domain/demo-request.ts, email-check/routes.ts); the answers' schemas are written here once, typed
 * against the values the routes build, and the tests hold real answers to them.
 */
import Router from '@koa/router';
import type { JSONSchemaType } from 'ajv';
import { brand } from '../domain/brand.js';
import type { DaySlots } from '../domain/booking.js';
import {
  demoRequestSchema,
  IDEMPOTENCY_HEADER,
  IDEMPOTENCY_KEY_PATTERN,
  rescheduleSchema,
  type BookingView,
  type BookingCreated,
  type BookingHost,
} from '../domain/demo-request.js';
import type { EmailValidationResult } from '../domain/email-messages.js';
import { TOKEN_PATTERN } from '../server-shared/booking-link.js';
import { emailCheckSchema } from './email-check/routes.js';
import type { ErrorBody } from './errors.js';
import { WEBHOOK_EVENT_DESCRIPTIONS, WEBHOOK_EVENT_TYPES, webhookEventSchema } from '../server-shared/webhooks.js';
import { DELIVERY_LIST_LIMIT, newEndpointSchema, replaySchema } from './webhooks/routes.js';
import { DELIVERY_LOG_ATTEMPTS } from './webhooks/repository.js';
import { FUNNEL_PATH, FUNNEL_STEPS } from '../domain/funnel.js';
import { FUNNEL_MAX_DAYS, funnelBeaconSchema } from './funnel/routes.js';
import { CSRF_HEADER, SESSION_COOKIE, SESSION_HOURS, signInSchema } from './admin/sessions.js';
import { markSchema, SEARCH_MAX_LENGTH } from './admin/booking-routes.js';
import { LIST_STATUSES } from '../domain/sales.js';

export const OPENAPI_PATH = '/api/openapi.json';

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

const errorBodySchema: JSONSchemaType<ErrorBody> = {
  type: 'object',
  additionalProperties: false,
  required: ['error', 'details'],
  properties: {
    error: { type: 'string', description: 'A short summary, such as "Invalid demo request".' },
    details: { type: 'string', description: 'What went wrong, in words for a person.' },
    fields: {
      type: 'object',
      nullable: true,
      description: 'For a refused body: a message per field.',
      required: [],
      additionalProperties: { type: 'string' },
    },
  },
};

const bookingHostSchema: JSONSchemaType<BookingHost> = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'title'],
  description: 'Who gives the demo; only with a team (TEAM_FILE).',
  properties: {
    name: { type: 'string' },
    title: { type: 'string' },
  },
};

const bookingCreatedSchema: JSONSchemaType<BookingCreated> = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'createdAt', 'timeSlot', 'invitePath', 'meetingUrl'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    createdAt: { type: 'string', format: 'date-time' },
    timeSlot: { type: 'string', format: 'date-time' },
    invitePath: { type: 'string', description: "The booking's calendar event to download: GET this path on the site." },
    meetingUrl: {
      type: 'string',
      format: 'uri',
      description: "The demo's video room (MEETING_URL_TEMPLATE), kept across moves.",
    },
    host: { ...bookingHostSchema, nullable: true },
  },
};

const emailValidationResultSchema: JSONSchemaType<EmailValidationResult> = {
  type: 'object',
  additionalProperties: false,
  required: ['isValid', 'isDisposable', 'isFreeProvider', 'isRoleEmail'],
  properties: {
    isValid: { type: 'boolean' },
    isDisposable: { type: 'boolean' },
    isFreeProvider: { type: 'boolean' },
    isRoleEmail: { type: 'boolean' },
    reason: { type: 'string', nullable: true },
    suggestion: { type: 'string', nullable: true, description: 'A likely intended address, for a typo.' },
  },
};

const daySlotsSchema: JSONSchemaType<DaySlots> = {
  type: 'object',
  additionalProperties: false,
  required: ['date', 'timeZone', 'slots'],
  properties: {
    date: { type: 'string', format: 'date' },
    timeZone: { type: 'string', description: 'The booking zone (IANA name), in which the day is counted.' },
    slots: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['start', 'available'],
        properties: {
          start: { type: 'string', format: 'date-time' },
          available: {
            type: 'boolean',
            description: 'False when past, outside the window or full (with a team: no host free then).',
          },
        },
      },
    },
    calendarsUnreadable: {
      type: 'boolean',
      nullable: true,
      description:
        "Present (true) when no host's calendar can be read: nothing is offered because the times cannot be known, not because the day is booked up.",
    },
    salesDesk: {
      type: 'string',
      nullable: true,
      description: 'With calendarsUnreadable: the sales desk to write to (SALES_NOTIFY_EMAIL), when set.',
    },
  },
};

const hostListSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['team', 'hosts'],
  properties: {
    team: {
      type: 'boolean',
      description: 'Whether TEAM_FILE names a team; false: slots by SLOT_CAPACITY and no host.',
    },
    hosts: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['index', 'name', 'state', 'lastGoodReadAt', 'lastTriedAt', 'lastError'],
        properties: {
          index: { type: 'integer', description: "The host's place in the team file, from 0." },
          name: { type: 'string' },
          state: {
            type: 'string',
            enum: ['unread', 'readable', 'unreadable'],
            description: 'unreadable: not offered until a read succeeds.',
          },
          lastGoodReadAt: { type: ['string', 'null'], format: 'date-time' },
          lastTriedAt: { type: ['string', 'null'], format: 'date-time' },
          lastError: { type: ['string', 'null'], description: 'Why the last read failed, while unreadable.' },
        },
      },
    },
  },
} as const;

const stringOrNull = (description: string) => ({ type: ['string', 'null'], description });
const attendanceSchema = {
  type: ['string', 'null'],
  enum: ['attended', 'no_show', null],
  description: "Marked by sales after the demo's time; null until then.",
};

/**
 * Ajv's JSONSchemaType cannot spell a required value that may be null (`sentAt: string | null`), so this one is not
 * typed against BookingSummary; the tests hold the operations list's real answers to it.
 */
const demoRequestListSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['demoRequests', 'next'],
  properties: {
    next: stringOrNull('The cursor of the next page (pass it as ?cursor=), or null on the last page.'),
    demoRequests: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: [
          'id',
          'name',
          'email',
          'company',
          'phone',
          'message',
          'timeSlot',
          'status',
          'attendance',
          'createdAt',
          'attribution',
          'host',
          'confirmation',
          'anonymisedAt',
        ],
        properties: {
          id: { type: 'string', format: 'uuid' },
          name: { type: 'string' },
          email: { type: 'string' },
          company: { type: 'string' },
          phone: stringOrNull('As the prospect gave it, or null.'),
          message: stringOrNull('As the prospect wrote it, or null.'),
          timeSlot: { type: 'string', format: 'date-time' },
          status: { type: 'string', enum: ['booked', 'cancelled'] },
          attendance: attendanceSchema,
          createdAt: { type: 'string', format: 'date-time' },
          host: {
            type: ['object', 'null'],
            additionalProperties: false,
            required: ['name', 'email'],
            description: 'Who gives the demo (with a team, TEAM_FILE), or null.',
            properties: { name: { type: 'string' }, email: { type: 'string' } },
          },
          attribution: {
            type: ['object', 'null'],
            description: 'UTM parameters and referrer of the visit that booked, as the page sent them.',
            additionalProperties: { type: 'string' },
          },
          confirmation: {
            type: 'object',
            additionalProperties: false,
            required: ['sentAt', 'failedAt', 'droppedAt', 'attempts', 'lastError'],
            properties: {
              sentAt: stringOrNull('When the SMTP server took the confirmation (date-time), or null.'),
              failedAt: stringOrNull('When it was refused for good (date-time), or null.'),
              droppedAt: stringOrNull(
                'When a move or cancellation made it untrue before it went out, so it never goes (date-time), or null.',
              ),
              attempts: { type: 'integer' },
              lastError: stringOrNull('The last failure, without addresses, or null.'),
            },
          },
          anonymisedAt: stringOrNull(
            'When retention (RETENTION_DAYS) removed its personal data (date-time): name, e-mail and company are then empty, attribution keeps only utm_source, utm_medium and utm_campaign. Null until then.',
          ),
        },
      },
    },
  },
};

const bookingViewSchema: JSONSchemaType<BookingView> = {
  type: 'object',
  additionalProperties: false,
  required: ['timeSlot', 'status', 'name', 'company'],
  properties: {
    timeSlot: { type: 'string', format: 'date-time' },
    status: { type: 'string', enum: ['booked', 'cancelled'] },
    name: { type: 'string' },
    company: { type: 'string' },
    meetingUrl: {
      type: 'string',
      format: 'uri',
      nullable: true,
      description: "The demo's video room; absent for a booking made before rooms were given.",
    },
    host: { ...bookingHostSchema, nullable: true },
  },
};

type Schema = Record<string, unknown>;

/**
 * Ajv's schemas (JSON Schema draft 7 with Ajv's `nullable`) as OpenAPI 3.1 writes them (JSON Schema 2020-12):
 * `nullable: true` becomes a type that also allows null. Nothing else changes.
 */
export function toOpenApiSchema(schema: object): Schema {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (typeof value !== 'object' || value === null) return value;
    const { nullable, ...rest } = value as Schema;
    const out: Schema = Object.fromEntries(Object.entries(rest).map(([key, inner]) => [key, walk(inner)]));
    if (nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
    return out;
  };
  return walk(schema) as Schema;
}

const json = (schema: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } });
const answer = (description: string, schema: string) => ({ description, content: json(schema) });
const refused = (description: string) => answer(description, 'Error');
const tooMany = {
  description: "Too many requests from this client, or past a recipient's ceilings; the body says when to come back.",
  headers: { 'Retry-After': { description: 'Seconds until a new try can succeed.', schema: { type: 'integer' } } },
  content: json('Error'),
};
const tokenParameter = {
  name: 'token',
  in: 'path',
  required: true,
  description: 'The token of the booking link in the e-mails: opaque, signed with BOOKING_LINK_SECRET.',
  schema: { type: 'string', pattern: TOKEN_PATTERN.source },
};
const noBooking = refused('No booking at this link (an altered or unknown token).');
const anonymised = refused(
  'The booking is older than RETENTION_DAYS: its personal data was removed, so the link shows nothing any more.',
);
const unreadable = refused('The database does not answer; nothing was read or changed.');
const bodyRefusals = {
  '400': refused(
    'The body is not valid: `fields` says what is wrong with each field, and names each key the body may not carry.',
  ),
  '413': refused('The body is larger than 16 KB.'),
  '415': refused('The body is not UTF-8 JSON.'),
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
const endpointCreatedSchema = {
  type: 'object',
  additionalProperties: false,
  required: [...Object.keys(endpointProperties), 'secret'],
  properties: {
    ...endpointProperties,
    secret: { type: 'string', description: 'The signing secret (whsec_…): answered this once, never listed.' },
  },
};
const deliveryListSchema = {
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
const stepCounts = {
  type: 'object',
  additionalProperties: false,
  required: [...FUNNEL_STEPS],
  properties: Object.fromEntries(FUNNEL_STEPS.map((step) => [step, { type: 'integer', minimum: 0 }])),
};
const funnelSourceProperty = stringOrNull(
  "The utm_source as counted (lower case; 'other' for one that is not a short plain name, or, in the days' counts, one not known: listed in FUNNEL_SOURCES or carried by a stored booking); null: the visit had none.",
);
/** Not typed against FunnelReport: Ajv's JSONSchemaType cannot spell a required value that may be null (`source`). */
const funnelReportSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['from', 'to', 'steps', 'days', 'attendance'],
  properties: {
    from: { type: 'string', format: 'date' },
    to: { type: 'string', format: 'date' },
    steps: {
      type: 'array',
      items: { type: 'string', enum: [...FUNNEL_STEPS] },
      description: 'The steps in the order a visitor takes them.',
    },
    days: {
      type: 'array',
      description: 'Oldest day first; a row per day and source that counted anything (days in the booking zone).',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['day', 'source', 'counts'],
        properties: { day: { type: 'string', format: 'date' }, source: funnelSourceProperty, counts: stepCounts },
      },
    },
    attendance: {
      type: 'array',
      description:
        "Per source of the bookings' attribution: the bookings whose slot is in the range, most booked first.",
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['source', 'booked', 'attended', 'noShow', 'attendedRate'],
        properties: {
          source: funnelSourceProperty,
          booked: { type: 'integer', description: 'Bookings not cancelled.' },
          attended: { type: 'integer', description: 'Of those, marked attended by sales.' },
          noShow: { type: 'integer', description: 'Of those, marked no-show.' },
          attendedRate: {
            type: ['number', 'null'],
            description: 'attended / (attended + noShow); null while none is marked.',
          },
        },
      },
    },
  },
};
const replayedSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['replayed'],
  properties: { replayed: { type: 'integer', description: 'Deliveries put back to be tried now.' } },
};
const adminOnly = { security: [{ adminToken: [] }] };
const adminRefusals = { '401': refused('The operations token is missing or wrong.'), '429': tooMany };
/** The operations token, or the sales page's session cookie (whose changes carry the CSRF token). */
const adminOrSession = { security: [{ adminToken: [] }, { adminSession: [] }] };
const sessionRefusals = {
  '401': refused('The operations token is missing or wrong, or the session has ended.'),
  '429': tooMany,
};
const csrfParameter = {
  name: CSRF_HEADER,
  in: 'header',
  required: false,
  description:
    'With the session cookie: the csrfToken of the session (a change without it, or with another, is refused with 403). Not needed with the Bearer token.',
  schema: { type: 'string' },
};
const csrfRefusal = {
  '403': refused(
    "Made with the session cookie but without its CSRF token, or with another; or sent from another site (an Origin not the site's own, or Sec-Fetch-Site other than same-origin or none).",
  ),
};
const listFilterParameters = [
  {
    name: 'q',
    in: 'query',
    required: false,
    description: 'A prefix, in any case, of the name, the company, the e-mail address or its domain.',
    schema: { type: 'string', maxLength: SEARCH_MAX_LENGTH },
  },
  {
    name: 'status',
    in: 'query',
    required: false,
    description: 'booked: not cancelled and not marked yet; cancelled; attended; no_show.',
    schema: { type: 'string', enum: [...LIST_STATUSES] },
  },
  {
    name: 'from',
    in: 'query',
    required: false,
    description: 'Slots on this day (in the booking zone) or later.',
    schema: { type: 'string', format: 'date' },
  },
  {
    name: 'to',
    in: 'query',
    required: false,
    description: 'Slots on this day (in the booking zone) or earlier.',
    schema: { type: 'string', format: 'date' },
  },
  {
    name: 'host',
    in: 'query',
    required: false,
    description: "The host's e-mail address (with a team).",
    schema: { type: 'string' },
  },
  {
    name: 'source',
    in: 'query',
    required: false,
    description: "The attribution's utm_source, exactly.",
    schema: { type: 'string' },
  },
];
const sessionSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['csrfToken', 'expiresAt'],
  properties: {
    csrfToken: {
      type: 'string',
      description: `Send it as ${CSRF_HEADER} with every change made with the session cookie.`,
    },
    expiresAt: {
      type: 'string',
      format: 'date-time',
      description: `When the session ends (${SESSION_HOURS} hours after signing in).`,
    },
  },
};
const instantSchema = { type: 'string', format: 'date-time' };
const bookingDetailSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'name',
    'email',
    'company',
    'phone',
    'message',
    'timeSlot',
    'status',
    'attendance',
    'attendanceMarkedAt',
    'sequence',
    'createdAt',
    'meetingUrl',
    'host',
    'attribution',
    'anonymisedAt',
    'history',
    'emails',
    'webhookDeliveries',
  ],
  properties: {
    id: { type: 'string', format: 'uuid' },
    name: { type: 'string' },
    email: { type: 'string' },
    company: { type: 'string' },
    phone: stringOrNull('As typed, or null.'),
    message: stringOrNull('As typed, or null.'),
    timeSlot: instantSchema,
    status: { type: 'string', enum: ['booked', 'cancelled'] },
    attendance: attendanceSchema,
    attendanceMarkedAt: stringOrNull('When it was last marked (date-time), or null.'),
    sequence: { type: 'integer', description: 'Changes so far (moves and the cancellation).' },
    createdAt: instantSchema,
    meetingUrl: stringOrNull('The video room.'),
    host: {
      type: ['object', 'null'],
      additionalProperties: false,
      required: ['name', 'title', 'email'],
      properties: { name: { type: 'string' }, title: { type: 'string' }, email: { type: 'string' } },
    },
    attribution: { type: ['object', 'null'], additionalProperties: { type: 'string' } },
    anonymisedAt: stringOrNull('When retention removed its personal data (date-time), or null.'),
    history: {
      type: 'array',
      description: 'Oldest first: booked (at its first slot), each move (from, to), the cancellation, each mark.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['at', 'what'],
        properties: {
          at: instantSchema,
          what: { type: 'string', enum: ['booked', 'moved', 'cancelled', 'attended', 'no_show'] },
          timeSlot: { ...instantSchema, description: 'booked: the slot it was booked at.' },
          from: { ...instantSchema, description: 'moved: the slot given up.' },
          to: { ...instantSchema, description: 'moved: the slot taken.' },
        },
      },
    },
    emails: {
      type: 'array',
      description: 'Every e-mail of its outbox, oldest first.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: [
          'id',
          'kind',
          'recipient',
          'createdAt',
          'dueAt',
          'sentAt',
          'failedAt',
          'droppedAt',
          'attempts',
          'lastError',
        ],
        properties: {
          id: { type: 'string', format: 'uuid' },
          kind: {
            type: 'string',
            description:
              'confirmation, update, cancellation, reminder, sales-notice, host-invitation, host-cancellation.',
          },
          recipient: stringOrNull('Its own recipient (the sales desk, a host); null: the prospect.'),
          createdAt: instantSchema,
          dueAt: instantSchema,
          sentAt: stringOrNull('When the SMTP server took it (date-time), or null.'),
          failedAt: stringOrNull('When it was refused for good (date-time), or null.'),
          droppedAt: stringOrNull('When a later change made it untrue before it went out (date-time), or null.'),
          attempts: { type: 'integer' },
          lastError: stringOrNull('The last failure, or null.'),
        },
      },
    },
    webhookDeliveries: {
      ...deliveryListSchema.properties.deliveries,
      description: 'Its webhook deliveries, newest first, each with its latest tries.',
    },
  },
};
const uuidParameter = (name: string, description: string) => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string', format: 'uuid' },
});

/** The `webhooks` section: what a receiver is sent, one entry per event, with the Standard Webhooks headers. */
function webhookOperations(): Schema {
  const header = (name: string, description: string) => ({
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
            content: { 'application/json': { schema: { $ref: `#/components/schemas/${webhookSchemaName(type)}` } } },
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

const webhookSchemaName = (type: string) =>
  `Webhook${type
    .split(/[._]/)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('')}`;

/** The version of the API contract (not of the site): it rises when a documented shape changes. */
const API_VERSION = '1.0.0';

/** The whole document. */
export function openApiDocument(): Schema {
  return {
    openapi: '3.1.0',
    info: {
      title: `${brand.product} site API`,
      version: API_VERSION,
      description: `Request Demo for ${brand.product}: book a demo slot, check a work e-mail address, see the free slots; for operations and the sales page, the bookings (with their history and attendance marks), the hosts' calendars, the webhooks (signed as the Standard Webhooks specification says) and the funnel's counts.`,
    },
    paths: {
      '/api/demo-request': {
        post: {
          operationId: 'requestDemo',
          summary: 'Book a demo slot; a confirmation with a calendar invitation is e-mailed.',
          parameters: [
            {
              name: IDEMPOTENCY_HEADER,
              in: 'header',
              required: false,
              description:
                'The same key for a retry of one submission: the first answer is given again, nothing is stored twice.',
              schema: { type: 'string', pattern: IDEMPOTENCY_KEY_PATTERN.source },
            },
          ],
          requestBody: { required: true, content: json('DemoRequest') },
          responses: {
            '201': answer('Stored; the confirmation is on its way.', 'BookingCreated'),
            ...bodyRefusals,
            '409': refused('The slot is full, or this person already holds it.'),
            '422': refused('The idempotency key was used with another body.'),
            '429': tooMany,
            '503': refused('The database does not answer; nothing was stored.'),
          },
        },
      },
      '/api/validate-email': {
        post: {
          operationId: 'validateEmail',
          summary: 'Check a work e-mail address: syntax, personal and disposable providers, role addresses, typos.',
          requestBody: { required: true, content: json('EmailCheck') },
          responses: { '200': answer('The verdict.', 'EmailValidationResult'), ...bodyRefusals, '429': tooMany },
        },
      },
      '/api/slots': {
        get: {
          operationId: 'daySlots',
          summary: "A booking-zone day's 17 hourly slots and which can still be booked.",
          parameters: [{ name: 'date', in: 'query', required: true, schema: { type: 'string', format: 'date' } }],
          responses: {
            '200': answer('The slots.', 'DaySlots'),
            '400': refused('The date is not a YYYY-MM-DD day.'),
            '503': unreadable,
          },
        },
      },
      '/api/hosts': {
        get: {
          operationId: 'listHosts',
          summary:
            "For operations: each host's calendar state and when it last read. Absent when no ADMIN_TOKEN is set.",
          security: [{ adminToken: [] }],
          responses: {
            '200': answer("In the team file's order.", 'HostList'),
            '401': refused('The operations token is missing or wrong.'),
            '429': tooMany,
          },
        },
      },
      '/api/demo-requests': {
        get: {
          operationId: 'listDemoRequests',
          summary:
            'For operations and the sales page: the bookings, newest first, 100 a page, and where each confirmation stands; the filters all apply together. Absent when no ADMIN_TOKEN is set.',
          ...adminOrSession,
          parameters: [
            ...listFilterParameters,
            {
              name: 'cursor',
              in: 'query',
              required: false,
              description:
                'The `next` of the page before; absent for the first page. Any page answers as fast as the first.',
              schema: { type: 'string' },
            },
          ],
          responses: {
            '200': answer('Newest first; `next` leads to the page after.', 'DemoRequestList'),
            '400': refused('The cursor is not one this list gave, or a filter is not valid (`fields` says which).'),
            '422': refused(
              'The search (`q`) matches more than 5,000 bookings, most of them long ago, and the page could not be read within 5 s: type more of it, or add a filter.',
            ),
            ...sessionRefusals,
            '503': unreadable,
          },
        },
      },
      '/api/demo-requests.csv': {
        get: {
          operationId: 'exportDemoRequests',
          summary:
            'For operations and the sales page: every booking the filters select, newest first, as CSV (streamed); a cell starting with =, +, - or @ is written with a leading apostrophe.',
          ...adminOrSession,
          parameters: listFilterParameters,
          responses: {
            '200': {
              description: 'RFC 4180 CSV, every cell quoted, one header line.',
              content: { 'text/csv': { schema: { type: 'string' } } },
            },
            '400': refused('A filter is not valid (`fields` says which).'),
            '422': refused(
              'The search (`q`) matches more than 5,000 bookings, most of them long ago, and its first page could not be read within 5 s: type more of it, or add a filter.',
            ),
            ...sessionRefusals,
            '503': unreadable,
          },
        },
      },
      '/api/admin/session': {
        post: {
          operationId: 'signIn',
          summary: `The sales page's sign-in: the operations token exchanged for a session cookie (${SESSION_COOKIE}: HttpOnly, SameSite=Strict, Path=/api, Secure over HTTPS, ${SESSION_HOURS} hours). Wrong tokens count against the same per-network allowance as the Bearer header; the right one always signs in.`,
          requestBody: { required: true, content: json('SignIn') },
          responses: {
            '201': answer('Signed in; the cookie is set.', 'AdminSession'),
            ...bodyRefusals,
            '401': refused('Not the operations token.'),
            '403': refused(
              "Sent from another site (an Origin not the site's own, or Sec-Fetch-Site other than same-origin or none), whatever the token.",
            ),
            '429': tooMany,
            '503': refused('The database does not answer; not signed in.'),
          },
        },
        get: {
          operationId: 'adminSession',
          summary: 'The session of the cookie, with its CSRF token (the page reads it after a reload).',
          security: [{ adminSession: [] }],
          responses: {
            '200': answer('Signed in.', 'AdminSession'),
            '401': refused('No session, or it has ended.'),
            '503': unreadable,
          },
        },
        delete: {
          operationId: 'signOut',
          summary: 'Sign out: the session ends and the cookie is cleared.',
          security: [{ adminSession: [] }],
          parameters: [{ ...csrfParameter, required: true }],
          responses: {
            '204': { description: 'Signed out.' },
            '401': refused('No session, or it has ended.'),
            ...csrfRefusal,
            '503': refused('The database does not answer; still signed in.'),
          },
        },
      },
      '/api/admin/bookings/{id}': {
        get: {
          operationId: 'bookingDetail',
          summary:
            'For operations and the sales page: one booking with its history (booked, moves, cancellation, marks), its e-mails and its webhook deliveries.',
          ...adminOrSession,
          parameters: [uuidParameter('id', "The booking's id.")],
          responses: {
            '200': answer('The booking.', 'BookingDetail'),
            '404': refused('No such booking.'),
            ...sessionRefusals,
            '503': unreadable,
          },
        },
      },
      '/api/admin/bookings/{id}/attendance': {
        post: {
          operationId: 'markAttendance',
          summary:
            "After the demo's time: mark it attended or no-show (a correction may change the mark). Each new mark raises booking.attended or booking.no_show; the same mark again changes nothing.",
          ...adminOrSession,
          parameters: [uuidParameter('id', "The booking's id."), csrfParameter],
          requestBody: { required: true, content: json('AttendanceMark') },
          responses: {
            '200': answer('The booking as it now stands.', 'BookingDetail'),
            ...bodyRefusals,
            ...csrfRefusal,
            '404': refused('No such booking.'),
            '409': refused('The booking is cancelled, or its time has not come yet.'),
            ...sessionRefusals,
            '503': refused('The database does not answer; nothing was changed.'),
          },
        },
      },
      '/api/bookings/{token}': {
        get: {
          operationId: 'booking',
          summary: 'A booking, reached through the signed token of the link in its e-mails.',
          parameters: [tokenParameter],
          responses: {
            '200': answer('The booking.', 'Booking'),
            '404': noBooking,
            '410': anonymised,
            '503': unreadable,
          },
        },
      },
      '/api/bookings/{token}/reschedule': {
        post: {
          operationId: 'rescheduleBooking',
          summary:
            'Move the booking to another slot, under the rules of a new booking; the prospect gets an updated invitation (same UID, higher SEQUENCE).',
          parameters: [tokenParameter],
          requestBody: { required: true, content: json('Reschedule') },
          responses: {
            '200': answer('The booking as it now stands (the same slot changes nothing).', 'Booking'),
            ...bodyRefusals,
            '404': noBooking,
            '410': anonymised,
            '409': refused(
              "The slot is full or already this person's, the booking is cancelled or has begun, or it was moved too often.",
            ),
            '429': tooMany,
            '503': refused('The database does not answer; nothing was changed.'),
          },
        },
      },
      '/api/bookings/{token}/cancel': {
        post: {
          operationId: 'cancelBooking',
          summary:
            'Cancel the booking and free its slot; the prospect gets the cancellation (METHOD:CANCEL). Cancelling twice changes nothing.',
          parameters: [tokenParameter],
          responses: {
            '200': answer('The booking, cancelled.', 'Booking'),
            '404': noBooking,
            '410': anonymised,
            '409': refused('The demo has already begun.'),
            '429': tooMany,
            '503': refused('The database does not answer; nothing was changed.'),
          },
        },
      },
      '/api/bookings/{token}/invite.ics': {
        get: {
          operationId: 'bookingInvitation',
          summary: "The booking's calendar event (the same UID as in its e-mails), to download.",
          parameters: [tokenParameter],
          responses: {
            '200': {
              description: 'iCalendar, METHOD:PUBLISH (a file to import; the e-mail carries the REQUEST).',
              content: { 'text/calendar': { schema: { type: 'string' } } },
            },
            '404': noBooking,
            '410': anonymised,
            '503': unreadable,
          },
        },
      },
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
            '413': refused('The body is larger than 16 KB.'),
            '415': refused('The body is not UTF-8 JSON.'),
            ...adminRefusals,
            '503': refused('The database does not answer; nothing was changed.'),
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
            '503': refused('The database does not answer; nothing was changed.'),
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
            '503': refused('The database does not answer; nothing was changed.'),
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
            '503': refused('The database does not answer; nothing was changed.'),
          },
        },
      },
      [FUNNEL_PATH]: {
        post: {
          operationId: 'countFunnelStep',
          summary:
            "The page's anonymous beacon (navigator.sendBeacon): one more visit reached this step today, from this source. Only daily counts are kept; no address, identifier or browser (docs/funnel.md).",
          requestBody: {
            required: true,
            content: {
              ...json('FunnelBeacon'),
              'text/plain': { schema: { $ref: '#/components/schemas/FunnelBeacon' } },
            },
          },
          responses: {
            '204': { description: 'Counted; or not, from a bot (by its User-Agent, or one without), answered alike.' },
            '400': refused(
              'Not a step, a source that is not text of at most 100 characters, or a key beside step and source.',
            ),
            '413': refused('The body is larger than 1 KB.'),
            '415': refused('The body is neither JSON nor text.'),
            '429': tooMany,
            '503': refused('The database does not answer; nothing was counted.'),
          },
        },
      },
      '/api/admin/funnel': {
        get: {
          operationId: 'funnel',
          summary:
            "For operations and sales: the funnel's daily counts per source, and per source the bookings in the range with how many came (attended) and how many did not (no-show).",
          ...adminOrSession,
          parameters: ['from', 'to'].map((name) => ({
            name,
            in: 'query',
            required: true,
            description: `The ${name === 'from' ? 'first' : 'last'} day, included (the booking zone's days); at most ${FUNNEL_MAX_DAYS} days in all.`,
            schema: { type: 'string', format: 'date' },
          })),
          responses: {
            '200': answer('The range, its counts and attendance.', 'FunnelReport'),
            '400': refused('from or to is not a day, from is after to, or the range is too long.'),
            ...adminRefusals,
            '503': unreadable,
          },
        },
      },
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
    // OpenAPI 3.1: what this API sends to the operators' endpoints (docs/webhooks.md).
    webhooks: webhookOperations(),
    components: {
      schemas: {
        DemoRequest: toOpenApiSchema(demoRequestSchema),
        BookingCreated: toOpenApiSchema(bookingCreatedSchema),
        EmailCheck: toOpenApiSchema(emailCheckSchema),
        EmailValidationResult: toOpenApiSchema(emailValidationResultSchema),
        DaySlots: toOpenApiSchema(daySlotsSchema),
        DemoRequestList: toOpenApiSchema(demoRequestListSchema),
        HostList: hostListSchema,
        Booking: toOpenApiSchema(bookingViewSchema),
        Reschedule: toOpenApiSchema(rescheduleSchema),
        Error: toOpenApiSchema(errorBodySchema),
        WebhookEndpointList: {
          type: 'object',
          additionalProperties: false,
          required: ['endpoints'],
          properties: { endpoints: { type: 'array', items: endpointSchema } },
        },
        WebhookEndpointCreated: endpointCreatedSchema,
        NewWebhookEndpoint: toOpenApiSchema(newEndpointSchema),
        WebhookDeliveryList: deliveryListSchema,
        WebhookReplay: toOpenApiSchema(replaySchema),
        WebhookReplayed: replayedSchema,
        FunnelBeacon: toOpenApiSchema(funnelBeaconSchema),
        FunnelReport: funnelReportSchema,
        SignIn: toOpenApiSchema(signInSchema),
        AdminSession: sessionSchema,
        BookingDetail: bookingDetailSchema,
        AttendanceMark: toOpenApiSchema(markSchema),
        ...Object.fromEntries(WEBHOOK_EVENT_TYPES.map((type) => [webhookSchemaName(type), webhookEventSchema(type)])),
      },
      securitySchemes: {
        adminToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN' },
        adminSession: {
          type: 'apiKey',
          in: 'cookie',
          name: SESSION_COOKIE,
          description: "The sales page's session (POST /api/admin/session); changes also need the X-CSRF-Token header.",
        },
      },
    },
  };
}
