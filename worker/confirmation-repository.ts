/** The worker's SQL: the outbox columns of demo_requests. */
import type { Knex } from 'knex';
import type { ConfirmationRequest } from './confirmation-email.js';

export interface PendingConfirmation extends ConfirmationRequest {
  sentAt: Date | null;
}

/** Locks the row for the rest of the transaction, so two deliveries of one job cannot both send. */
export async function lockConfirmation(trx: Knex.Transaction, id: string): Promise<PendingConfirmation | undefined> {
  const row = await trx('demo_requests')
    .select('id', 'name', 'email', 'company', 'time_slot', 'confirmation_sent_at')
    .where({ id })
    .forUpdate()
    .first();
  if (!row) return undefined;
  return { id: row.id, name: row.name, email: row.email, company: row.company, timeSlot: row.time_slot, sentAt: row.confirmation_sent_at };
}

export async function markSent(trx: Knex.Transaction, id: string): Promise<void> {
  await trx('demo_requests')
    .where({ id })
    .update({ confirmation_sent_at: trx.fn.now(), confirmation_last_error: null, confirmation_attempts: trx.raw('confirmation_attempts + 1') });
}

/** Records a failed try; a permanent one (the server refused the message for good) also ends the tries. */
export async function recordFailure(trx: Knex.Transaction, id: string, error: string, permanent: boolean): Promise<void> {
  await trx('demo_requests')
    .where({ id })
    .update({
      confirmation_last_error: error.slice(0, 2000),
      confirmation_attempts: trx.raw('confirmation_attempts + 1'),
      ...(permanent ? { confirmation_failed_at: trx.fn.now() } : {}),
    });
}

/** Rows whose confirmation is still pending after the grace period, oldest first. */
export async function findStalePending(db: Knex, graceMs: number, maxAttempts: number, limit = 500): Promise<string[]> {
  const rows: { id: string }[] = await db('demo_requests')
    .select('id')
    .whereNull('confirmation_sent_at')
    .whereNull('confirmation_failed_at')
    .where('created_at', '<', db.raw("now() - make_interval(secs => ?)", [graceMs / 1000]))
    .where('confirmation_attempts', '<', maxAttempts)
    .orderBy('created_at')
    .limit(limit);
  return rows.map((row) => row.id);
}
