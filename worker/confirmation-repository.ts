/** The worker's SQL: the outbox columns of demo_requests. */
import type { Knex } from 'knex';
import type { Booking } from '../server-shared/invitation.js';

/**
 * How long a claim holds. Longer than a send may take (the transport gives up on a silent server after 30 s), so a
 * live worker never loses its claim mid-send; a dead worker's claim runs out and the sweep hands the row on.
 */
export const CLAIM_LEASE_MS = 60_000;

export type ClaimOutcome =
  | { claimed: true; request: Booking }
  | { claimed: false; reason: 'missing' | 'already-sent' | 'refused' | 'claimed-elsewhere' };

/** Rows whose confirmation is still to send (neither sent nor refused for good) and held by no live claim. */
function openToClaim(query: Knex.QueryBuilder, db: Knex): Knex.QueryBuilder {
  return query
    .whereNull('confirmation_sent_at')
    .whereNull('confirmation_failed_at')
    .where((open) => open.whereNull('confirmation_claimed_until').orWhere('confirmation_claimed_until', '<', db.fn.now()));
}

/**
 * Claims the row's pending confirmation for this worker, in one statement: only one of two workers handed the same
 * job at once gets it. A claim past its lease may be taken over.
 */
export async function claimConfirmation(db: Knex, id: string, leaseMs = CLAIM_LEASE_MS): Promise<ClaimOutcome> {
  const [row] = await openToClaim(db('demo_requests').where({ id }), db)
    .update({ confirmation_claimed_until: db.raw('now() + make_interval(secs => ?)', [leaseMs / 1000]) })
    .returning(['id', 'name', 'email', 'company', 'time_slot']);
  if (row) return { claimed: true, request: { id: row.id, name: row.name, email: row.email, company: row.company, timeSlot: row.time_slot } };
  const current = await db('demo_requests').select('confirmation_sent_at', 'confirmation_failed_at').where({ id }).first();
  if (!current) return { claimed: false, reason: 'missing' };
  if (current.confirmation_sent_at) return { claimed: false, reason: 'already-sent' };
  if (current.confirmation_failed_at) return { claimed: false, reason: 'refused' };
  return { claimed: false, reason: 'claimed-elsewhere' };
}

export async function markSent(db: Knex, id: string): Promise<void> {
  await db('demo_requests').where({ id }).update({
    confirmation_sent_at: db.fn.now(),
    confirmation_claimed_until: null,
    confirmation_last_error: null,
    confirmation_attempts: db.raw('confirmation_attempts + 1'),
  });
}

/** Records a failed try and lets go of the claim; a permanent failure (refused for good) also ends the tries. */
export async function recordFailure(db: Knex, id: string, error: string, permanent: boolean): Promise<void> {
  await db('demo_requests')
    .where({ id })
    .update({
      confirmation_claimed_until: null,
      confirmation_last_error: error.slice(0, 2000),
      confirmation_attempts: db.raw('confirmation_attempts + 1'),
      ...(permanent ? { confirmation_failed_at: db.fn.now() } : {}),
    });
}

/** Rows whose confirmation is still pending after the grace period and not claimed by a live worker, oldest first. */
export async function findStalePending(db: Knex, graceMs: number, maxAttempts: number, limit = 500): Promise<string[]> {
  const rows: { id: string }[] = await openToClaim(db('demo_requests').select('id'), db)
    .where('created_at', '<', db.raw('now() - make_interval(secs => ?)', [graceMs / 1000]))
    .where('confirmation_attempts', '<', maxAttempts)
    .orderBy('created_at')
    .limit(limit);
  return rows.map((row) => row.id);
}
