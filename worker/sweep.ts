/** The outbox sweep: rows stored while Redis was away, or whose job ran out of tries, are enqueued again. */
import type { Knex } from 'knex';
import { MAX_CONFIRMATION_ATTEMPTS, SWEEP_GRACE_MS } from '../domain/jobs.js';
import { findStalePending } from './confirmation-repository.js';

export async function sweepPendingConfirmations(
  db: Knex,
  enqueue: (demoRequestId: string) => Promise<void>,
  graceMs = SWEEP_GRACE_MS,
): Promise<string[]> {
  const ids = await findStalePending(db, graceMs, MAX_CONFIRMATION_ATTEMPTS);
  // The job id is the row id: a row whose job is still queued or retrying is not queued twice.
  for (const id of ids) await enqueue(id);
  return ids;
}
