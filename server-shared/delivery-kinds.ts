/**
 * The registry of delivery kinds, its data part: for each kind of outbox row, the channel it goes by, to whom, when it
 * is sent, the ordered line it belongs to and how it is tried again. The API reads it to know which rows it enqueues
 * after the commit; the worker's half (worker/kind-writers.ts) adds to each line the template that writes it and the
 * rule that says whether it still tells the truth. Adding a kind: its line here, its writer, its template. No
 * migration: the table does not list the kinds.
 */

/** How a delivery travels: an e-mail over SMTP, a write into a host's calendar over CalDAV, a signed POST, a text over SMPP. */
export type Channel = 'email' | 'calendar' | 'webhook' | 'sms';

/**
 * Rows of the kinds of one `order` group about one booking and to one recipient go out in the order of the booking's
 * changes. 'prospect', 'host-calendar': a later one waits while an earlier one is in flight, and drops earlier ones not
 * yet claimed (the later change tells where the booking stands). 'endpoint': a webhook event waits for every earlier
 * event of its booking to reach the endpoint, and drops none (each is an event of its own). 'phone': the texts to the
 * prospect's phone, kept as the prospect's e-mails are (a cancel's note is the last the phone receives).
 */
export type OrderGroup = 'prospect' | 'host-calendar' | 'endpoint' | 'phone';

/**
 * How each order group keeps its line. 'change': rows in the order of the booking's changes (their sequence); an
 * earlier row not yet claimed is dropped, and one in flight is waited for (a lease at most: the job looks again
 * shortly). 'event': rows in the order of the booking's events (their position); none is dropped, and a row waits for
 * every earlier one to be delivered, whose delivery hands the turn on (enqueues the next).
 */
export const ORDER_GROUPS: Readonly<Record<OrderGroup, { by: 'change' | 'event' }>> = {
  prospect: { by: 'change' },
  'host-calendar': { by: 'change' },
  endpoint: { by: 'event' },
  phone: { by: 'change' },
};

/**
 * How a failed try is tried again. 'backoff': the queue's retries with exponential backoff, then the sweep, until
 * `maxAttempts` failed tries; 'window': the next try queued at its time, doubling with jitter and never before the
 * receiver's Retry-After, for a whole window (worker/retry-window.ts), then given up and its endpoint marked failing.
 */
export type RetryPolicy = { policy: 'backoff'; maxAttempts: number } | { policy: 'window' };

export interface DeliveryKindData {
  channel: Channel;
  /**
   * 'prospect': the booking's prospect (the row has no recipient of its own);
   * 'row': the row's recipient (the sales desk, a host), replies going to the prospect;
   * 'endpoint': the row's webhook endpoint.
   */
  to: 'prospect' | 'row' | 'endpoint';
  /** 'at once': the API enqueues the row, the sweep steps in after its grace period; 'when due': the sweep at due_at. */
  sent: 'at once' | 'when due';
  order?: OrderGroup;
  /** A row given up stays, with its last error, for operations (and a webhook's for a replay). */
  retry: RetryPolicy;
}

export interface EmailKindData extends DeliveryKindData {
  channel: 'email';
  /** The METHOD of the .ics and of its `text/calendar` part (RFC 6047); null: the message carries no event. */
  method: 'REQUEST' | 'CANCEL' | 'PUBLISH' | null;
  /** 'invitation': the event as the message's calendar part, which a calendar acts on; 'file': an attachment to import. */
  calendarAs: 'invitation' | 'file';
  /** The name its recipient is addressed by, for a row's recipient who is not the booking's host. */
  recipientName?: string;
}

export interface CalendarKindData extends DeliveryKindData {
  channel: 'calendar';
  to: 'row';
}

export interface WebhookKindData extends DeliveryKindData {
  channel: 'webhook';
  to: 'endpoint';
  order: 'endpoint';
}

/** A text to the number the prospect consented to (the row's recipient, in E.164), over SMPP. */
export interface SmsKindData extends DeliveryKindData {
  channel: 'sms';
  to: 'row';
  order: 'phone';
}

/** After this many failed sends of an e-mail the sweep leaves its row alone. */
export const MAX_EMAIL_ATTEMPTS = 20;

const backoff = { policy: 'backoff', maxAttempts: MAX_EMAIL_ATTEMPTS } as const;
const prospectEmail = { channel: 'email', to: 'prospect', order: 'prospect', retry: backoff } as const;
const hostEmail = { channel: 'email', to: 'row', retry: backoff } as const;
const text = { channel: 'sms', to: 'row', order: 'phone', retry: backoff } as const;

export const DELIVERY_KINDS = {
  confirmation: { ...prospectEmail, method: 'REQUEST', calendarAs: 'invitation', sent: 'at once' },
  update: { ...prospectEmail, method: 'REQUEST', calendarAs: 'invitation', sent: 'at once' },
  cancellation: { ...prospectEmail, method: 'CANCEL', calendarAs: 'invitation', sent: 'at once' },
  // The host withdrew and no other host was free: an apology with the link to choose a new time, the event withdrawn
  // until the prospect picks one (their new time's update is the same event again, at a higher SEQUENCE).
  'new-time-needed': { ...prospectEmail, method: 'CANCEL', calendarAs: 'invitation', sent: 'at once' },
  reminder: { ...prospectEmail, method: null, calendarAs: 'invitation', sent: 'when due' },
  'sales-notice': { ...hostEmail, recipientName: 'Sales', method: 'PUBLISH', calendarAs: 'file', sent: 'at once' },
  'host-invitation': { ...hostEmail, method: 'REQUEST', calendarAs: 'invitation', sent: 'at once' },
  'host-cancellation': { ...hostEmail, method: 'CANCEL', calendarAs: 'invitation', sent: 'at once' },
  'host-calendar': {
    channel: 'calendar',
    to: 'row',
    order: 'host-calendar',
    sent: 'at once',
    retry: backoff,
  },
  // One endpoint's copy of one event (db/functions/webhooks.sql stores a row per endpoint that takes events).
  webhook: { channel: 'webhook', to: 'endpoint', order: 'endpoint', sent: 'at once', retry: { policy: 'window' } },
  // The texts of a booking whose prospect consented (SMPP_URL set): stored only for a booking with a consented number.
  'sms-confirmation': { ...text, sent: 'at once' },
  'sms-update': { ...text, sent: 'at once' },
  'sms-cancellation': { ...text, sent: 'at once' },
  'sms-reminder': { ...text, sent: 'when due' },
} as const satisfies Record<string, EmailKindData | CalendarKindData | WebhookKindData | SmsKindData>;

export type DeliveryKind = keyof typeof DELIVERY_KINDS;

/** The kinds, in the registry's order. */
export const DELIVERY_KIND_NAMES = Object.keys(DELIVERY_KINDS) as DeliveryKind[];

/** Whether `kind` (as a row says it) is one this build knows. */
export function isDeliveryKind(kind: string): kind is DeliveryKind {
  return Object.hasOwn(DELIVERY_KINDS, kind);
}

/** Whether the API enqueues a row of this kind as soon as it is stored (otherwise the sweep does, when it is due). */
export function sentAtOnce(kind: DeliveryKind): boolean {
  return DELIVERY_KINDS[kind].sent === 'at once';
}
