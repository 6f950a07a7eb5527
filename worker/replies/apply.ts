/**
 * A reply that passed its checks, applied to its booking: one statement (booking_reply, db/functions/replies.sql)
 * under the booking's row lock, then the jobs of what it stored queued, as the API does after a change. A Decline
 * stores the rows the prospect's own cancel stores (server-shared/delivery-kinds.ts): their cancellation, the sales
 * desk's notice, the host's cancellation and the removal from the host's calendar.
 */
import type { Knex } from 'knex';
import { DELIVERY_KINDS, sentAtOnce, type DeliveryKind } from '../../server-shared/delivery-kinds.js';
import { deliveryJob, type QueuedJob } from '../../server-shared/jobs.js';
import type { PartStat } from './itip.js';

/** What the statement did: declined (cancelled), recorded, or nothing (the reasons it gives). */
export type ReplyOutcome = 'declined' | 'recorded' | 'seen' | 'stale' | 'cancelled' | 'started' | 'unknown';

/** The booking a reply's UID names, with what its checks need. */
export interface RepliedBooking {
  id: string;
  recipient: string;
  status: string;
}

export async function bookingOfReply(db: Knex, id: string): Promise<RepliedBooking | undefined> {
  const row = (await db('bookings').where({ id }).first('id', 'recipient', 'status')) as RepliedBooking | undefined;
  return row;
}

/** The outbox rows of a Decline, as booking_store_deliveries takes them (the API's emailRows for a cancel). */
function declineRows(salesNotifyEmail: string | undefined): object[] {
  const row = (kind: DeliveryKind, more: object = {}) => ({
    kind,
    channel: DELIVERY_KINDS[kind].channel,
    recipient: null,
    to_host: false,
    to_previous_host: false,
    previous_slot: false,
    change: null,
    due_at: null,
    ...more,
  });
  return [
    row('cancellation'),
    ...(salesNotifyEmail ? [row('sales-notice', { recipient: salesNotifyEmail, change: 'cancelled' })] : []),
    row('host-cancellation', { to_host: true, change: 'cancelled' }),
    row('host-calendar', { to_host: true, change: 'cancelled' }),
  ];
}

interface Stored {
  id: string;
  kind?: DeliveryKind;
  due: number | string;
}

export async function applyReply(
  db: Knex,
  reply: { bookingId: string; partstat: PartStat; sequence: number; stamp: Date; now: Date },
  salesNotifyEmail: string | undefined,
): Promise<{ outcome: ReplyOutcome; jobs: QueuedJob[] }> {
  const { rows } = (await db.raw('SELECT * FROM booking_reply(?, ?, ?, ?, ?, ?::jsonb)', [
    reply.bookingId,
    reply.partstat,
    reply.sequence,
    reply.stamp,
    reply.now,
    JSON.stringify(declineRows(salesNotifyEmail)),
  ])) as { rows: { outcome: ReplyOutcome; emails: Stored[]; webhooks: Stored[] }[] };
  const result = rows[0];
  if (!result) return { outcome: 'unknown', jobs: [] };
  const jobs = [
    ...result.emails.filter((row) => row.kind === undefined || sentAtOnce(row.kind)),
    ...result.webhooks,
  ].map((row) => deliveryJob(row.id, Number(row.due)));
  return { outcome: result.outcome, jobs };
}
