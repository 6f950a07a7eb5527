/**
 * Idempotency keys, on Stripe's model: the first answer to a key is kept for 24 hours with a hash of the request,
 * and the same key with the same request gets that answer again, without doing the work twice. A request that
 * failed leaves nothing behind, so it can be retried with its key.
 */
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_PATTERN } from '../domain/demo-request.js';
import type { Db } from './db.js';
import { ApiError } from './errors.js';

const IDEMPOTENCY_KEY_LIFETIME_HOURS = 24;

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
  const canonical = JSON.stringify(Object.keys(request).sort().map((key) => [key, request[key]]));
  return createHash('sha256').update(canonical).digest('hex');
}

/**
 * Takes the key for this transaction. Undefined when it is ours to answer; else the answer kept for it. A
 * transaction still working on the same key is waited for (the primary key holds the second insert back).
 */
export async function claimIdempotencyKey(trx: Knex.Transaction, key: string, hash: string): Promise<IdempotentAnswer | undefined> {
  await trx('idempotency_keys')
    .where({ key })
    .andWhere('created_at', '<', trx.raw(`now() - interval '${IDEMPOTENCY_KEY_LIFETIME_HOURS} hours'`))
    .del();
  const claimed = await trx('idempotency_keys')
    .insert({ key, request_hash: hash, status_code: 0, response: JSON.stringify(null) })
    .onConflict('key')
    .ignore()
    .returning('key');
  if (claimed.length > 0) return undefined;
  const earlier = await trx('idempotency_keys').select('request_hash', 'status_code', 'response').where({ key }).first();
  if (!earlier) throw new Error('idempotency key neither claimed nor found');
  if (earlier.request_hash !== hash) {
    throw new ApiError(
      422,
      'Idempotency key reused',
      `This ${IDEMPOTENCY_HEADER} was already used for a different request. Send a new key with each new request.`,
    );
  }
  return { status: earlier.status_code, body: earlier.response };
}

export async function keepIdempotentAnswer(trx: Knex.Transaction, key: string, answer: IdempotentAnswer): Promise<void> {
  await trx('idempotency_keys').where({ key }).update({ status_code: answer.status, response: JSON.stringify(answer.body) });
}

/** Keys past their lifetime; run now and then. */
export async function purgeExpiredIdempotencyKeys(db: Db): Promise<number> {
  return db('idempotency_keys')
    .where('created_at', '<', db.raw(`now() - interval '${IDEMPOTENCY_KEY_LIFETIME_HOURS} hours'`))
    .del();
}
