/**
 * Webhooks (the Standard Webhooks specification, standardwebhooks.com): the events, the payload every try of one sends
 * (built by webhook_raise in db/functions/webhooks.sql at the change), its JSON Schema (the OpenAPI document's
 * `webhooks` section and the tests read this one), and the endpoints' signing secrets.
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { ATTRIBUTION_KEYS } from '../domain/attribution.js';
import { ConfigError, setting, type Env } from './settings.js';
import { withTimeout } from './time-limits.js';
import { TargetRefused, TargetUnresolved, checkTargetUrl, resolveTarget } from './webhook-targets.js';

/**
 * What a receiver is told. `booking.attended` and `booking.no_show` are marked by sales after the demo (the sales
 * page); the booking's own changes raise the other booking events; a text's receipt or refusal the `sms` ones.
 */
export const WEBHOOK_EVENT_TYPES = [
  'booking.created',
  'booking.rescheduled',
  'booking.cancelled',
  'booking.attended',
  'booking.no_show',
  'booking.reassigned',
  'booking.needs-new-time',
  'booking.accepted',
  'sms.delivered',
  'sms.failed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const WEBHOOK_EVENT_DESCRIPTIONS: Record<WebhookEventType, string> = {
  'booking.created': 'A demo was booked.',
  'booking.rescheduled':
    'A booking was moved to another slot (previousTimeSlot is the one given up); its host may have changed.',
  'booking.cancelled': 'A booking was cancelled; its slot is free again.',
  'booking.attended': 'Sales marked the demo as held, after its time.',
  'booking.no_show': 'Sales marked the demo as missed by the prospect, after its time.',
  'booking.reassigned':
    'The demo was handed to another host (previousHost is the one it was taken from; reason: sales, or host-deleted / host-declined when its host deleted or declined the event in their calendar).',
  'booking.needs-new-time':
    'Its host deleted or declined the event in their calendar and no other host of its route was free: the booking has no host and the prospect was asked to choose a new time (reason, previousHost).',
  'booking.accepted':
    'The prospect answered the invitation from their calendar: partstat is ACCEPTED or TENTATIVE (a Decline cancels: booking.cancelled with reason declined).',
  'sms.delivered': "A text to the prospect's phone was delivered, as its delivery receipt says (text).",
  'sms.failed':
    "A text to the prospect's phone will not arrive: its receipt says undeliverable, expired, rejected or deleted, or the SMSC refused it for good (state failed) (text).",
};

/** The text an `sms.*` event is about, as the booking's detail shows its texts. */
export interface WebhookText {
  kind: string;
  /** When the SMSC took it (ISO 8601 instant), or null when it refused it. */
  sentAt: string | null;
  /** The receipt's word, or 'failed' when refused for good. */
  state: string;
  stateAt: string | null;
}

export interface WebhookBooking {
  id: string;
  status: string;
  /** Marked by sales after the demo: attended or no_show; null until then. */
  attendance: 'attended' | 'no_show' | null;
  /** The slot (ISO 8601 instant). */
  timeSlot: string;
  /** How many times it was changed (moves and the cancellation): the calendar event's SEQUENCE. */
  sequence: number;
  createdAt: string;
  name: string;
  email: string;
  company: string;
  phone: string | null;
  message: string | null;
  meetingUrl: string | null;
}

export interface WebhookEventPayload {
  /** The event's id, the same as the webhook-id header and the same on every try of it. */
  id: string;
  type: WebhookEventType;
  /** When the change happened (ISO 8601 instant). */
  timestamp: string;
  data: {
    booking: WebhookBooking;
    host: { name: string; title: string; email: string } | null;
    attribution: Partial<Record<(typeof ATTRIBUTION_KEYS)[number], string>> | null;
    /** Only for booking.rescheduled: the slot given up. */
    previousTimeSlot?: string;
    /** Only for booking.reassigned: the host it was taken from, or null when it had none. */
    previousHost?: { name: string; title: string; email: string } | null;
    /**
     * booking.reassigned: 'sales', 'host-deleted' or 'host-declined'; booking.needs-new-time: the host's; booking.cancelled
     * by the prospect's Decline in their calendar: 'declined'.
     */
    reason?: string;
    /** Only for booking.accepted: the prospect's answer in their calendar. */
    partstat?: 'ACCEPTED' | 'TENTATIVE';
    /** Only for sms.delivered and sms.failed: the text. */
    text?: WebhookText;
    /** The prospect's answers to the team file's questions, by question id, when they were asked. */
    answers?: Record<string, string>;
    /** The route that chose its host, with a team: its index in the team file's routes (null without routes) and label. */
    route?: { rule: number | null; label: string };
  };
}

const text = (description?: string) => ({ type: 'string', ...(description ? { description } : {}) });
const instant = (description: string) => ({ type: 'string', format: 'date-time', description });
const textOrNull = (description: string) => ({ type: ['string', 'null'], description });

const hostSchema = (description: string) => ({
  type: ['object', 'null'],
  additionalProperties: false,
  required: ['name', 'title', 'email'],
  description,
  properties: { name: text(), title: text(), email: text() },
});

/** The payload's JSON Schema (2020-12, as OpenAPI 3.1 has it); `type` narrowed to one event for each webhook. */
export function webhookEventSchema(type?: WebhookEventType): Record<string, unknown> {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'type', 'timestamp', 'data'],
    description: type ? WEBHOOK_EVENT_DESCRIPTIONS[type] : 'A webhook event about a booking.',
    properties: {
      id: {
        type: 'string',
        format: 'uuid',
        description: 'The event id: also the webhook-id header; the same on every try, so receivers can drop repeats.',
      },
      type: type ? { const: type } : { enum: [...WEBHOOK_EVENT_TYPES] },
      timestamp: instant('When the change happened.'),
      data: {
        type: 'object',
        additionalProperties: false,
        required: ['booking', 'host', 'attribution'],
        properties: {
          booking: {
            type: 'object',
            additionalProperties: false,
            required: [
              'id',
              'status',
              'attendance',
              'timeSlot',
              'sequence',
              'createdAt',
              'name',
              'email',
              'company',
              'phone',
              'message',
              'meetingUrl',
            ],
            properties: {
              id: { type: 'string', format: 'uuid' },
              status: { type: 'string', enum: ['booked', 'cancelled'] },
              attendance: {
                type: ['string', 'null'],
                enum: ['attended', 'no_show', null],
                description: 'Marked by sales after the demo (booking.attended, booking.no_show); null until then.',
              },
              timeSlot: instant("The demo's slot (the hour from it)."),
              sequence: {
                type: 'integer',
                minimum: 0,
                description:
                  'Changes so far (moves and the cancellation): later events of a booking carry higher or equal ones.',
              },
              createdAt: instant('When it was booked.'),
              name: text(),
              email: text("The prospect's address as typed."),
              company: text(),
              phone: textOrNull('As typed, or null.'),
              message: textOrNull('As typed, or null.'),
              meetingUrl: textOrNull('The video room.'),
            },
          },
          host: hostSchema('Who gives the demo (with a team, TEAM_FILE), or null.'),
          attribution: {
            type: ['object', 'null'],
            additionalProperties: false,
            description: 'Where the visit that booked came from (UTM parameters and referrer), or null.',
            properties: Object.fromEntries(ATTRIBUTION_KEYS.map((key) => [key, text()])),
          },
          previousTimeSlot: instant('booking.rescheduled only: the slot given up.'),
          previousHost: hostSchema(
            'booking.reassigned and booking.needs-new-time only: the host the demo was taken from, or null.',
          ),
          reason: text(
            "booking.reassigned: 'sales' (the sales page or the operations token), 'host-deleted' or 'host-declined' (its host deleted or declined the event in their calendar); booking.needs-new-time: the host's ('host-deleted' or 'host-declined'); booking.cancelled by the prospect's Decline in their calendar: 'declined'.",
          ),
          partstat: {
            type: 'string',
            enum: ['ACCEPTED', 'TENTATIVE'],
            description: "booking.accepted only: the prospect's answer to the invitation in their calendar.",
          },
          text: {
            type: 'object',
            additionalProperties: false,
            required: ['kind', 'sentAt', 'state', 'stateAt'],
            description: "sms.delivered and sms.failed only: the text, as the booking's detail shows its texts.",
            properties: {
              kind: { type: 'string', enum: ['sms-confirmation', 'sms-update', 'sms-cancellation', 'sms-reminder'] },
              sentAt: textOrNull('When the SMSC took it; null when it refused it.'),
              state: text(
                "What its delivery receipt said (delivered, undeliverable, expired, rejected, deleted), or 'failed' when the SMSC refused it for good.",
              ),
              stateAt: textOrNull('When that state was recorded.'),
            },
          },
          answers: {
            type: 'object',
            description:
              "The prospect's answers to the team file's questions, by question id; present when questions were asked.",
            additionalProperties: text(),
          },
          route: {
            type: 'object',
            additionalProperties: false,
            required: ['rule', 'label'],
            description: 'The route that chose the host; present with a team.',
            properties: {
              rule: {
                type: ['integer', 'null'],
                description: "Its index in the team file's routes, from 0; null when the file has none (every host).",
              },
              label: text("The route's label, or what it matches."),
            },
          },
        },
      },
    },
  };
}

const SECRET_PREFIX = 'whsec_';
/** The specification asks for keys of 24 to 64 bytes. */
const SECRET_MIN_BYTES = 24;
const SECRET_MAX_BYTES = 64;

/**
 * A signing secret as the specification writes it: `whsec_` and the key in base64 (24 to 64 bytes). `name` names
 * the setting or field in the error.
 */
export function parseWebhookSecret(name: string, value: string): string {
  const encoded = value.startsWith(SECRET_PREFIX) ? value.slice(SECRET_PREFIX.length) : undefined;
  const bytes =
    encoded !== undefined && /^[A-Za-z0-9+/]+={0,2}$/.test(encoded) && encoded.length % 4 === 0
      ? Buffer.from(encoded, 'base64').length
      : 0;
  if (bytes < SECRET_MIN_BYTES || bytes > SECRET_MAX_BYTES) {
    throw new ConfigError(
      `${name} must be whsec_ followed by ${SECRET_MIN_BYTES} to ${SECRET_MAX_BYTES} random bytes in base64, as the Standard Webhooks specification gives it; make one with: echo "whsec_$(openssl rand -base64 32)"`,
    );
  }
  return value;
}

/** A message signed as a webhook is: the webhooks' events, and the owner lookup's questions (api/routing/). */
export interface SignedMessage {
  /** The webhook-id header: an event's id, or a question's. */
  id: string;
  /** The exact bytes signed and sent. */
  body: string;
  timestamp: Date;
}

/** The headers that sign `message` with `secret` (webhook-id, webhook-timestamp, webhook-signature), and its type. */
export function signedHeaders(secret: string, message: SignedMessage): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'Converge-Webhooks/1',
    'webhook-id': message.id,
    'webhook-timestamp': String(Math.floor(message.timestamp.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(message.id, message.timestamp, message.body),
  };
}

/** A new secret for an endpoint added without one: 32 random bytes. */
export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** WEBHOOK_ALLOW_PRIVATE: true allows http:// and private addresses; anything but true or false is refused. */
export function parseAllowPrivate(value: string | undefined): boolean {
  if (value === undefined || /^(false|no|off|0)$/i.test(value)) return false;
  if (/^(true|yes|on|1)$/i.test(value)) return true;
  throw new ConfigError(`WEBHOOK_ALLOW_PRIVATE must be true or false, got "${value}"`);
}

/** The endpoint of WEBHOOK_URL and WEBHOOK_SECRET, which go together. */
export interface EnvironmentEndpoint {
  url: string;
  secret: string;
}

export interface WebhookSettings {
  /** WEBHOOK_URL with WEBHOOK_SECRET; unset: none from the environment (the admin API may still add some). */
  endpoint: EnvironmentEndpoint | undefined;
  allowPrivate: boolean;
}

/**
 * WEBHOOK_URL, WEBHOOK_SECRET and WEBHOOK_ALLOW_PRIVATE, checked at start-up with errors that say what to do: a URL
 * every try would refuse (its scheme, credentials, a literal address not globally reachable) stops it here; its
 * name's addresses are checked by checkWebhookUrlAddresses once the program starts.
 */
export function parseWebhookSettings(env: Env): WebhookSettings {
  const allowPrivate = parseAllowPrivate(setting(env, 'WEBHOOK_ALLOW_PRIVATE'));
  const url = setting(env, 'WEBHOOK_URL');
  const secret = setting(env, 'WEBHOOK_SECRET');
  if (url === undefined && secret === undefined) return { endpoint: undefined, allowPrivate };
  if (url === undefined) throw new ConfigError('WEBHOOK_SECRET is set without WEBHOOK_URL: set both, or neither');
  if (secret === undefined)
    throw new ConfigError(
      `WEBHOOK_URL is set without WEBHOOK_SECRET; make one with: echo "whsec_$(openssl rand -base64 32)"`,
    );
  try {
    checkTargetUrl(url, allowPrivate);
  } catch (err) {
    if (err instanceof TargetRefused) throw new ConfigError(`WEBHOOK_URL: ${err.message}, got "${url}"`);
    throw err;
  }
  return { endpoint: { url, secret: parseWebhookSecret('WEBHOOK_SECRET', secret) }, allowPrivate };
}

/** How long start-up waits for WEBHOOK_URL's name to resolve before going on with a warning. */
export const WEBHOOK_URL_RESOLVE_WAIT_MS = 5000;

/**
 * WEBHOOK_URL's name resolved once at start-up and judged as each try judges it: an address a try would refuse stops
 * start-up (a ConfigError naming WEBHOOK_URL, as a bad setting does), since every try for a day would fail. A name
 * that cannot be resolved now is not known to be wrong (DNS may be briefly down): the warning to log is returned.
 */
export async function checkWebhookUrlAddresses(
  settings: WebhookSettings,
  waitMs = WEBHOOK_URL_RESOLVE_WAIT_MS,
): Promise<string | undefined> {
  if (!settings.endpoint) return undefined;
  const { url } = settings.endpoint;
  try {
    await withTimeout(
      resolveTarget(checkTargetUrl(url, settings.allowPrivate), settings.allowPrivate),
      waitMs,
      'resolving its name',
    );
    return undefined;
  } catch (err) {
    if (err instanceof TargetUnresolved || !(err instanceof TargetRefused)) {
      return `WEBHOOK_URL: ${err instanceof Error ? err.message : String(err)}; starting anyway, and each delivery resolves it again (got "${url}")`;
    }
    throw new ConfigError(`WEBHOOK_URL: ${err.message}, got "${url}"`);
  }
}
