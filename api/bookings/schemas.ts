/**
 * The bookings' JSON Schemas: the reschedule body Ajv validates (routes.ts), and the answers of a booking (201) and of
 * a booking's link, which the OpenAPI document describes and the tests hold real answers to. The demo request's own
 * schema is domain/demo-request.ts's, shared with the page's form.
 */
import type { JSONSchemaType } from 'ajv';
import {
  TIME_SLOT_SCHEMA,
  type BookingCreated,
  type BookingHost,
  type BookingView,
  type RescheduleInput,
} from '../../domain/demo-request.js';

/** The body of a reschedule: the new slot, under the same rule as a demo request's. */
export const rescheduleSchema: JSONSchemaType<RescheduleInput> = {
  $id: 'reschedule',
  type: 'object',
  additionalProperties: false,
  required: ['timeSlot'],
  properties: { timeSlot: TIME_SLOT_SCHEMA },
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

export const bookingCreatedSchema: JSONSchemaType<BookingCreated> = {
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

export const bookingViewSchema: JSONSchemaType<BookingView> = {
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
