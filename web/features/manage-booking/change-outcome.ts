import { serverFieldErrors, serverMessage } from '../../store/api-errors.js';

/** What the page tells the visitor once a change is over: done, or why it could not be. */
export interface ChangeOutcome {
  tone: 'success' | 'problem';
  text: string;
}

/**
 * Why a reschedule or a cancellation failed, and what the page does about it:
 * - `time`: the chosen time will not do (400 outside the rules, 409 taken meanwhile): the picker stays open;
 * - `stale`: the booking is not what the page shows (404 gone, 409 cancelled or started meanwhile): it is read again;
 * - `retry`: nothing changed (429, 503, no answer): the same step can be tried again.
 */
export interface ChangeProblem {
  kind: 'time' | 'stale' | 'retry';
  /** For a person: the server's message (its time field's, its details, else its error), else a fallback. */
  text: string;
}

const NO_ANSWER =
  'Your booking could not be changed: the server did not answer. Please check your connection and try again.';
const NO_MESSAGE = 'Your booking could not be changed. Please try again.';

export function changeProblem(error: unknown): ChangeProblem {
  const status = typeof error === 'object' && error !== null && 'status' in error ? error.status : undefined;
  const timeMessage = serverFieldErrors(error).timeSlot;
  if (timeMessage) return { kind: 'time', text: timeMessage };
  const text = serverMessage(error) ?? (typeof status === 'number' ? NO_MESSAGE : NO_ANSWER);
  return { kind: status === 404 || status === 409 ? 'stale' : 'retry', text };
}
