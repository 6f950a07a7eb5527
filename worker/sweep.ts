/**
 * The outbox sweep: rows stored while Redis was away, whose job ran out of tries, or whose claim ran out with its
 * worker, are enqueued again. It runs on a timer in every worker process, not as a job in Redis, so that it survives
 * Redis losing its data; a PostgreSQL advisory lock lets one process sweep at a time.
 */
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { MAX_CONFIRMATION_ATTEMPTS, SWEEP_EVERY_MS, SWEEP_GRACE_MS } from '../domain/jobs.js';
import { withTimeout } from '../domain/time-limits.js';
import { findStalePending } from './confirmation-repository.js';

const SWEEP_LOCK = 'converge:outbox-sweep';
/** One enqueue may wait this long on Redis before the sweep gives up until its next round. */
const ENQUEUE_TIMEOUT_MS = 5000;

/** Enqueues the stale pending rows; null when another process is sweeping right now. */
export async function sweepPendingConfirmations(
  db: Knex,
  enqueue: (demoRequestId: string) => Promise<void>,
  graceMs = SWEEP_GRACE_MS,
): Promise<string[] | null> {
  return db.transaction(async (trx) => {
    const { rows } = await trx.raw('SELECT pg_try_advisory_xact_lock(hashtextextended(?, 0)) AS locked', [SWEEP_LOCK]);
    if (!rows[0]?.locked) return null;
    const ids = await findStalePending(trx, graceMs, MAX_CONFIRMATION_ATTEMPTS);
    // The job id is the row id: a row whose job is still queued or retrying is not queued twice.
    for (const id of ids) await withTimeout(enqueue(id), ENQUEUE_TIMEOUT_MS, 'enqueueing a pending confirmation');
    return ids;
  });
}

export interface SweepTimer {
  stop(): Promise<void>;
}

/** Sweeps every `everyMs`, never two rounds at once in this process; a failed round is logged and retried next time. */
export function startSweepTimer(
  db: Knex,
  enqueue: (demoRequestId: string) => Promise<void>,
  logger: Logger,
  options: { everyMs?: number; graceMs?: number } = {},
): SweepTimer {
  let round: Promise<void> | undefined;
  const sweep = () => {
    round ??= sweepPendingConfirmations(db, enqueue, options.graceMs)
      .then((ids) => {
        if (ids && ids.length > 0) logger.info({ count: ids.length }, 'sweep enqueued pending confirmations');
      })
      .catch((err: unknown) => logger.warn({ error: err instanceof Error ? err.message : String(err) }, 'sweep failed; will try again'))
      .finally(() => {
        round = undefined;
      });
  };
  const timer = setInterval(sweep, options.everyMs ?? SWEEP_EVERY_MS);
  sweep();
  return {
    async stop() {
      clearInterval(timer);
      await round;
    },
  };
}
