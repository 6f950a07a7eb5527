/**
 * The answers to a refused booking or change, in one place: the ceilings' 429 with its Retry-After, the slot's 409,
 * a change's 404, 409 and 410. The rules themselves are the database's (db/functions/booking-rules.sql), which raises each
 * refusal with its reason.
 *
 * EMAILS_PER_RECIPIENT_PER_DAY: how many e-mails the form sends one recipient (in its canonical form, see
 * canonicalRecipient) in 24 hours, whatever their kind: confirmations, updates, cancellations and reminders, each
 * counted from when it is stored, a reminder no longer once a change drops it unsent (the database's
 * recipient_email_ceiling). A booking counts its confirmation and its reminder when one will go, a move its update
 * (its old reminder gives way to the new slot's), a cancellation its own e-mail less the reminder it drops. A booking
 * or change that would pass the ceiling is refused, under the recipient domain's lock, and nothing is stored.
 */
import { SLOT_ALREADY_BOOKED_MESSAGE, SLOT_TAKEN_MESSAGE } from '../../domain/booking.js';
import { ApiError, TooManyRequestsError } from '../errors.js';
import { idempotencyKeyReused } from '../idempotency.js';
import type { ChangeRefusal } from './change-statements.js';
import type { BookingRefusal } from './repository.js';

export const DEFAULT_EMAILS_PER_RECIPIENT_PER_DAY = 10;

const DAY_MS = 86_400_000;

/**
 * When a request a ceiling refused could pass: `freeAt` by the database's clock, which knows the ceilings' window
 * (booking_ceiling_window), and `now` its reading; null: not within a day, so Retry-After says a day.
 */
export interface CeilingReached {
  freeAt: number | null;
  now: number;
}

function retryInMs(reached: CeilingReached): number {
  return reached.freeAt === null ? DAY_MS : Math.max(0, reached.freeAt - reached.now);
}

function waitInWords(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  if (minutes < 90) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return `${Math.round(minutes / 60)} hours`;
}

/** The 429 of a booking (`fields.email`) or of a change to one, with its Retry-After. */
export function emailCeilingError(reached: CeilingReached, during: 'booking' | 'change'): TooManyRequestsError {
  const retryMs = retryInMs(reached);
  const wait = waitInWords(retryMs);
  if (during === 'booking') {
    const details = `This email address has had the most e-mails about demos we send to one address in 24 hours. Please try again in about ${wait}.`;
    return new TooManyRequestsError(details, retryMs, { email: details });
  }
  return new TooManyRequestsError(
    `This booking's email address has had the most e-mails about demos we send to one address in 24 hours, and this change would send another. Nothing was changed. Please try again in about ${wait}, or reply to your confirmation e-mail.`,
    retryMs,
  );
}

/** The answer to a refused booking: the ceiling's 429 with its Retry-After, or the slot's 409 (the honeypot's too). */
export function refusalError(refusal: BookingRefusal): ApiError {
  switch (refusal.reason) {
    case 'email-ceiling': {
      const details = `This email address has already booked ${refusal.count} demos in the last 24 hours, the most we confirm to one address in a day. Please try again later.`;
      return new TooManyRequestsError(details, retryInMs(refusal), { email: details });
    }
    case 'recipient-emails':
      return emailCeilingError(refusal, 'booking');
    case 'domain-ceiling': {
      const details = `Your company's email domain has reached the most demo bookings we take from one domain in 24 hours. Please try again later, or ask a colleague who already booked to add you to their demo.`;
      return new TooManyRequestsError(details, retryInMs(refusal), { email: details });
    }
    case 'already-booked':
      return new ApiError(409, 'Already booked', SLOT_ALREADY_BOOKED_MESSAGE, {
        timeSlot: SLOT_ALREADY_BOOKED_MESSAGE,
      });
    case 'slot-taken':
      return new ApiError(409, 'Slot taken', SLOT_TAKEN_MESSAGE, { timeSlot: SLOT_TAKEN_MESSAGE });
    case 'key-reused':
      return idempotencyKeyReused();
  }
}

export const notFound = () => new ApiError(404, 'Not found', 'There is no booking at this link.');
/** A booking past RETENTION_DAYS: its personal data is gone, and so is what its link showed. */
export const gone = () =>
  new ApiError(
    410,
    'Gone',
    'This demo took place long ago and its details are no longer kept. Please book a new demo from our home page.',
  );

/** The answer to a refused move or cancellation through the booking's link. */
export function changeRefusalError(refusal: ChangeRefusal): ApiError {
  switch (refusal.reason) {
    case 'not-found':
      return notFound();
    case 'gone':
      return gone();
    case 'cancelled':
      return new ApiError(
        409,
        'Booking cancelled',
        'This demo was cancelled, so it cannot be moved. Please book a new demo from our home page.',
      );
    case 'started':
      return new ApiError(
        409,
        'Demo already started',
        'This demo has already started, so it can no longer be changed here.',
      );
    case 'too-many-changes':
      return new ApiError(
        409,
        'Too many changes',
        `This booking has been changed ${refusal.count} times, the most we take through its link. Please reply to your confirmation e-mail and we will find a time with you.`,
      );
    case 'recipient-emails':
      return emailCeilingError(refusal, 'change');
    default:
      return refusalError(refusal);
  }
}
