/**
 * Scenario 1: Redis is down when a booking arrives, then comes back EMPTY (a new redis-server on the same port,
 * no data). The booking is stored and answered 201, its job never reached Redis, and the sweep (PostgreSQL outbox)
 * must still send exactly one confirmation.
 */
import { expect } from 'chai';
import { Redis } from 'ioredis';
import type { RunningApi } from '../../api/server.js';
import { bookableSlots, bookingBody, postBooking, runTag } from './helpers/bookings.js';
import { startFaultStack, type FaultStack } from './helpers/fault-stack.js';
import { delay, printFigures, seconds, waitUntil } from './helpers/wait.js';

// Short sweep timings (startWorker's options), so the outbox is swept in seconds rather than a minute.
const SWEEP_EVERY_MS = 1000;
const SWEEP_GRACE_MS = 3000;

describe('fault 1: Redis down when the request arrives, back empty', function () {
  this.timeout(90_000);
  let stack: FaultStack;
  let api: RunningApi;

  before(async () => {
    stack = await startFaultStack();
    await stack.startWorker({ sweepEveryMs: SWEEP_EVERY_MS, sweepGraceMs: SWEEP_GRACE_MS });
    api = await stack.startApi();
  });
  after(async () => {
    await stack?.teardown();
  });

  it('stores the booking (201) and sends exactly one confirmation once Redis is back', async () => {
    await stack.killRedis();
    // The API sees Redis gone before the booking arrives.
    await waitUntil(
      '/readyz reports Redis down',
      async () => {
        const response = await fetch(`${api.url}/readyz`);
        const body = (await response.json()) as { checks?: { redis?: string } };
        return response.status === 503 && body.checks?.redis === 'down';
      },
      10_000,
    );

    const answer = await postBooking(api.url, 1, bookingBody(1, runTag(), bookableSlots()));
    expect(answer.status, JSON.stringify(answer)).to.equal(201);
    expect(answer.ms, 'answered without waiting on Redis').to.be.below(3000);
    const id = answer.id as string;
    const row = await stack.db('bookings').where({ id }).first();
    expect(row, 'the booking is stored').to.not.equal(undefined);
    const confirmation = () => stack.db('deliveries').where({ booking_id: id, kind: 'confirmation' }).first();
    expect((await confirmation()).sent_at).to.equal(null);

    // Several sweep rounds with Redis away: nothing can be sent, nothing may be lost.
    await delay(SWEEP_GRACE_MS + 2 * SWEEP_EVERY_MS);
    expect(stack.smtp.messages).to.have.length(0);

    const fresh = await stack.startEmptyRedis();
    // The worker reconnects (and writes its own keys) at once, so the key count is no proof: what the new server
    // loaded at start is.
    const probe = new Redis(fresh.url);
    const persistence = await probe.info('persistence');
    probe.disconnect();
    const keysAtStart = Number(/rdb_last_load_keys_loaded:(\d+)/.exec(persistence)?.[1] ?? NaN);

    const tookMs = await waitUntil('the confirmation arrives', () => stack.smtp.messages.length >= 1, 45_000);
    // Longer than a few sweep rounds and a retry: a second copy would have shown up by now.
    await delay(5 * SWEEP_EVERY_MS + 2000);
    const summary = stack.smtp.summary();
    const sent = await confirmation();
    printFigures('1 redis down then back empty', {
      answer: answer.status,
      answerMs: answer.ms,
      keysLoadedByNewRedis: keysAtStart,
      confirmationAfterRedisBack: seconds(tookMs),
      emails: summary.received,
      duplicates: summary.duplicates,
      attempts: sent.attempts,
    });
    expect(keysAtStart, 'the new Redis loaded no keys at start').to.equal(0);
    expect(persistence).to.match(/aof_enabled:0/);
    expect(summary.received, 'exactly one e-mail').to.equal(1);
    expect(stack.smtp.messages[0]?.messageId).to.match(new RegExp(`^<demo-${id}@`));
    expect(sent.sent_at).to.be.instanceOf(Date);
  });
});
