import { DEMO_REQUEST_FIELDS, type DemoRequestField } from '../../domain/demo-request.js';

/** The field key of a routing question's answer in an error's `fields` ("answers.companySize"). */
const ANSWER_FIELD_PREFIX = 'answers.';

const SUBMIT_FALLBACK_MESSAGE = 'Failed to submit demo request. Please try again.';
const SUBMIT_INNER_FALLBACK_MESSAGE = 'Failed to submit demo request';

interface ErrorBody {
  error?: unknown;
  details?: unknown;
  fields?: unknown;
}

function bodyOf(error: unknown): ErrorBody | undefined {
  if (typeof error !== 'object' || error === null || !('data' in error)) return undefined;
  const data = (error as { data: unknown }).data;
  return typeof data === 'object' && data !== null ? (data as ErrorBody) : undefined;
}

function hasHttpStatus(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'status' in error && typeof error.status === 'number';
}

const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/** What the server said in its error body, for a person: its details, else its error; undefined when it said neither. */
export function serverMessage(error: unknown): string | undefined {
  const body = bodyOf(error);
  if (nonEmpty(body?.details)) return body.details;
  if (nonEmpty(body?.error)) return body.error;
  return undefined;
}

/**
 * The text of the Error toast: the server's message, else "Failed to submit demo request" when the server answered
 * without one, else (nothing came back at all) the longer fallback.
 */
export function submitErrorMessage(error: unknown): string {
  return serverMessage(error) ?? (hasHttpStatus(error) ? SUBMIT_INNER_FALLBACK_MESSAGE : SUBMIT_FALLBACK_MESSAGE);
}

/** The per-field messages of a 4xx answer, keeping only fields the form has. */
export function serverFieldErrors(error: unknown): Partial<Record<DemoRequestField, string>> {
  const fields = bodyOf(error)?.fields;
  if (typeof fields !== 'object' || fields === null) return {};
  const result: Partial<Record<DemoRequestField, string>> = {};
  for (const field of DEMO_REQUEST_FIELDS) {
    const message = (fields as Record<string, unknown>)[field];
    if (nonEmpty(message)) result[field] = message;
  }
  return result;
}

/**
 * A 409 about the time: the slot filled up (or this person already holds it) since it was chosen. Only the time
 * has to change; the API names the field in `fields.timeSlot`.
 */
export function isSlotConflict(error: unknown): boolean {
  return (
    hasHttpStatus(error) &&
    (error as { status: number }).status === 409 &&
    serverFieldErrors(error).timeSlot !== undefined
  );
}

/** The message of a 422 that offers no calendar (disqualified, or no route for the request), else undefined. */
export function notRoutedMessage(error: unknown): string | undefined {
  if (!hasHttpStatus(error) || (error as { status: number }).status !== 422) return undefined;
  const body = bodyOf(error) as (ErrorBody & { message?: unknown }) | undefined;
  return nonEmpty(body?.message) ? body.message : undefined;
}

/** The messages a 400 gives beside the routing questions ("answers.<id>"), by question id. */
export function serverAnswerErrors(error: unknown): Record<string, string> {
  const fields = bodyOf(error)?.fields;
  if (typeof fields !== 'object' || fields === null) return {};
  const result: Record<string, string> = {};
  for (const [key, message] of Object.entries(fields as Record<string, unknown>)) {
    if (key.startsWith(ANSWER_FIELD_PREFIX) && nonEmpty(message))
      result[key.slice(ANSWER_FIELD_PREFIX.length)] = message;
  }
  return result;
}
