/**
 * EMAILS_PER_RECIPIENT_PER_DAY: how many e-mails the form sends one recipient (in its canonical form, see
 * canonicalRecipient) in 24 hours, whatever their kind: confirmations, updates, cancellations and reminders, each
 * counted from when it is stored, a reminder no longer once a change drops it unsent (the database's
 * recipient_email_ceiling). A booking counts its confirmation and its reminder when one will go, a move its update
 * (its old reminder gives way to the new slot's), a cancellation its own e-mail less the reminder it drops. A booking
 * or change that would pass the ceiling is refused, under the recipient domain's lock, and nothing is stored.
 */
import { TooManyRequestsError } from '../errors.js';

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
