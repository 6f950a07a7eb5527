/**
 * What the operations list (GET /api/admin/bookings) answers and the sales page reads: a booking as the list shows it,
 * the statuses it filters by, a booking's history, its e-mails and its webhook deliveries as its own view shows them.
 */
import type { Attribution } from './attribution.js';
import type { LabelledAnswer, RoutingAnswers, RoutingRecord } from './routing.js';

/** Marked by sales after the demo's time. */
export type Attendance = 'attended' | 'no_show';

/** `booked`: not cancelled and not marked yet; the others as marked, or cancelled. */
export const LIST_STATUSES = ['booked', 'cancelled', 'attended', 'no_show'] as const;
export type ListStatus = (typeof LIST_STATUSES)[number];

export interface BookingSummary {
  id: string;
  name: string;
  email: string;
  company: string;
  /** As the prospect gave them; null when they gave none. */
  phone: string | null;
  message: string | null;
  timeSlot: string;
  status: 'booked' | 'cancelled';
  /** Marked by sales after the demo's time; null until then. */
  attendance: Attendance | null;
  createdAt: string;
  attribution: Attribution | null;
  /** Who gives the demo (with a team); null without one. */
  host: { name: string; email: string } | null;
  /** droppedAt: the booking was moved or cancelled before its confirmation went out, which then never goes. */
  confirmation: {
    sentAt: string | null;
    failedAt: string | null;
    droppedAt: string | null;
    attempts: number;
    lastError: string | null;
  };
  /** When retention removed its personal data (name, e-mail and company are then empty); null until then. */
  anonymisedAt: string | null;
  /** Its host deleted or declined the event and no other host was free: the prospect was asked for a new time. */
  needsNewTime: NeedsNewTime | null;
}

/** Since when a booking needs a new time, and the host's reason (null once the prospect or sales gave it a host). */
export interface NeedsNewTime {
  since: string;
  reason: 'host-deleted' | 'host-declined';
}

/** One step of a booking's life, oldest first. */
export type HistoryEntry =
  | { at: string; what: 'booked'; timeSlot: string }
  | { at: string; what: 'moved'; from: string; to: string }
  | { at: string; what: 'cancelled' }
  /** Sales handed it to another host: their names. */
  | { at: string; what: 'reassigned'; fromHost: string; toHost: string }
  /** Its host deleted or declined the event and no other host was free: their name. */
  | { at: string; what: 'needs-new-time'; fromHost: string }
  | { at: string; what: Attendance };

/** One e-mail of a booking's outbox, and where it stands. */
export interface SentEmail {
  id: string;
  kind: string;
  /** The row's own recipient (the sales desk, a host); null: the prospect. */
  recipient: string | null;
  createdAt: string;
  dueAt: string;
  sentAt: string | null;
  failedAt: string | null;
  droppedAt: string | null;
  attempts: number;
  lastError: string | null;
}

/** One try of a webhook delivery, as the delivery log and a booking's view show it. */
export interface WebhookAttemptView {
  attemptedAt: string;
  status: number | null;
  durationMs: number;
  responseExcerpt: string | null;
  error: string | null;
}

/** A webhook delivery with its latest tries, as the delivery log and a booking's view show it. */
export interface WebhookDeliveryView {
  id: string;
  eventId: string;
  eventType: string;
  bookingId: string;
  endpointId: string;
  createdAt: string;
  attempts: number;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  exhaustedAt: string | null;
  lastStatus: number | null;
  lastError: string | null;
  log: WebhookAttemptView[];
}

/** One booking as its view shows it (GET /api/admin/bookings/:id), with its history, e-mails and webhook deliveries. */
/** The prospect's answer from their calendar, and when it was read; a Decline cancelled the booking. */
export interface ProspectReply {
  answer: 'ACCEPTED' | 'TENTATIVE' | 'DECLINED';
  at: string;
}

/**
 * What became of a text: the receipt's word (delivered, undeliverable, expired, rejected, …), 'failed' when the SMSC
 * refused it for good, or null while unknown (not sent yet, or no receipt yet).
 */
export interface TextView {
  kind: string;
  sentAt: string | null;
  state: string | null;
  stateAt: string | null;
}

/** The states that end a text undelivered (as sms_outcome_event in db/functions/sms.sql reads them). */
export const TEXT_FAILED_STATES: readonly string[] = ['undeliverable', 'expired', 'rejected', 'deleted', 'failed'];

/** Why a text was not stored (docs/sms.md, "Limits"). */
export type TextWithheldReason = 'number-per-day' | 'booking-limit' | 'number-of-another-prospect';

export interface SmsView {
  phone: string;
  consentText: string;
  consentAt: string;
  optedOutAt: string | null;
  /** Its texts stored and not dropped, oldest first. */
  texts: TextView[];
  /** How many of them a receipt says delivered. */
  delivered: number;
  /** How many of them failed for good (undeliverable, expired, rejected, deleted, or refused by the SMSC). */
  failed: number;
  /** The texts a limit held back, oldest first. */
  withheld: { kind: string; reason: TextWithheldReason; at: string }[];
}

export interface BookingDetail {
  id: string;
  name: string;
  email: string;
  company: string;
  phone: string | null;
  message: string | null;
  timeSlot: string;
  status: 'booked' | 'cancelled';
  attendance: Attendance | null;
  attendanceMarkedAt: string | null;
  /** The prospect's answer to the invitation in their calendar (an iTIP REPLY read from the reply mailbox), or null. */
  prospectReply: ProspectReply | null;
  sequence: number;
  createdAt: string;
  meetingUrl: string | null;
  host: { name: string; title: string; email: string } | null;
  attribution: Attribution | null;
  anonymisedAt: string | null;
  /** The answers with their questions' labels, in the team file's order; empty when none were asked. */
  labelledAnswers: LabelledAnswer[];
  /** The prospect's answers to the team file's questions; null when none were asked. */
  answers: RoutingAnswers | null;
  /** How its host was chosen (the route, the owner, each candidate), and each reassignment; null without a team. */
  routing: RoutingRecord | null;
  /** The hosts it may be handed to now (its route's, or every host without routes), its own host left out. */
  reassignTo: { email: string; name: string }[];
  needsNewTime: NeedsNewTime | null;
  /** The texts' consent (the number in E.164, the words, when), the number's STOP and its texts; null without consent. */
  sms: SmsView | null;
  history: HistoryEntry[];
  emails: SentEmail[];
  webhookDeliveries: WebhookDeliveryView[];
}
