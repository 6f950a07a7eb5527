/**
 * The Idempotency-Key of a submission. Sending the same body again after a failure that may have reached the
 * server (no answer at all, or a 5xx) is a retry: it carries the key of the attempt it retries, so the API books
 * it at most once. Anything else is a new submission with a new key: a changed body, or a second try after the
 * server gave a definite answer (a 4xx, which a reused key would only replay).
 */

export interface SubmissionAttempt {
  key: string;
  /** The body as sent; the same text is the same submission. */
  body: string;
}

/** The attempt to send: the one left open by a failure when the body is unchanged, else a new one. */
export function nextAttempt(
  open: SubmissionAttempt | null,
  body: string,
  newKey: () => string = newIdempotencyKey,
): SubmissionAttempt {
  return open !== null && open.body === body ? open : { key: newKey(), body };
}

/** Whether a failed attempt stays open for a retry with its key: when no answer came, or the server failed. */
export function mayRetryWithSameKey(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('status' in error)) return false;
  const { status } = error;
  return status === 'FETCH_ERROR' || (typeof status === 'number' && status >= 500);
}

/** A random key the API accepts (IDEMPOTENCY_KEY_PATTERN). */
export function newIdempotencyKey(
  source: {
    randomUUID?: () => string;
    getRandomValues(array: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer>;
  } = crypto,
): string {
  // randomUUID exists only on secure origins (https, localhost); a site reached over plain http still has getRandomValues.
  if (typeof source.randomUUID === 'function') return source.randomUUID();
  return Array.from(source.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
