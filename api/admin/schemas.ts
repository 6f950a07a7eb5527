/**
 * The bookings' JSON Schemas for operations and the sales page (booking-routes.ts): the mark Ajv validates, and the
 * list and the booking with its history that the OpenAPI document describes and the tests hold real answers to.
 * The session's own are in sessions.ts, beside the constants they name.
 */
import type { JSONSchemaType } from 'ajv';
import type { Attendance } from '../../domain/sales.js';
import type { CandidateOutcome } from '../../domain/routing.js';
import { stringOrNull } from '../openapi-parts.js';
import { deliveryListSchema } from '../webhooks/schemas.js';

export interface MarkRequest {
  attendance: Attendance;
}

export const markSchema: JSONSchemaType<MarkRequest> = {
  type: 'object',
  additionalProperties: false,
  required: ['attendance'],
  properties: {
    attendance: {
      type: 'string',
      enum: ['attended', 'no_show'],
      description: 'attended: the demo was held; no_show: the prospect did not come.',
    },
  },
};

const attendanceSchema = {
  type: ['string', 'null'],
  enum: ['attended', 'no_show', null],
  description: "Marked by sales after the demo's time; null until then.",
};

/**
 * Ajv's JSONSchemaType cannot spell a required value that may be null (`sentAt: string | null`), so this one is not
 * typed against BookingSummary; the tests hold the operations list's real answers to it.
 */
/** A booking whose host withdrew with nobody free to take it (docs/hosts-and-calendars.md, "When the host answers"). */
const needsNewTimeSchema = {
  type: ['object', 'null'],
  additionalProperties: false,
  required: ['since', 'reason'],
  description:
    'Needs a new time: its host deleted or declined the event in their calendar and no other host of its route was free, so it has no host and the prospect was asked to choose a new time. Null otherwise, and again once the prospect moves it or sales hand it to a host.',
  properties: {
    since: { type: 'string', format: 'date-time' },
    reason: { type: 'string', enum: ['host-deleted', 'host-declined'] },
  },
};

export const demoRequestListSchema = {
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
          'needsNewTime',
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
          needsNewTime: needsNewTimeSchema,
        },
      },
    },
  },
};

const instantSchema = { type: 'string', format: 'date-time' };

/** How a booking's host was chosen (domain/routing.ts, RoutingRecord), as bookings.routing keeps it. */
export const routingRecordSchema = {
  type: ['object', 'null'],
  description:
    'How its host was chosen: the route that matched (its index in the team file and a label), the account owner and where it was found, each candidate with what became of them, and each reassignment. Null without a team.',
  additionalProperties: false,
  required: ['rule', 'label', 'owner', 'ownerLookupFailed', 'candidates'],
  properties: {
    rule: { type: ['integer', 'null'], description: "The route's index in the team file; null without routes." },
    label: { type: 'string' },
    owner: {
      type: ['object', 'null'],
      additionalProperties: false,
      required: ['email', 'source'],
      properties: { email: { type: 'string' }, source: { type: 'string', enum: ['lookup', 'accounts'] } },
    },
    ownerLookupFailed: { type: 'boolean' },
    candidates: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['email', 'name', 'outcome'],
        properties: {
          email: { type: 'string' },
          name: { type: 'string' },
          outcome: {
            type: 'string',
            enum: [
              'chosen',
              'busy',
              'over-daily-limit',
              'outside-hours',
              'calendar-unreadable',
              'fewer-demos-elsewhere',
            ] satisfies CandidateOutcome[],
          },
        },
      },
    },
    reassignments: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['at', 'from', 'to', 'by'],
        properties: {
          at: instantSchema,
          from: { type: ['string', 'null'], description: 'The earlier host (e-mail).' },
          to: { type: 'string', description: 'The new host (e-mail).' },
          by: { type: 'string', enum: ['sales page', 'operations token', 'the host'] },
          reason: {
            type: 'string',
            enum: ['host-deleted', 'host-declined'],
            description: "Only when by is 'the host': they deleted or declined the event in their calendar.",
          },
        },
      },
    },
  },
};
export const bookingDetailSchema = {
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
    'prospectReply',
    'sequence',
    'createdAt',
    'meetingUrl',
    'host',
    'attribution',
    'anonymisedAt',
    'labelledAnswers',
    'answers',
    'routing',
    'reassignTo',
    'needsNewTime',
    'sms',
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
    prospectReply: {
      type: ['object', 'null'],
      additionalProperties: false,
      required: ['answer', 'at'],
      description:
        "The prospect's answer to the invitation from their calendar, read from the reply mailbox (REPLY_MAILBOX_URL); null until one came. A DECLINED one cancelled the booking.",
      properties: {
        answer: { type: 'string', enum: ['ACCEPTED', 'TENTATIVE', 'DECLINED'] },
        at: { type: 'string', format: 'date-time', description: 'When it was read.' },
      },
    },
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
    labelledAnswers: {
      type: 'array',
      description:
        "The answers in the team file's order, each with its question's label (its id when the file no longer asks it); empty when none were asked.",
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'label', 'answer'],
        properties: { id: { type: 'string' }, label: { type: 'string' }, answer: { type: 'string' } },
      },
    },
    answers: {
      type: ['object', 'null'],
      description: "The prospect's answers to the team file's questions, by question id; null when none were asked.",
      additionalProperties: { type: 'string' },
    },
    routing: routingRecordSchema,
    needsNewTime: needsNewTimeSchema,
    sms: {
      type: ['object', 'null'],
      description:
        "The texts' consent (docs/sms.md): the number in E.164, the words ticked, when, and when the number answered STOP (null: it did not); its texts and what became of them; null without consent.",
      additionalProperties: false,
      required: ['phone', 'consentText', 'consentAt', 'optedOutAt', 'texts', 'delivered', 'failed', 'withheld'],
      properties: {
        phone: { type: 'string' },
        consentText: { type: 'string' },
        consentAt: instantSchema,
        optedOutAt: stringOrNull('When the number answered STOP (date-time), or null.'),
        texts: {
          type: 'array',
          description: 'Its texts stored and not dropped, oldest first.',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['kind', 'sentAt', 'state', 'stateAt'],
            properties: {
              kind: {
                type: 'string',
                enum: ['sms-confirmation', 'sms-update', 'sms-cancellation', 'sms-reminder'],
              },
              sentAt: stringOrNull('When the SMSC took it (date-time), or null.'),
              state: stringOrNull(
                "What its delivery receipt said (delivered, undeliverable, expired, rejected, deleted, accepted, enroute, unknown), 'failed' when the SMSC refused it for good, or null while unknown.",
              ),
              stateAt: stringOrNull('When that state was recorded (date-time), or null.'),
            },
          },
        },
        delivered: { type: 'integer', minimum: 0, description: 'How many of its texts a receipt says delivered.' },
        failed: {
          type: 'integer',
          minimum: 0,
          description: 'How many failed for good: undeliverable, expired, rejected, deleted, or refused by the SMSC.',
        },
        withheld: {
          type: 'array',
          description:
            "Texts a limit held back (docs/sms.md): number-per-day (SMS_PER_NUMBER_PER_DAY), booking-limit (SMS_PER_BOOKING), number-of-another-prospect (the number was texted first that day about another prospect's booking).",
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['kind', 'reason', 'at'],
            properties: {
              kind: { type: 'string' },
              reason: { type: 'string', enum: ['number-per-day', 'booking-limit', 'number-of-another-prospect'] },
              at: instantSchema,
            },
          },
        },
      },
    },
    reassignTo: {
      type: 'array',
      description:
        "The hosts it may be handed to now (POST /api/admin/bookings/{id}/reassign): its route's, or every host of the team without routes, its own host left out; empty when cancelled or without a team.",
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['email', 'name'],
        properties: { email: { type: 'string' }, name: { type: 'string' } },
      },
    },
    history: {
      type: 'array',
      description:
        'Oldest first: booked (at its first slot), each move (from, to), each reassignment (fromHost, toHost), its host withdrawing with nobody free (needs-new-time, fromHost), the cancellation, each mark.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['at', 'what'],
        properties: {
          at: instantSchema,
          what: {
            type: 'string',
            enum: ['booked', 'moved', 'reassigned', 'needs-new-time', 'cancelled', 'attended', 'no_show'],
          },
          timeSlot: { ...instantSchema, description: 'booked: the slot it was booked at.' },
          from: { ...instantSchema, description: 'moved: the slot given up.' },
          to: { ...instantSchema, description: 'moved: the slot taken.' },
          fromHost: { type: 'string', description: "reassigned, needs-new-time: the earlier host's name." },
          toHost: { type: 'string', description: "reassigned: the new host's name." },
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
