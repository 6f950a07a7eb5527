/**
 * Scenario 4: PostgreSQL goes down (pg_ctl stop -m immediate, which the clients see as a crash) under steady
 * booking traffic and comes back on the same port a few seconds later. While it is down, every booking is answered
 * 503 within 2 s and /readyz answers 503 naming PostgreSQL; afterwards the API and the worker recover by themselves,
 * and every booking answered 201 is stored and confirmed.
 *
 * Around the crash the SMTP server answers slowly, so that the worker has messages on the wire when PostgreSQL
 * dies: their 250 arrives while it is down, and the worker cannot record them as sent.
 */
import { expect } from 'chai';
import type { RunningApi } from '../../api/server.js';
import {
  bookableSlots,
  bookingBody,
  postBooking,
  runTag,
  statusCounts,
  type BookingAnswer,
} from './helpers/bookings.js';
import { startFaultStack, type FaultStack } from './helpers/fault-stack.js';
import { delay, printFigures, seconds, waitUntil } from './helpers/wait.js';

const OUTAGE_MS = 8000;
const LIMIT_MS = 2000;
/** Bookings a second while the test runs, from a few concurrent visitors. */
const PER_SECOND = 20;
/** How slowly the SMTP server answers from a second before the crash until the restart. */
const SLOW_ANSWER_MS = 1500;

interface ReadyAnswer {
  at: number;
  ms: number;
  status: number;
  details: string;
}

describe('fault 4: PostgreSQL restarted under traffic', function () {
  this.timeout(180_000);
  let stack: FaultStack;
  let api: RunningApi;
  /** Every booking tried, when the stop began, and the doubled e-mails: the later tests read them. */
  const answers: BookingAnswer[] = [];
  let stopAt = 0;
  let duplicateArrivals: string[] | undefined;

  before(async () => {
    stack = await startFaultStack();
    await stack.startWorker({ sweepEveryMs: 2000, sweepGraceMs: 5000 });
    api = await stack.startApi();
  });
  after(async () => {
    await stack?.teardown();
  });

  it('answers 503 quickly while it is down, recovers by itself, loses no stored booking', async () => {
    const run = runTag();
    const slots = bookableSlots();
    const ready: ReadyAnswer[] = [];
    let running = true;

    const visitors = Array.from({ length: 4 }, async (_, lane) => {
      for (let n = 0; running; n += 1) {
        const i = n * 4 + lane;
        const started = Date.now();
        answers.push(await postBooking(api.url, i, bookingBody(i, run, slots), 10_000));
        await delay(Math.max(0, (4 * 1000) / PER_SECOND - (Date.now() - started)));
      }
    });
    const prober = (async () => {
      while (running) {
        const at = Date.now();
        try {
          const response = await fetch(`${api.url}/readyz`, { signal: AbortSignal.timeout(10_000) });
          const body = (await response.json()) as { details?: string };
          ready.push({ at, ms: Date.now() - at, status: response.status, details: body.details ?? '' });
        } catch (err) {
          ready.push({ at, ms: Date.now() - at, status: 0, details: err instanceof Error ? err.message : String(err) });
        }
        await delay(250);
      }
    })();

    await delay(2000);
    stack.smtp.answerDelayMs = SLOW_ANSWER_MS;
    await delay(1000);
    // While the stop is under way, a burst of unpaced bookings, so that some are mid-transaction when the server dies.
    let bursting = true;
    const burst = Array.from({ length: 4 }, async (_, lane) => {
      for (let n = 0; bursting; n += 1) {
        const i = 1_000_000 + n * 4 + lane;
        answers.push(await postBooking(api.url, i, bookingBody(i, run, slots), 10_000));
      }
    });
    stopAt = Date.now();
    await stack.cluster.stop('immediate');
    const downAt = Date.now();
    bursting = false;
    await Promise.all(burst);
    await delay(OUTAGE_MS);
    // The server accepts connections a moment before start() returns: the outage ends when the start begins.
    const restartAt = Date.now();
    await stack.cluster.start();
    const upAt = Date.now();
    stack.smtp.answerDelayMs = 0;
    await delay(8000);
    running = false;
    await Promise.all([...visitors, prober]);

    // Entirely inside the outage (a little slack after the stop, for connections already being torn down).
    const inside = (at: number, ms: number) => at >= downAt + 200 && at + ms <= restartAt;
    const duringOutage = answers.filter((answer) => inside(answer.startedAt, answer.ms));
    const readyDuringOutage = ready.filter((answer) => inside(answer.at, answer.ms));
    const firstStoredAfter = answers
      .filter((answer) => answer.status === 201 && answer.startedAt >= upAt)
      .sort((a, b) => a.startedAt - b.startedAt)[0];
    const firstReadyAfter = ready
      .filter((answer) => answer.status === 200 && answer.at >= upAt)
      .sort((a, b) => a.at - b.at)[0];
    const stored = answers.filter((answer) => answer.status === 201);
    const statuses = statusCounts(answers);

    await waitUntil(
      'every row marked sent',
      async () => {
        const state = await stack.confirmationState();
        return state.rows > 0 && state.sent === state.rows;
      },
      90_000,
      { everyMs: 500, describe: async () => JSON.stringify(await stack.confirmationState()) },
    );
    await delay(3000);
    const state = await stack.confirmationState();
    const storedIds = stored.map((answer) => answer.id as string);
    const present = await stack.db('bookings').whereIn('id', storedIds).count<Array<{ count: string }>>('* as count');
    const summary = stack.smtp.summary();
    duplicateArrivals = summary.duplicateIds.map(
      (id) =>
        `${id} at ${stack.smtp.messages
          .filter((m) => m.messageId === id)
          .map((m) => ((m.at - stopAt) / 1000).toFixed(2))
          .join(' and ')} s`,
    );
    const maxMs = (list: Array<{ ms: number }>) => Math.max(0, ...list.map((answer) => answer.ms));

    printFigures('4 postgres restarted under traffic', {
      requests: answers.length,
      statuses: JSON.stringify(statuses),
      stopTook: seconds(downAt - stopAt),
      outage: seconds(restartAt - downAt),
      restartTook: seconds(upAt - restartAt),
      requestsDuringOutage: duringOutage.length,
      their503: duringOutage.filter((answer) => answer.status === 503).length,
      slowest503Ms: maxMs(duringOutage),
      readyzDuringOutage: readyDuringOutage.length,
      readyz503NamingPostgres: readyDuringOutage.filter(
        (answer) => answer.status === 503 && answer.details.includes('PostgreSQL'),
      ).length,
      slowestReadyzMs: maxMs(readyDuringOutage),
      first201AfterRestart: firstStoredAfter
        ? seconds(firstStoredAfter.startedAt + firstStoredAfter.ms - upAt)
        : 'never',
      firstReadyAfterRestart: firstReadyAfter ? seconds(firstReadyAfter.at + firstReadyAfter.ms - upAt) : 'never',
      answered201: stored.length,
      rowsStored: state.rows,
      answered201Present: Number(present[0]?.count),
      rowsSent: state.sent,
      emails: summary.received,
      duplicates: summary.duplicates,
      unexpectedCount: answers.filter((answer) => answer.status !== 201 && answer.status !== 503).length,
      // The first answers other than 201 and 503, with when they were asked, in seconds from the moment the stop began.
      unexpected:
        answers
          .filter((answer) => answer.status !== 201 && answer.status !== 503)
          .slice(0, 3)
          .map(
            (answer) =>
              `${answer.status} at ${((answer.startedAt - stopAt) / 1000).toFixed(2)} after ${answer.ms} ms: ${answer.error ?? ''} ${answer.details ?? ''}`,
          )
          .join('; ') || 'none',
      // Each doubled confirmation: when its copies arrived, in seconds from the moment the stop began.
      duplicateArrivals: duplicateArrivals.join('; ') || 'none',
    });

    expect(duringOutage.length, 'bookings tried during the outage').to.be.greaterThan(20);
    for (const answer of duringOutage) {
      expect(answer.status, JSON.stringify(answer)).to.equal(503);
      expect(answer.ms, JSON.stringify(answer)).to.be.below(LIMIT_MS);
    }
    expect(readyDuringOutage.length).to.be.greaterThan(5);
    for (const answer of readyDuringOutage) {
      expect(answer.status, JSON.stringify(answer)).to.equal(503);
      expect(answer.details, JSON.stringify(answer)).to.include('PostgreSQL');
      expect(answer.ms, JSON.stringify(answer)).to.be.below(LIMIT_MS);
    }
    expect(statuses[0], 'no request went unanswered').to.equal(undefined);
    expect(firstStoredAfter, 'bookings are stored again after the restart').to.not.equal(undefined);
    expect(firstReadyAfter, '/readyz answers 200 again after the restart').to.not.equal(undefined);
    expect(Number(present[0]?.count), 'every booking answered 201 is in the database').to.equal(stored.length);
    expect(state.sent, 'every stored booking confirmed').to.equal(state.rows);
    expect(summary.distinct, 'an e-mail for every stored booking').to.equal(state.rows);
    // Copies beyond the first are printed above and checked by the last test of this block.
  });

  // Kept apart from the test above: it fails while api/db.ts's isConnectionError does not recognise the error
  // knex throws when the ROLLBACK of a transaction cut off by the crash fails too
  // ("ROLLBACK - Client has encountered a connection error and is not queryable"), which is then answered 500.
  it('answers 503, never 500, to the bookings in flight when PostgreSQL dies', function () {
    if (answers.length === 0) this.skip();
    const otherwise = answers.filter((answer) => answer.status !== 201 && answer.status !== 503);
    expect(
      otherwise.map(
        (answer) =>
          `${answer.status} asked ${answer.startedAt - stopAt} ms after the stop began: ${answer.details ?? answer.error ?? ''}`,
      ),
    ).to.deep.equal([]);
  });

  // Kept apart as well: it fails while worker/deliver.ts gives up on marking a row sent the moment
  // PostgreSQL does not answer. The message has gone out, the row keeps its claim, the retried job finds the claim
  // ("claimed-elsewhere") and ends, and when the lease runs out the sweep sends the message a second time.
  it('sends no second copy of the messages the SMTP server accepted while PostgreSQL was down', function () {
    if (duplicateArrivals === undefined) this.skip();
    expect(duplicateArrivals, 'doubled confirmations, with when their copies arrived').to.deep.equal([]);
  });
});
