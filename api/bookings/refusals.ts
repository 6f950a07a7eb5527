/**
 * The answers to a refused booking or change, in one place: the ceilings' 429 with its Retry-After, the slot's 409.
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
import type { BookingRefusal } from './repository.js';

export const DEFAULT_EMAILS_PER_RECIPIENT_PER_DAY = 10;

const DAY_MS = 86_400_000;

/** When a refused request could pass: `freeAt` by the database's clock, `now` its reading (null: not within a day). */
export interface EmailCeilingReached {
  freeAt: number | null;
  now: number;
}

function waitInWords(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  if (minutes < 90) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return `${Math.round(minutes / 60)} hours`;
}

/** The 429 of a booking (`fields.email`) or of a change to one, with its Retry-After. */
export function emailCeilingError(reached: EmailCeilingReached, during: 'booking' | 'change'): TooManyRequestsError {
  const retryInMs = reached.freeAt === null ? DAY_MS : Math.max(0, reached.freeAt - reached.now);
  const wait = waitInWords(retryInMs);
  if (during === 'booking') {
    const details = `This email address has had the most e-mails about demos we send to one address in 24 hours. Please try again in about ${wait}.`;
    return new TooManyRequestsError(details, retryInMs, { email: details });
  }
  return new TooManyRequestsError(
    `This booking's email address has had the most e-mails about demos we send to one address in 24 hours, and this change would send another. Nothing was changed. Please try again in about ${wait}, or reply to your confirmation e-mail.`,
    retryInMs,
  );
}

/** The answer to a refused booking: the ceiling's 429 with its Retry-After, or the slot's 409 (the honeypot's too). */
export function refusalError(refusal: BookingRefusal): ApiError {
  switch (refusal.reason) {
    case 'email-ceiling': {
      const details = `This email address has already booked ${refusal.count} demos in the last 24 hours, the most we confirm to one address in a day. Please try again later.`;
      return new TooManyRequestsError(details, retryAfterMs(refusal), { email: details });
    }
    case 'recipient-emails':
      return emailCeilingError(refusal, 'booking');
    case 'domain-ceiling': {
      const details = `Your company's email domain has reached the most demo bookings we take from one domain in 24 hours. Please try again later, or ask a colleague who already booked to add you to their demo.`;
      return new TooManyRequestsError(details, retryAfterMs(refusal), { email: details });
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

/** Until the oldest of the bookings that make the ceiling is a day old (by the database's clock). */
function retryAfterMs(ceiling: { oldest: number | null; now: number }): number {
  return ceiling.oldest === null ? DAY_MS : ceiling.oldest + DAY_MS - ceiling.now;
}
