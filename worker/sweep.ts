/**
 * The outbox sweep: rows stored while Redis was away, whose job ran out of tries, or whose claim ran out with its
 * worker, and webhook tries due and lost from the queue, are enqueued again, for every kind the registry knows
 * (server-shared/delivery-kinds.ts), by one query (outbox.ts's findDue). It runs on a timer in every worker process,
 * not as a job in Redis, so that it survives Redis losing its data; a PostgreSQL advisory lock lets one process sweep at
 * a time. Each round then applies retention (retention.ts), one process at a time too.
 */
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { SWEEP_EVERY_MS, SWEEP_GRACE_MS, deliveryJob, type QueuedJob } from '../server-shared/jobs.js';
import { withTimeout } from '../server-shared/time-limits.js';
import { findDue } from './outbox.js';
import { applyRetention, deleteOldFunnelCounts, deletePastFreedSlots } from './retention.js';

const SWEEP_LOCK = 'converge:outbox-sweep';
/** One enqueue may wait this long on Redis before the sweep gives up until its next round. */
const ENQUEUE_TIMEOUT_MS = 5000;

type Enqueue = (job: QueuedJob) => Promise<void>;

/** Enqueues the stale pending rows' jobs and returns them; null when another process is sweeping right now. */
export async function sweepOutbox(db: Knex, enqueue: Enqueue, graceMs = SWEEP_GRACE_MS): Promise<QueuedJob[] | null> {
  return db.transaction(async (trx) => {
    const { rows } = await trx.raw('SELECT pg_try_advisory_xact_lock(hashtextextended(?, 0)) AS locked', [SWEEP_LOCK]);
    if (!rows[0]?.locked) return null;
    const jobs = await pendingJobs(trx, graceMs);
    // The job id names the row: a row whose job is still queued or retrying is not queued twice.
    for (const job of jobs) await withTimeout(enqueue(job), ENQUEUE_TIMEOUT_MS, `enqueueing a pending ${job.name} job`);
    return jobs;
  });
}

/** The rows still to send (findDue), as the jobs that send them. */
export async function pendingJobs(db: Knex, graceMs: number): Promise<QueuedJob[]> {
  return (await findDue(db, graceMs)).map((row) => deliveryJob(row.id, row.due));
}

export interface SweepTimer {
  stop(): Promise<void>;
}

/**
 * Sweeps every `everyMs`, then applies retention (`retentionDays`, when given), never two rounds at once in this
 * process; a failed round is logged and retried next time.
 */
export function startSweepTimer(
  db: Knex,
  enqueue: Enqueue,
  logger: Logger,
  options: { everyMs?: number; graceMs?: number; retentionDays?: number } = {},
): SweepTimer {
  let round: Promise<void> | undefined;
  const failed = (what: string) => (err: unknown) =>
    logger.warn({ error: err instanceof Error ? err.message : String(err) }, `${what} failed; will try again`);
  const retain = async () => {
    if (options.retentionDays === undefined) return;
    const anonymised = await applyRetention(db, options.retentionDays);
    // How many, and nothing about whom.
    if (anonymised)
      logger.info(
        { anonymised, retentionDays: options.retentionDays },
        'retention removed the personal data of old bookings',
      );
    const funnelCounts = await deleteOldFunnelCounts(db, options.retentionDays);
    if (funnelCounts > 0)
      logger.info({ funnelCounts, retentionDays: options.retentionDays }, 'retention deleted old funnel counts');
    const freedSlots = await deletePastFreedSlots(db);
    if (freedSlots > 0) logger.info({ freedSlots }, 'retention deleted the past slots hosts gave up');
  };
  const sweep = () => {
    round ??= sweepOutbox(db, enqueue, options.graceMs)
      .then((jobs) => {
        if (jobs && jobs.length > 0)
          logger.info({ count: jobs.length }, 'sweep enqueued pending e-mails and webhook deliveries');
      })
      .catch(failed('sweep'))
      .then(() => retain().catch(failed('retention')))
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
