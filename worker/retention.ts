/**
 * Retention (RETENTION_DAYS): a booking whose slot ended more than that many days ago loses its personal data. What
 * goes: the prospect's name, e-mail, company, phone and message, their canonical address and its domain, the video
 * room's link, their time zone, the number they consented to be texted at with the consent and the texts' short links, the attribution beyond utm_source, utm_medium and utm_campaign (a referrer or a term can name a
 * person), on its e-mail and text rows the addresses and last errors (which may quote an address), and in its webhook events'
 * payloads the same fields (the log of their tries keeps status and timing, not the receivers' answers); an e-mail
 * of it still unsent is dropped. What stays: the dates, the status, the host and the sequence, what the aggregate figures need.
 * (Idempotency keys go after a day, the honeypot's catches a week after their slot: the API purges both.) The
 * funnel's daily counts, which name nobody, go once their day is more than RETENTION_DAYS ago (deleteOldFunnelCounts).
 * The slots hosts gave up (host_freed_slots) go once the slot has ended: they only keep a host out of a slot still to
 * come (deletePastFreedSlots).
 *
 * It runs from the worker's sweep timer, in small batches, each its own short transaction: rows another transaction
 * holds (a move, a claim) are skipped until a later round, and no lock is waited on for more than a moment, so a
 * booking, a move or a send never waits on retention.
 */
import type { Knex } from 'knex';
import { SLOT_DURATION_MINUTES } from '../domain/booking.js';

/** Bookings one transaction anonymises. */
export const RETENTION_BATCH = 500;
/** Batches one round does at most: a backlog (the first round after a deploy) is worked off over several rounds. */
export const RETENTION_BATCHES_PER_ROUND = 20;
/** The longest a batch waits on a lock (an e-mail row a worker is updating) before it gives up until a later round. */
const LOCK_TIMEOUT_MS = 500;
const RETENTION_LOCK = 'converge:retention';
/** The attribution that names a campaign, not a person. */
const KEPT_ATTRIBUTION = ['utm_source', 'utm_medium', 'utm_campaign'];

/**
 * One batch, in the caller's transaction: up to `batchSize` bookings past retention, oldest slot first, that no
 * other transaction holds (SKIP LOCKED), anonymised with their e-mail rows. Returns how many.
 */
export async function anonymiseBatch(
  trx: Knex.Transaction,
  retentionDays: number,
  batchSize = RETENTION_BATCH,
): Promise<number> {
  await trx.raw(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT_MS}ms'`);
  const { rows } = (await trx.raw(
    `WITH picked AS (
       SELECT id FROM bookings
        WHERE anonymised_at IS NULL AND time_slot < now() - make_interval(days => ?, mins => ?)
        ORDER BY time_slot LIMIT ? FOR UPDATE SKIP LOCKED),
     emails AS (
       UPDATE deliveries e SET recipient = NULL, last_error = NULL, claimed_until = NULL,
           dropped_at = CASE WHEN e.sent_at IS NULL AND e.failed_at IS NULL THEN coalesce(e.dropped_at, now()) ELSE e.dropped_at END
         FROM picked WHERE e.booking_id = picked.id AND e.channel IN ('email', 'calendar', 'sms')),
     links AS (
       DELETE FROM sms_links l USING picked WHERE l.booking_id = picked.id),
     hooks AS (
       UPDATE webhook_events w SET payload = jsonb_set(
           jsonb_set(w.payload, '{data,booking}',
             (w.payload #> '{data,booking}') - 'name' - 'email' - 'company' - 'phone' - 'message' - 'meetingUrl'),
           '{data,attribution}',
           CASE WHEN jsonb_typeof(w.payload #> '{data,attribution}') = 'object'
                THEN coalesce((SELECT jsonb_object_agg(a.key, a.value) FROM jsonb_each(w.payload #> '{data,attribution}') AS a
                                WHERE a.key = ANY(?::text[])), '{}'::jsonb)
                ELSE 'null'::jsonb END)
         FROM picked WHERE w.booking_id = picked.id
       RETURNING w.id),
     answers AS (
       UPDATE webhook_attempts t SET response_excerpt = NULL, error = NULL
         FROM deliveries d, hooks WHERE d.event_id = hooks.id AND t.delivery_id = d.id)
     UPDATE bookings b SET name = '', email = '', company = '', phone = NULL, message = NULL, recipient = NULL,
         recipient_domain = NULL, meeting_url = NULL, visitor_time_zone = NULL, anonymised_at = now(),
         sms_phone = NULL, sms_consent_text = NULL, sms_consent_at = NULL,
         attribution = (SELECT jsonb_object_agg(a.key, a.value) FROM jsonb_each(b.attribution) AS a WHERE a.key = ANY(?::text[]))
       FROM picked WHERE b.id = picked.id
     RETURNING b.id`,
    [retentionDays, SLOT_DURATION_MINUTES, batchSize, KEPT_ATTRIBUTION, KEPT_ATTRIBUTION],
  )) as { rows: { id: string }[] };
  return rows.length;
}

/**
 * Anonymises the bookings past retention, a batch per transaction, until none is left or `maxBatches` were done.
 * Returns how many; null when another process is at it right now (one at a time, as the sweep).
 */
export async function applyRetention(
  db: Knex,
  retentionDays: number,
  options: { batchSize?: number; maxBatches?: number } = {},
): Promise<number | null> {
  const batchSize = options.batchSize ?? RETENTION_BATCH;
  let anonymised = 0;
  for (let batch = 0; batch < (options.maxBatches ?? RETENTION_BATCHES_PER_ROUND); batch += 1) {
    const done = await db.transaction(async (trx) => {
      const { rows } = await trx.raw('SELECT pg_try_advisory_xact_lock(hashtextextended(?, 0)) AS locked', [
        RETENTION_LOCK,
      ]);
      if (!rows[0]?.locked) return null;
      return anonymiseBatch(trx, retentionDays, batchSize);
    });
    if (done === null) return batch === 0 ? null : anonymised;
    anonymised += done;
    if (done < batchSize) break;
  }
  return anonymised;
}

/**
 * The slots hosts gave up by deleting or declining a demo's event (host_freed_slots, api/hosts/host-answers.ts), once
 * the slot has ended: such a row only keeps its host from being offered or given that slot, and an ended slot is
 * offered to nobody. One statement, by the table's time_slot index (a few rows a day). Returns how many went.
 */
export async function deletePastFreedSlots(db: Knex): Promise<number> {
  return db('host_freed_slots')
    .where('time_slot', '<', db.raw('now() - make_interval(mins => ?)', [SLOT_DURATION_MINUTES]))
    .delete();
}

/**
 * The funnel's daily counts of days more than `retentionDays` ago, deleted in one statement (a day holds a few rows
 * per source, and the sources are few). Returns how many rows went.
 */
export async function deleteOldFunnelCounts(db: Knex, retentionDays: number): Promise<number> {
  return db('funnel_daily_counts')
    .where('day', '<', db.raw('current_date - ?::int', [retentionDays]))
    .delete();
}
