/**
 * Idempotency keys, on Stripe's model: the first answer to a key is kept for its lifetime (24 hours, written once:
 * idempotency_key_lifetime in db/functions/booking-rules.sql, which `book` and the purge here both read) with a hash of
 * the request, and the same key with the same request gets that answer again, without doing the work twice. A
 * request that failed leaves nothing behind, so it can be retried with its key.
 */
import { createHash } from 'node:crypto';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_PATTERN } from '../domain/demo-request.js';
import type { Db } from './db.js';
import { ApiError } from './errors.js';

export interface IdempotentAnswer {
  status: number;
  body: unknown;
}

/** The key a request carries, if any; a malformed one is refused rather than ignored. */
export function idempotencyKeyOf(header: string): string | undefined {
  if (header === '') return undefined;
  if (!IDEMPOTENCY_KEY_PATTERN.test(header)) {
    throw new ApiError(
      400,
      'Invalid idempotency key',
      `${IDEMPOTENCY_HEADER} must be 8 to 255 letters, digits or the characters _ . : - (a UUID, say).`,
    );
  }
  return header;
}

/** A hash of the request as validated; keys are sorted so that property order does not matter. */
export function requestHash(request: Record<string, unknown>): string {
  const canonical = JSON.stringify(
    Object.keys(request)
      .sort()
      .map((key) => [key, request[key]]),
  );
  return createHash('sha256').update(canonical).digest('hex');
}

/** The 422 for a key already used for a different request. */
export function idempotencyKeyReused(): ApiError {
  return new ApiError(
    422,
    'Idempotency key reused',
    `This ${IDEMPOTENCY_HEADER} was already used for a different request. Send a new key with each new request.`,
  );
}

/** How many expired keys one short transaction deletes: the purge never holds many rows, nor for long. */
const PURGE_BATCH = 1000;

/** Keys past their lifetime, oldest first, a batch at a time (idempotency_keys_created_at_idx); run now and then. */
export async function purgeExpiredIdempotencyKeys(db: Db): Promise<number> {
  let purged = 0;
  for (;;) {
    const { rowCount } = (await db.raw(
      `DELETE FROM idempotency_keys WHERE key IN (
         SELECT key FROM idempotency_keys WHERE created_at < now() - idempotency_key_lifetime()
           ORDER BY created_at LIMIT ? FOR UPDATE SKIP LOCKED)`,
      [PURGE_BATCH],
    )) as { rowCount: number };
    purged += rowCount;
    if (rowCount < PURGE_BATCH) return purged;
  }
}
