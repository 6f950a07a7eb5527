/**
 * The demo request as the API receives it: one JSON Schema for Ajv, its type, its fields' labels and limits.
 * The browser uses this file too, so it stays free of the e-mail domain lists (see api/bookings/demo-request-rules.ts).
 */
import type { JSONSchemaType } from 'ajv';
import { ATTRIBUTION_MAX_LENGTH, type Attribution } from './attribution.js';
import { knownTimeZone } from './booking.js';
import { EMAIL_MAX_LENGTH } from './email-messages.js';
import { ROUTING_ANSWERS_SCHEMA, type RoutingAnswers } from './routing.js';
import { multiLine, nameText, singleLine } from './text.js';

export const NAME_MAX_LENGTH = 200;
export const COMPANY_MAX_LENGTH = 200;
export const PHONE_MAX_LENGTH = 40;
export const MESSAGE_MAX_LENGTH = 5000;

export interface DemoRequestInput {
  name: string;
  email: string;
  company: string;
  timeSlot: string;
  phone?: string;
  /**
   * The visitor ticked SMS_CONSENT_TEXT: the phone (then required, and a mobile number) may receive the booking's
   * texts. Shown, and taken, only when the site sends texts.
   */
  smsConsent?: boolean;
  message?: string;
  /** Sent by the page, not typed by the visitor. */
  attribution?: Attribution;
  /**
   * Sent by the page: the visitor's own time zone as the browser knows it (IANA), so that the e-mails show the slot
   * in it too. A zone this server does not know is left out, not refused.
   */
  visitorTimeZone?: string;
  /**
   * The answers to the team file's questions (domain/routing.ts), by question id: chosen by the visitor, checked by
   * the API against the file's options, and what the routes read.
   */
  answers?: RoutingAnswers;
}

/** The answer to a booking (201). */
export interface BookingCreated {
  id: string;
  createdAt: string;
  timeSlot: string;
  /** Where the booking's calendar event downloads: a path on this site, behind the booking's signed token. */
  invitePath: string;
  /** The demo's video room. */
  meetingUrl: string;
  /** Who gives the demo; only when the team's calendars choose a host (TEAM_FILE). */
  host?: BookingHost;
}

/** The person a prospect will meet. */
export interface BookingHost {
  name: string;
  title: string;
}

/** What the page adds to a request, which the visitor does not type, and the answers, which have their own step. */
const PAGE_FIELDS = ['attribution', 'visitorTimeZone', 'answers'] as const;
type PageField = (typeof PAGE_FIELDS)[number];
const isPageField = (key: string): key is PageField => (PAGE_FIELDS as readonly string[]).includes(key);

/** The fields a visitor fills in. */
export type DemoRequestField = Exclude<keyof DemoRequestInput, PageField>;

/**
 * The form's honeypot: a field people never see. A request that fills it is answered like any other and dropped.
 * It is not part of the schema: the API looks at it before validation and then removes it.
 */
export const HONEYPOT_FIELD = 'website';

/** Sent with each submission (the same value when the same submission is retried): the API answers it once. */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_.:-]{8,255}$/;

/** Longer than any IANA zone's name. */
export const TIME_ZONE_MAX_LENGTH = 64;

/** A slot as the API takes it: an ISO 8601 instant, checked against the booking rules after the schema. */
export const TIME_SLOT_SCHEMA = { type: 'string', minLength: 1, maxLength: 64 } as const;

/**
 * The one description of a demo request: Ajv validates with it, and the field lists below come from it. An optional
 * field is `nullable` because that is how Ajv's types spell "may be absent"; normalising drops an empty or null one.
 */
export const demoRequestSchema: JSONSchemaType<DemoRequestInput> = {
  $id: 'demo-request',
  type: 'object',
  additionalProperties: false,
  required: ['name', 'email', 'company', 'timeSlot'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: NAME_MAX_LENGTH },
    email: { type: 'string', minLength: 1, maxLength: EMAIL_MAX_LENGTH },
    company: { type: 'string', minLength: 1, maxLength: COMPANY_MAX_LENGTH },
    timeSlot: TIME_SLOT_SCHEMA,
    phone: { type: 'string', maxLength: PHONE_MAX_LENGTH, nullable: true },
    smsConsent: { type: 'boolean', nullable: true },
    message: { type: 'string', maxLength: MESSAGE_MAX_LENGTH, nullable: true },
    attribution: {
      type: 'object',
      nullable: true,
      additionalProperties: false,
      required: [],
      properties: {
        utm_source: { type: 'string', maxLength: ATTRIBUTION_MAX_LENGTH, nullable: true },
        utm_medium: { type: 'string', maxLength: ATTRIBUTION_MAX_LENGTH, nullable: true },
        utm_campaign: { type: 'string', maxLength: ATTRIBUTION_MAX_LENGTH, nullable: true },
        utm_term: { type: 'string', maxLength: ATTRIBUTION_MAX_LENGTH, nullable: true },
        utm_content: { type: 'string', maxLength: ATTRIBUTION_MAX_LENGTH, nullable: true },
        referrer: { type: 'string', maxLength: ATTRIBUTION_MAX_LENGTH, nullable: true },
      },
    },
    visitorTimeZone: { type: 'string', maxLength: TIME_ZONE_MAX_LENGTH, nullable: true },
    answers: ROUTING_ANSWERS_SCHEMA,
  },
};

/** The fields a visitor fills in, in the order the form shows them: the schema's order. */
export const DEMO_REQUEST_FIELDS = Object.keys(demoRequestSchema.properties ?? {}).filter(
  (key) => !isPageField(key),
) as readonly DemoRequestField[];
export const REQUIRED_FIELDS: readonly DemoRequestField[] = demoRequestSchema.required;
export const OPTIONAL_FIELDS: readonly DemoRequestField[] = DEMO_REQUEST_FIELDS.filter(
  (field) => !REQUIRED_FIELDS.includes(field),
);

/** The words of the texts' consent, as the dialog shows them and the booking keeps them. */
export const SMS_CONSENT_TEXT = 'Text me a confirmation and a reminder';

/** Beside the phone, when the consent is ticked without a number. */
export const SMS_PHONE_REQUIRED = 'Please enter the mobile number to text.';

export const fieldLabels: Record<DemoRequestField, string> = {
  name: 'Name',
  email: 'Email',
  company: 'Company',
  timeSlot: 'Date & time',
  phone: 'Phone',
  smsConsent: SMS_CONSENT_TEXT,
  message: 'Message',
};

export const requiredMessage = (field: DemoRequestField): string =>
  field === 'timeSlot' ? 'Please select a date and time.' : `${fieldLabels[field]} is required.`;

/**
 * Trims every top-level string so that white space alone counts as empty, folds control characters
 * (which PostgreSQL may refuse, and which could break an e-mail header), puts the name and company in the form the
 * link rules check and the e-mails show (nameText: NFKC, no invisible character) and drops empty optional fields.
 * Anything that is not a plain object is returned as it is, for the schema to refuse.
 */
export function normaliseDemoRequestBody(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const normalised: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (key === 'attribution') {
      const attribution = normaliseAttribution(value);
      if (attribution !== undefined) normalised[key] = attribution;
      continue;
    }
    if (key === 'visitorTimeZone') {
      // Within the schema's length, a zone is kept as the platform spells it (so the e-mails meet a bounded set of
      // names), and one it does not know, or none, is dropped; anything else is the schema's to refuse.
      if (typeof value === 'string' && value.length <= TIME_ZONE_MAX_LENGTH) {
        const zone = value.trim() === '' ? undefined : knownTimeZone(value.trim());
        if (zone !== undefined) normalised[key] = zone;
      } else if (value !== null) normalised[key] = value;
      continue;
    }
    // The consent is a tick or nothing: an unticked box is no consent, as an absent one is.
    if (key === 'smsConsent') {
      if (value !== false && value !== null) normalised[key] = value;
      continue;
    }
    // The e-mail address is only trimmed: an invisible character in it is refused by the e-mail rules, not hidden.
    // The name and company become what the link rules read and the e-mails show (NFKC, nothing invisible).
    const trimmed =
      typeof value !== 'string'
        ? value
        : key === 'message'
          ? multiLine(value)
          : key === 'email'
            ? value.trim()
            : key === 'name' || key === 'company'
              ? nameText(value)
              : singleLine(value);
    if (OPTIONAL_FIELDS.includes(key as DemoRequestField) && (trimmed === '' || trimmed === null)) continue;
    normalised[key] = trimmed;
  }
  return normalised;
}

/** One-line values, the empty ones dropped, and no attribution at all when nothing is left; a non-object is the schema's. */
function normaliseAttribution(value: unknown): unknown {
  if (value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) return value;
  const kept = Object.entries(value)
    .map(([key, inner]) => [key, typeof inner === 'string' ? singleLine(inner) : inner] as const)
    .filter(([, inner]) => inner !== '' && inner !== null);
  return kept.length > 0 ? Object.fromEntries(kept) : undefined;
}

/** A booking as its link shows it (GET /api/bookings/{token}, and the answer to a reschedule or a cancel). */
export interface BookingView {
  timeSlot: string;
  status: 'booked' | 'cancelled';
  name: string;
  company: string;
  /** The demo's video room; absent for a booking made before rooms were given. */
  meetingUrl?: string;
  /** Who gives the demo; absent without a team. */
  host?: BookingHost;
}

/** The body of a reschedule: the new slot, under the same rule as a demo request's (api/bookings/schemas.ts). */
export interface RescheduleInput {
  timeSlot: string;
}
