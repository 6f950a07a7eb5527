/**
 * Scenario 5: volume. The API (api/main.ts) and three worker processes (worker/main.ts), as the images run them,
 * take 3,000 bookings over HTTP; exactly 3,000 e-mails go out, one per booking.
 */
import { expect } from 'chai';
import type { Spawned } from '../../scripts/dev-services/testing/spawned.js';
import { bookableSlots, bookMany, runTag, statusCounts } from './helpers/bookings.js';
import { startFaultStack, type FaultStack } from './helpers/fault-stack.js';
import { delay, printFigures, seconds, waitUntil } from './helpers/wait.js';

const BOOKINGS = 3000;
const WORKERS = 3;

const sentBy = (worker: Spawned) => worker.logs.filter((line) => line.msg === 'confirmation sent').length;

describe('fault 5: three worker processes, 3,000 bookings', function () {
  this.timeout(240_000);
  let stack: FaultStack;

  before(async () => {
    stack = await startFaultStack();
  });
  after(async () => {
    await stack?.teardown();
  });

  it('sends exactly 3,000 e-mails, one per booking', async () => {
    const { smtp } = stack;
    const [{ url }, ...workers] = await Promise.all([
      stack.spawnApi(),
      ...Array.from({ length: WORKERS }, () => stack.spawnWorker()),
    ]);

    const startedAt = Date.now();
    const answers = await bookMany(url, BOOKINGS, { concurrency: 25, run: runTag(), slots: bookableSlots() });
    const bookedMs = Date.now() - startedAt;
    expect(statusCounts(answers), 'every booking stored').to.deep.equal({ 201: BOOKINGS });

    const waitFrom = Date.now();
    const drainMs = await waitUntil(
      'every row marked sent',
      async () => (await stack.confirmationState()).sent === BOOKINGS,
      180_000,
      {
        everyMs: 500,
        describe: async () => JSON.stringify({ ...(await stack.confirmationState()), emails: smtp.summary() }),
      },
    );
    const allSentMs = waitFrom + drainMs - startedAt;
    await delay(3000);

    const summary = smtp.summary();
    const state = await stack.confirmationState();
    const latencies = answers.map((answer) => answer.ms).sort((a, b) => a - b);
    const rowIds = new Set(answers.map((answer) => `<demo-${answer.id}@converge.localhost>`));
    printFigures('5 three workers, 3000 bookings', {
      bookings: BOOKINGS,
      bookingTime: seconds(bookedMs),
      bookingsPerSecond: Math.round(BOOKINGS / (bookedMs / 1000)),
      bookingP50Ms: latencies[Math.floor(latencies.length * 0.5)] ?? 0,
      bookingP99Ms: latencies[Math.floor(latencies.length * 0.99)] ?? 0,
      allSentAfterFirstBooking: seconds(allSentMs),
      emailsPerSecond: Math.round(BOOKINGS / (allSentMs / 1000)),
      sentPerWorker: workers.map(sentBy).join('/'),
      emails: summary.received,
      distinct: summary.distinct,
      duplicates: summary.duplicates,
      failedTries: state.attempts - state.sent,
    });
    expect(summary.received, 'exactly one e-mail per booking').to.equal(BOOKINGS);
    expect(summary.distinct).to.equal(BOOKINGS);
    expect(
      [...smtp.countsById().keys()].every((messageId) => rowIds.has(messageId)),
      'every e-mail belongs to a booking',
    ).to.equal(true);
    expect(state).to.include({ rows: BOOKINGS, sent: BOOKINGS, pending: 0, failed: 0 });
    for (const worker of workers) expect(sentBy(worker), 'each worker took a share').to.be.greaterThan(0);
  });
});
