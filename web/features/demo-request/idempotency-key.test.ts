import { expect } from 'chai';
import { IDEMPOTENCY_KEY_PATTERN } from '../../../domain/demo-request.js';
import { mayRetryWithSameKey, newIdempotencyKey, nextAttempt, type SubmissionAttempt } from './idempotency-key.js';

describe('the Idempotency-Key of a submission', () => {
  let counter = 0;
  const newKey = () => `key-${String((counter += 1)).padStart(4, '0')}`;
  const body = JSON.stringify({ name: 'Ana', timeSlot: '2026-11-24T06:00:00.000Z' });

  it('gives a first submission a fresh key', () => {
    const attempt = nextAttempt(null, body, newKey);
    expect(attempt.body).to.equal(body);
    expect(attempt.key).to.match(/^key-\d{4}$/);
    expect(nextAttempt(null, body, newKey).key, 'another first submission').to.not.equal(attempt.key);
  });

  it('sends the same body again with the same key after no answer or a 5xx', () => {
    for (const failure of [{ status: 'FETCH_ERROR', message: 'Failed to fetch' }, { status: 500 }, { status: 503 }]) {
      const first = nextAttempt(null, body, newKey);
      const open: SubmissionAttempt | null = mayRetryWithSameKey(failure) ? first : null;
      expect(nextAttempt(open, body, newKey).key, JSON.stringify(failure)).to.equal(first.key);
    }
  });

  it('gives a changed body a new key, even right after a failure with no answer', () => {
    const first = nextAttempt(null, body, newKey);
    const changed = JSON.stringify({ name: 'Ana', timeSlot: '2026-11-24T07:00:00.000Z' });
    const second = nextAttempt(first, changed, newKey);
    expect(second.key).to.not.equal(first.key);
    expect(second.body).to.equal(changed);
  });

  it('drops the key once the server gave a definite answer (4xx) or the booking succeeded (nothing left open)', () => {
    for (const status of [400, 409, 422, 429]) expect(mayRetryWithSameKey({ status }), String(status)).to.equal(false);
    expect(mayRetryWithSameKey(undefined)).to.equal(false);
    expect(mayRetryWithSameKey(new Error('boom'))).to.equal(false);
    const first = nextAttempt(null, body, newKey);
    expect(nextAttempt(null, body, newKey).key, 'the next submission after a success').to.not.equal(first.key);
  });

  it('makes keys the API accepts, with or without crypto.randomUUID (plain http has only getRandomValues)', () => {
    expect(newIdempotencyKey()).to.match(IDEMPOTENCY_KEY_PATTERN);
    const withoutUuid = { getRandomValues: (array: Uint8Array<ArrayBuffer>) => crypto.getRandomValues(array) };
    const key = newIdempotencyKey(withoutUuid);
    expect(key)
      .to.match(IDEMPOTENCY_KEY_PATTERN)
      .and.to.match(/^[0-9a-f]{32}$/);
    expect(newIdempotencyKey(withoutUuid)).to.not.equal(key);
  });
});
