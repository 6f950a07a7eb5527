/**
 * The worker's seam for kinds of job: for each job name, how a job is handled and where the sweep finds the rows of
 * that kind still waiting to be sent. A name the map does not hold is refused, never guessed at.
 * Adding a kind of e-mail takes a template (email/), a handler, and one line in JOB_KINDS.
 */
import { UnrecoverableError, type Job } from 'bullmq';
import type { Knex } from 'knex';
import { MAX_CONFIRMATION_ATTEMPTS, SEND_CONFIRMATION_JOB, type JobName, type JobPayloads, type QueuedJob } from '../server-shared/jobs.js';
import { findStalePending } from './confirmation-repository.js';
import { processConfirmation, type ConfirmationDeps } from './process-confirmation.js';

export interface JobContext {
  deps: ConfirmationDeps;
  /** For a row this worker's database does not hold: hands the job back to the queue for its owner. */
  leaveToOwner(job: Job, demoRequestId: string): string;
}

export interface JobKind<N extends JobName> {
  /** Does the job's work; what it returns is the job's result in the queue. */
  handle(context: JobContext, payload: JobPayloads[N], job: Job, signal?: AbortSignal): Promise<string>;
  /** The payloads of rows of this kind still pending after the grace period, for the sweep to enqueue again. */
  pending(db: Knex, graceMs: number): Promise<JobPayloads[N][]>;
}

const confirmation: JobKind<typeof SEND_CONFIRMATION_JOB> = {
  async handle(context, payload, job, signal) {
    const outcome = await processConfirmation(context.deps, payload, signal);
    return outcome === 'missing' ? context.leaveToOwner(job, payload.demoRequestId) : outcome;
  },
  async pending(db, graceMs) {
    const ids = await findStalePending(db, graceMs, MAX_CONFIRMATION_ATTEMPTS);
    return ids.map((demoRequestId) => ({ demoRequestId }));
  },
};

const JOB_KINDS: { [N in JobName]: JobKind<N> } = {
  [SEND_CONFIRMATION_JOB]: confirmation,
};

function isJobName(name: string): name is JobName {
  return Object.hasOwn(JOB_KINDS, name);
}

/** Runs a job by its name; an unknown name fails the job for good (no retries), with the name in the reason. */
export function runJob(context: JobContext, job: Job, signal?: AbortSignal): Promise<string> {
  const { name } = job;
  if (!isJobName(name)) throw new UnrecoverableError(`unknown job name "${name}"`);
  // The payload comes from Redis as the producer wrote it for this name (server-shared/jobs.ts, enqueueJob).
  return JOB_KINDS[name].handle(context, job.data as JobPayloads[typeof name], job, signal);
}

/** Every kind's pending rows, as jobs to enqueue again. */
export async function pendingJobs(db: Knex, graceMs: number): Promise<QueuedJob[]> {
  const jobs: QueuedJob[] = [];
  for (const name of Object.keys(JOB_KINDS) as JobName[]) {
    for (const payload of await JOB_KINDS[name].pending(db, graceMs)) jobs.push({ name, payload });
  }
  return jobs;
}
