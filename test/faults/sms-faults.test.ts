/**
 * Scenario 7: texts (issue 40) to an SMSC that answers each submit 250 ms after keeping its text, from two workers:
 * one a worker/main.ts child process, as the image runs it, the other in this process with a short sweep, so that a
 * dead worker's claims are swept the moment their lease runs out. Bookings with the consent flow in; then
 *
 * - the SMSC restarts (stopped, and started again on its port, empty): both workers bind again and every text
 *   arrives. A submit the SMSC kept but had not answered when its bind went cannot be told from one it never had, so
 *   it is tried again: those, and only those, may arrive twice, and the test measures how many do;
 * - the child worker is SIGKILLed: every text arrives, and a second copy can only be of a text the SMSC had taken
 *   whose row was not yet marked sent (the at-least-once window), sent again once the dead worker's claim ran out.
 */
import { expect } from 'chai';
import type { RunningApi } from '../../api/server.js';
import type { Spawned } from '../../scripts/dev-services/testing/spawned.js';
import { startSmsc, type Smsc, type SubmittedText } from '../smsc.js';
import { bookableSlots, bookMany, runTag, statusCounts, type BookingAnswer } from './helpers/bookings.js';
import { startFaultStack, type FaultStack } from './helpers/fault-stack.js';
import { delay, printFigures, seconds, waitUntil } from './helpers/wait.js';

const BOOKINGS = 150;
/** Bookings arrive at this pace, so that texts are on their way when the fault strikes. */
const PER_SECOND = 20;
const ANSWER_DELAY_MS = 250;
const FAULT_AFTER_TEXTS = 30;
const SMSC_DOWN_MS = 1500;

/** Each scenario's own numbers, French mobiles: +33 6 12 34 5x xx, then +33 6 12 34 6x xx (E.164, as stored). */
const phoneOf = (series: number) => (i: number) => `+3361234${series}${String(i).padStart(3, '0')}`;

interface TextRows {
  rows: number;
  sent: number;
  failed: number;
  attempts: number;
  maxAttempts: number;
}

/** How many texts each number received, of those given. */
function countsByNumber(texts: readonly SubmittedText[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const text of texts) counts.set(text.to, (counts.get(text.to) ?? 0) + 1);
  return counts;
}

describe('fault 7: texts to a slow SMSC, across its restart and a worker SIGKILLed', function () {
  this.timeout(150_000);
  let stack: FaultStack;
  let api: RunningApi;
  let child: Spawned;
  /** The SMSC now, and every one so far: a restarted SMSC starts empty, the texts the one before kept stay counted. */
  let smsc: Smsc;
  const smscs: Smsc[] = [];
  const received = () => smscs.flatMap((one) => one.received);

  before(async function () {
    this.timeout(60_000);
    smsc = await startSmsc({ answerDelayMs: ANSWER_DELAY_MS });
    smscs.push(smsc);
    stack = await startFaultStack({ env: { SMPP_URL: smsc.url, SMS_FROM: 'Converge' } });
    [api, , child] = await Promise.all([
      stack.startApi(),
      stack.startWorker({ sweepEveryMs: 1000, sweepGraceMs: 5000 }),
      stack.spawnWorker(),
    ]);
    await waitUntil('both workers bound', () => smsc.bound() === 2, 20_000);
  });
  after(async () => {
    await stack?.teardown();
    await Promise.all(smscs.map((one) => one.stop()));
  });

  /** The run's texts as the SMSC received them, and their rows. */
  const run = (series: number) => {
    const prefix = phoneOf(series)(0).slice(0, -3);
    const texts = () => received().filter((text) => text.to.startsWith(prefix));
    const rows = async (): Promise<TextRows> => {
      const [row] = (await stack
        .db('deliveries')
        .where({ kind: 'sms-confirmation' })
        .whereLike('recipient', `${prefix}%`)
        .select(
          stack.db.raw('count(*)::int AS rows'),
          stack.db.raw('count(sent_at)::int AS sent'),
          stack.db.raw('count(failed_at)::int AS failed'),
          stack.db.raw('coalesce(sum(attempts), 0)::int AS attempts'),
          stack.db.raw('coalesce(max(attempts), 0)::int AS "maxAttempts"'),
        )) as TextRows[];
      return row as TextRows;
    };
    /** The numbers whose confirmation the SMSC has kept and whose row is not marked sent. */
    const keptNotMarked = async () => {
      const unmarked = (await stack
        .db('deliveries')
        .where({ kind: 'sms-confirmation' })
        .whereLike('recipient', `${prefix}%`)
        .whereNull('sent_at')
        .pluck('recipient')) as string[];
      const kept = new Set(texts().map((text) => text.to));
      return new Set(unmarked.filter((number) => kept.has(number)));
    };
    const book = () =>
      bookMany(api.url, BOOKINGS, {
        concurrency: 4,
        run: runTag(),
        slots: bookableSlots(),
        perSecond: PER_SECOND,
        phoneOf: phoneOf(series),
      });
    const allSent = (timeoutMs: number) =>
      waitUntil('every text marked sent', async () => (await rows()).sent === BOOKINGS, timeoutMs, {
        everyMs: 250,
        describe: async () => JSON.stringify({ ...(await rows()), texts: texts().length }),
      });
    /** What every run asserts: each booking's number texted its one confirmation, at least once, and no other. */
    const expectEveryText = (answers: BookingAnswer[], state: TextRows) => {
      expect(statusCounts(answers), 'every booking stored').to.deep.equal({ 201: BOOKINGS });
      const numbers = new Set(answers.map((answer) => phoneOf(series)(answer.i)));
      const counts = countsByNumber(texts());
      expect(
        [...counts.keys()].filter((number) => !numbers.has(number)),
        'texts to no booking',
      ).to.deep.equal([]);
      expect(counts.size, 'every number texted').to.equal(BOOKINGS);
      expect(state).to.include({ rows: BOOKINGS, sent: BOOKINGS, failed: 0 });
      const words = new Map<string, Set<string>>();
      for (const text of texts()) words.set(text.to, (words.get(text.to) ?? new Set()).add(text.text));
      expect(
        [...words.values()].every((set) => set.size === 1),
        'a second copy is the same text',
      ).to.equal(true);
      return counts;
    };
    return { texts, rows, keptNotMarked, book, allSent, expectEveryText };
  };

  it('texts every booking once the SMSC is back from a restart; doubles only submits it kept unanswered', async () => {
    const texts = run(5);
    const startedAt = Date.now();
    const flowing = texts.book();
    await waitUntil('the first texts arrive', () => texts.texts().length >= FAULT_AFTER_TEXTS, 30_000);

    const inFlight = new Set(smsc.unanswered().map((text) => text.to));
    const textsAtDrop = texts.texts().length;
    await smsc.stop();
    const droppedAt = Date.now();
    await delay(SMSC_DOWN_MS);
    smsc = await startSmsc({ port: smsc.port, answerDelayMs: ANSWER_DELAY_MS });
    smscs.push(smsc);
    const upAt = Date.now();
    const reboundMs = await waitUntil('both workers bound again', () => smsc.bound() === 2, 30_000);

    const answers = await flowing;
    // Every row marked sent: no try is left that could submit a text again.
    await texts.allSent(60_000);
    const allSentAfterRestart = Date.now() - upAt;
    const state = await texts.rows();
    const counts = texts.expectEveryText(answers, state);
    const doubled = [...counts].filter(([, count]) => count > 1).map(([number]) => number);
    printFigures(`7a smsc restarted, ${BOOKINGS} texts, submits answered after ${ANSWER_DELAY_MS} ms`, {
      bookings: BOOKINGS,
      textsAtDrop,
      submitsUnansweredAtDrop: inFlight.size,
      down: seconds(upAt - droppedAt),
      bothReboundAfterUp: seconds(reboundMs),
      allSentAfterUp: seconds(allSentAfterRestart),
      total: seconds(Date.now() - startedAt),
      texts: texts.texts().length,
      distinct: counts.size,
      duplicates: texts.texts().length - counts.size,
      failedTries: state.attempts - state.sent,
      maxTriesOneRow: state.maxAttempts,
      binds: smscs.reduce((sum, one) => sum + one.binds(), 0),
    });
    expect(
      doubled.filter((number) => !inFlight.has(number)),
      'doubled outside the submits in flight',
    ).to.deep.equal([]);
    expect(Math.max(...counts.values()), 'no text three times').to.be.at.most(2);
    if (inFlight.size > 0) expect(state.attempts - state.sent, 'the drop failed the submits in flight').to.be.above(0);
  });

  it('texts every booking though a worker is SIGKILLed; doubles only what the SMSC took unmarked', async () => {
    const texts = run(6);
    const sentBy = (worker: Spawned) => worker.logs.filter((line) => line.msg === 'sms-confirmation sent').length;
    const sentBeforeRun = sentBy(child);
    const startedAt = Date.now();
    const flowing = texts.book();
    await waitUntil(
      'the first texts arrive',
      () => texts.texts().length >= FAULT_AFTER_TEXTS && sentBy(child) > sentBeforeRun,
      30_000,
    );

    const unansweredAtKill = smsc.unanswered().length;
    child.child.kill('SIGKILL');
    const killedAt = Date.now();
    await child.exited;
    const textsAtKill = texts.texts().length;
    const sentByKilled = sentBy(child) - sentBeforeRun;
    // The at-least-once window, read the moment the worker is gone: texts the SMSC took whose rows are not marked.
    // The survivor cannot send a row the dead worker claimed until its lease runs out, so only these can come twice.
    const inWindow = await texts.keptNotMarked();
    // Rows the dead worker had claimed and not marked: once the survivor's submits in hand are answered, the unsent
    // rows with a claim taken before the kill.
    await delay(ANSWER_DELAY_MS * 4);
    const { rows: heldRows } = (await stack.db.raw(
      `SELECT count(*)::int AS held FROM deliveries
        WHERE kind = 'sms-confirmation' AND sent_at IS NULL AND claimed_until > now()
          AND claimed_until <= to_timestamp(?::double precision / 1000) + interval '60 seconds'`,
      [killedAt],
    )) as { rows: Array<{ held: number }> };

    const answers = await flowing;
    // The lease, and up to BullMQ's check for stalled jobs when the dead worker's job is still active in Redis then.
    await texts.allSent(120_000);
    const allSentAfterKill = Date.now() - killedAt;
    const state = await texts.rows();
    const counts = texts.expectEveryText(answers, state);
    const doubled = [...counts].filter(([, count]) => count > 1).map(([number]) => number);
    printFigures(`7b sigkill one of two workers, ${BOOKINGS} texts, submits answered after ${ANSWER_DELAY_MS} ms`, {
      bookings: BOOKINGS,
      textsAtKill,
      sentByKilledWorker: sentByKilled,
      submitsUnansweredAtKill: unansweredAtKill,
      takenNotMarkedAtKill: inWindow.size,
      rowsHeldByDeadWorker: heldRows[0]?.held ?? 0,
      allSentAfterKill: seconds(allSentAfterKill),
      total: seconds(Date.now() - startedAt),
      texts: texts.texts().length,
      distinct: counts.size,
      duplicates: texts.texts().length - counts.size,
      doubled: doubled.join(' ') || 'none',
    });
    expect(
      doubled.filter((number) => !inWindow.has(number)),
      'doubled outside the window',
    ).to.deep.equal([]);
    expect(Math.max(...counts.values()), 'no text three times').to.be.at.most(2);
  });
});
