/**
 * Scenario 3: two worker processes (worker/main.ts, as the image runs them) share 500 queued jobs and a slow SMTP
 * server; one is killed with SIGKILL mid-flow. Its claimed rows wait out their lease (60 s), then the survivor's
 * sweep (every 30 s in worker/main.ts) enqueues them again. Every row ends sent; the duplicates are printed, and
 * the only way one can arise is the at-least-once window: the message reached the SMTP server but the worker died
 * before it could mark the row sent.
 */
import { expect } from 'chai';
import type { RunningApi } from '../../api/server.js';
import type { Spawned } from '../../scripts/dev-services/testing/spawned.js';
import { bookableSlots, bookMany, runTag, statusCounts } from './helpers/bookings.js';
import { startFaultStack, type FaultStack } from './helpers/fault-stack.js';
import { delay, printFigures, seconds, waitUntil } from './helpers/wait.js';

const JOBS = 500;
/** The SMTP server answers each message this long after it has arrived. */
const ANSWER_DELAY_MS = 250;
const KILL_AFTER_EMAILS = 150;

const sentBy = (worker: Spawned) => worker.logs.filter((line) => line.msg === 'confirmation sent').length;

describe('fault 3: two worker processes, one SIGKILLed mid-flow, 500 jobs, slow SMTP', function () {
  this.timeout(240_000);
  let stack: FaultStack;
  let api: RunningApi;

  before(async () => {
    stack = await startFaultStack({ answerDelayMs: ANSWER_DELAY_MS });
    api = await stack.startApi();
  });
  after(async () => {
    await stack?.teardown();
  });

  it('confirms all 500 bookings; prints the duplicates', async () => {
    const { smtp } = stack;
    const answers = await bookMany(api.url, JOBS, { concurrency: 20, run: runTag(), slots: bookableSlots() });
    expect(statusCounts(answers)).to.deep.equal({ 201: JOBS });
    expect(smtp.messages, 'no worker yet: all 500 jobs wait in the queue').to.have.length(0);

    const startedAt = Date.now();
    const [victim, survivor] = (await Promise.all([stack.spawnWorker(), stack.spawnWorker()])) as [Spawned, Spawned];
    await waitUntil(
      'the first e-mails arrive',
      () => smtp.messages.length >= KILL_AFTER_EMAILS && sentBy(victim) > 0,
      60_000,
    );

    const awaitingAnswerAtKill = smtp.messages.filter((message) => !message.answered).length;
    victim.child.kill('SIGKILL');
    const killedAt = Date.now();
    await victim.exited;
    const emailsAtKill = smtp.messages.length;
    const sentByVictim = sentBy(victim);
    // The at-least-once window, read the moment the victim is gone: messages the SMTP server has taken in whose rows
    // are not marked sent. The survivor cannot send a row the victim claimed until its lease runs out, so only these
    // can ever be sent twice.
    const receivedIds = [...new Set(smtp.messages.map((message) => message.messageId))];
    const unmarked = (await stack
      .db('deliveries')
      .where({ kind: 'confirmation' })
      .whereNull('sent_at')
      .pluck('booking_id')) as string[];
    const inWindow = new Set(
      unmarked.map((id) => `<demo-${id}@converge.localhost>`).filter((messageId) => receivedIds.includes(messageId)),
    );
    // Rows the dead worker had claimed and not marked sent: their lease must run out before anyone sends them. Once
    // the survivor's sends in hand are answered, the unsent rows with a claim taken before the kill are the dead one's.
    await delay(ANSWER_DELAY_MS * 4);
    const { rows: heldRows } = (await stack.db.raw(
      `SELECT count(*)::int AS held FROM deliveries
        WHERE kind = 'confirmation' AND sent_at IS NULL AND claimed_until > now()
          AND claimed_until <= to_timestamp(?::double precision / 1000) + interval '60 seconds'`,
      [killedAt],
    )) as { rows: Array<{ held: number }> };
    const held = heldRows[0]?.held ?? 0;

    const waitFrom = Date.now();
    const tookMs = await waitUntil(
      'every row marked sent',
      async () => (await stack.confirmationState()).sent === JOBS,
      180_000,
      {
        everyMs: 500,
        describe: async () => JSON.stringify({ ...(await stack.confirmationState()), emails: smtp.summary() }),
      },
    );
    const allSentAfterKill = waitFrom + tookMs - killedAt;
    await delay(2000);

    const summary = smtp.summary();
    const state = await stack.confirmationState();
    const rowIds = new Set(answers.map((answer) => `<demo-${answer.id}@converge.localhost>`));
    printFigures('3 sigkill one of two workers, 500 jobs, SMTP answering after 250 ms', {
      jobs: JOBS,
      emailsAtKill,
      sentByKilledWorker: sentByVictim,
      sentBySurvivor: sentBy(survivor),
      messagesAwaitingAnswerAtKill: awaitingAnswerAtKill,
      takenInNotMarkedAtKill: inWindow.size,
      rowsHeldByDeadWorker: held,
      allSentAfterKill: seconds(allSentAfterKill),
      total: seconds(Date.now() - startedAt),
      emails: summary.received,
      distinct: summary.distinct,
      duplicates: summary.duplicates,
      takenInButNeverAcknowledged: summary.notAcknowledged,
      duplicateIds: summary.duplicateIds.join(' ') || 'none',
    });
    expect(summary.distinct, 'every booking e-mailed').to.equal(JOBS);
    expect(
      [...smtp.countsById().keys()].every((messageId) => rowIds.has(messageId)),
      'every e-mail belongs to a booking',
    ).to.equal(true);
    expect(state).to.include({ rows: JOBS, sent: JOBS, pending: 0, failed: 0 });
    // A copy beyond the first can only be of a message in the window: taken in by the server, not yet marked sent.
    expect(
      summary.duplicateIds.filter((messageId) => !inWindow.has(messageId)),
      'duplicates outside the at-least-once window',
    ).to.deep.equal([]);
    expect(summary.duplicates).to.be.at.most(inWindow.size);
  });
});
