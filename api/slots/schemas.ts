/** The slot list's answer as JSON Schema: the OpenAPI document describes it, and the tests hold real answers to it. */
import type { JSONSchemaType } from 'ajv';
import type { DaySlots } from '../../domain/booking.js';

export const daySlotsSchema: JSONSchemaType<DaySlots> = {
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
