/**
 * Scenario 2: the SMTP server is down for 30 s while 200 bookings flow. Sends fail with ECONNREFUSED (or a dropped
 * connection), BullMQ retries them with backoff, the sweep runs alongside; when the server is back, every booking
 * gets its e-mail, and none gets two.
 */
import { expect } from 'chai';
import type { RunningApi } from '../../api/server.js';
import { bookableSlots, bookMany, runTag, statusCounts } from './helpers/bookings.js';
import { startFaultStack, type FaultStack } from './helpers/fault-stack.js';
import { delay, printFigures, seconds, waitUntil } from './helpers/wait.js';

const BOOKINGS = 200;
const OUTAGE_MS = 30_000;
/** Bookings arrive at this pace, so they keep flowing through the outage. */
const PER_SECOND = 8;
const OUTAGE_STARTS_AFTER_MS = 5000;

describe('fault 2: SMTP down for 30 s while 200 bookings flow', function () {
  this.timeout(180_000);
  let stack: FaultStack;
  let api: RunningApi;

  before(async () => {
    stack = await startFaultStack();
    // A short sweep, so that it runs many times over rows whose jobs are waiting out their backoff.
    await stack.startWorker({ sweepEveryMs: 2000, sweepGraceMs: 5000 });
    api = await stack.startApi();
  });
  after(async () => {
    await stack?.teardown();
  });

  it('sends all 200 confirmations once the server is back, none twice', async () => {
    const { smtp } = stack;
    const flowStarted = Date.now();
    let flowMs = 0;
    const flowing = bookMany(api.url, BOOKINGS, {
      concurrency: 4,
      run: runTag(),
      slots: bookableSlots(),
      perSecond: PER_SECOND,
    }).then((answers) => {
      flowMs = Date.now() - flowStarted;
      return answers;
    });

    await delay(OUTAGE_STARTS_AFTER_MS);
    const beforeOutage = smtp.messages.length;
    await smtp.goDown();
    const downAt = Date.now();
    await delay(OUTAGE_MS);
    const duringOutage = smtp.messages.length - beforeOutage;
    const rowsWhenServerBack = (await stack.confirmationState()).rows;
    await smtp.comeBack();
    const upAt = Date.now();

    const answers = await flowing;
    const statuses = statusCounts(answers);
    expect(statuses, 'every booking stored').to.deep.equal({ 201: BOOKINGS });

    const waitFrom = Date.now();
    const drainMs = await waitUntil(
      'every row marked sent',
      async () => (await stack.confirmationState()).sent === BOOKINGS,
      120_000,
      {
        everyMs: 500,
        describe: async () => JSON.stringify({ ...(await stack.confirmationState()), emails: smtp.summary() }),
      },
    );
    // A straggling second copy would come within a few sweep rounds and a retry.
    await delay(6000);
    const summary = smtp.summary();
    const state = await stack.confirmationState();
    printFigures('2 smtp down 30 s, 200 bookings', {
      bookings: BOOKINGS,
      flow: seconds(flowMs),
      emailsBeforeOutage: beforeOutage,
      emailsDuringOutage: duringOutage,
      rowsWhenServerBack,
      outage: seconds(upAt - downAt),
      allSentAfterServerBack: seconds(waitFrom + drainMs - upAt),
      emails: summary.received,
      distinct: summary.distinct,
      duplicates: summary.duplicates,
      failedTries: state.attempts - state.sent,
      maxTriesOneRow: state.maxAttempts,
    });
    expect(duringOutage, 'nothing got through while the server was down').to.equal(0);
    expect(state.attempts - state.sent, 'the outage made sends fail, and they were tried again').to.be.greaterThan(0);
    const ids = new Set(answers.map((answer) => `<demo-${answer.id}@converge.localhost>`));
    const strangers = [...smtp.countsById().keys()].filter((messageId) => !ids.has(messageId));
    expect(strangers, 'every e-mail belongs to a booking').to.deep.equal([]);
    expect(summary.distinct, 'one e-mail per booking').to.equal(BOOKINGS);
    expect(summary.duplicates, 'no booking e-mailed twice').to.equal(0);
    expect(state).to.include({ rows: BOOKINGS, sent: BOOKINGS, pending: 0, failed: 0 });
  });
});
