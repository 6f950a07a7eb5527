/** The funnel's JSON Schemas: the beacon Ajv validates (routes.ts), and the report the admin read answers. */
import type { JSONSchemaType } from 'ajv';
import {
  COUNTED_STEPS,
  FUNNEL_SOURCE_MAX_LENGTH,
  FUNNEL_SOURCE_SENT_MAX_LENGTH,
  FUNNEL_STEPS,
  type FunnelBeacon,
  type FunnelStep,
} from '../../domain/funnel.js';
import { stringOrNull } from '../openapi-parts.js';

export const funnelBeaconSchema: JSONSchemaType<FunnelBeacon> = {
  type: 'object',
  additionalProperties: false,
  required: ['step'],
  properties: {
    step: { type: 'string', enum: [...FUNNEL_STEPS] as FunnelStep[] },
    source: {
      type: 'string',
      nullable: true,
      maxLength: FUNNEL_SOURCE_SENT_MAX_LENGTH,
      description: `The visit's utm_source. Counted lower case when known (listed in FUNNEL_SOURCES, or carried by a stored booking); one that is not known, or not letters, digits, '.', '-' and '_' up to ${FUNNEL_SOURCE_MAX_LENGTH} characters, is counted as 'other'.`,
    },
  },
};

const stepCounts = {
  type: 'object',
  additionalProperties: false,
  required: [...COUNTED_STEPS],
  properties: Object.fromEntries(COUNTED_STEPS.map((step) => [step, { type: 'integer', minimum: 0 }])),
};
const funnelSourceProperty = stringOrNull(
  "The utm_source as counted (lower case; 'other' for one that is not a short plain name, or, in the days' counts, one not known: listed in FUNNEL_SOURCES or carried by a stored booking); null: the visit had none.",
);
/** Not typed against FunnelReport: Ajv's JSONSchemaType cannot spell a required value that may be null (`source`). */
export const funnelReportSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['from', 'to', 'steps', 'days', 'attendance'],
  properties: {
    from: { type: 'string', format: 'date' },
    to: { type: 'string', format: 'date' },
    steps: {
      type: 'array',
      items: { type: 'string', enum: [...COUNTED_STEPS] },
      description:
        "The steps in the order a visitor takes them, then those the API counts itself ('disqualified': turned away by the team file's routes).",
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
