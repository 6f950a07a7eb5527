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
    meetingUrl: { type: 'string', format: 'uri', description: "The demo's video room (MEETING_URL_TEMPLATE), kept across moves." },
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
          available: { type: 'boolean', description: 'False when past, outside the window or full (with a team: no host free then).' },
        },
      },
    },
    calendarsUnreadable: {
      type: 'boolean',
      nullable: true,
      description: "Present (true) when no host's calendar can be read: nothing is offered because the times cannot be known, not because the day is booked up.",
    },
    salesDesk: { type: 'string', nullable: true, description: 'With calendarsUnreadable: the sales desk to write to (SALES_NOTIFY_EMAIL), when set.' },
  },
};

const hostListSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['team', 'hosts'],
  properties: {
    team: { type: 'boolean', description: 'Whether TEAM_FILE names a team; false: slots by SLOT_CAPACITY and no host.' },
    hosts: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['index', 'name', 'state', 'lastGoodReadAt', 'lastTriedAt', 'lastError'],
        properties: {
          index: { type: 'integer', description: "The host's place in the team file, from 0." },
          name: { type: 'string' },
          state: { type: 'string', enum: ['unread', 'readable', 'unreadable'], description: 'unreadable: not offered until a read succeeds.' },
          lastGoodReadAt: { type: ['string', 'null'], format: 'date-time' },
          lastTriedAt: { type: ['string', 'null'], format: 'date-time' },
          lastError: { type: ['string', 'null'], description: 'Why the last read failed, while unreadable.' },
        },
      },
    },
  },
} as const;

const stringOrNull = (description: string) => ({ type: ['string', 'null'], description });

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
        required: ['id', 'name', 'email', 'company', 'timeSlot', 'status', 'createdAt', 'attribution', 'confirmation', 'anonymisedAt'],
        properties: {
          id: { type: 'string', format: 'uuid' },
          name: { type: 'string' },
          email: { type: 'string' },
          company: { type: 'string' },
          timeSlot: { type: 'string', format: 'date-time' },
          status: { type: 'string', enum: ['booked', 'cancelled'] },
          createdAt: { type: 'string', format: 'date-time' },
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
              droppedAt: stringOrNull('When a move or cancellation made it untrue before it went out, so it never goes (date-time), or null.'),
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
    meetingUrl: { type: 'string', format: 'uri', nullable: true, description: "The demo's video room; absent for a booking made before rooms were given." },
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
  description: 'Too many requests from this client, or past a recipient\'s ceilings; the body says when to come back.',
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
const anonymised = refused('The booking is older than RETENTION_DAYS: its personal data was removed, so the link shows nothing any more.');
const unreadable = refused('The database does not answer; nothing was read or changed.');
const bodyRefusals = {
  '400': refused('The body is not valid: `fields` says what is wrong with each field.'),
  '413': refused('The body is larger than 16 KB.'),
  '415': refused('The body is not UTF-8 JSON.'),
};

/** The version of the API contract (not of the site): it rises when a documented shape changes. */
const API_VERSION = '1.0.0';

/** The whole document. */
export function openApiDocument(): Schema {
  return {
    openapi: '3.1.0',
    info: {
      title: `${brand.product} site API`,
      version: API_VERSION,
      description: `Request Demo for ${brand.product}: book a demo slot, check a work e-mail address, see the free slots.`,
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
              description: 'The same key for a retry of one submission: the first answer is given again, nothing is stored twice.',
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
          responses: { '200': answer('The slots.', 'DaySlots'), '400': refused('The date is not a YYYY-MM-DD day.'), '503': unreadable },
        },
      },
      '/api/hosts': {
        get: {
          operationId: 'listHosts',
          summary: "For operations: each host's calendar state and when it last read. Absent when no ADMIN_TOKEN is set.",
          security: [{ adminToken: [] }],
          responses: { '200': answer('In the team file\'s order.', 'HostList'), '401': refused('The operations token is missing or wrong.'), '429': tooMany },
        },
      },
      '/api/demo-requests': {
        get: {
          operationId: 'listDemoRequests',
          summary:
            'For operations: the bookings, newest first, 100 a page, and where each confirmation stands. Absent when no ADMIN_TOKEN is set.',
          security: [{ adminToken: [] }],
          parameters: [
            {
              name: 'cursor',
              in: 'query',
              required: false,
              description: 'The `next` of the page before; absent for the first page. Any page answers as fast as the first.',
              schema: { type: 'string' },
            },
          ],
          responses: {
            '200': answer('Newest first; `next` leads to the page after.', 'DemoRequestList'),
            '400': refused('The cursor is not one this list gave.'),
            '401': refused('The operations token is missing or wrong.'),
            '429': tooMany,
            '503': unreadable,
          },
        },
      },
      '/api/bookings/{token}': {
        get: {
          operationId: 'booking',
          summary: 'A booking, reached through the signed token of the link in its e-mails.',
          parameters: [tokenParameter],
          responses: { '200': answer('The booking.', 'Booking'), '404': noBooking, '410': anonymised, '503': unreadable },
        },
      },
      '/api/bookings/{token}/reschedule': {
        post: {
          operationId: 'rescheduleBooking',
          summary: 'Move the booking to another slot, under the rules of a new booking; the prospect gets an updated invitation (same UID, higher SEQUENCE).',
          parameters: [tokenParameter],
          requestBody: { required: true, content: json('Reschedule') },
          responses: {
            '200': answer('The booking as it now stands (the same slot changes nothing).', 'Booking'),
            ...bodyRefusals,
            '404': noBooking,
            '410': anonymised,
            '409': refused('The slot is full or already this person\'s, the booking is cancelled or has begun, or it was moved too often.'),
            '429': tooMany,
            '503': refused('The database does not answer; nothing was changed.'),
          },
        },
      },
      '/api/bookings/{token}/cancel': {
        post: {
          operationId: 'cancelBooking',
          summary: 'Cancel the booking and free its slot; the prospect gets the cancellation (METHOD:CANCEL). Cancelling twice changes nothing.',
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
            '200': { description: 'iCalendar, METHOD:PUBLISH (a file to import; the e-mail carries the REQUEST).', content: { 'text/calendar': { schema: { type: 'string' } } } },
            '404': noBooking,
            '410': anonymised,
            '503': unreadable,
          },
        },
      },
      [OPENAPI_PATH]: {
        get: {
          operationId: 'openApi',
          summary: 'This document.',
          responses: { '200': { description: 'OpenAPI 3.1.', content: { 'application/json': { schema: { type: 'object' } } } } },
        },
      },
    },
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
      },
      securitySchemes: { adminToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN' } },
    },
  };
}
