/**
 * The e-mails and host-calendar writes a booking or its change leaves in the outbox (deliveries), stored in the same transaction: the
 * prospect's confirmation, update or cancellation, the reminder before the slot, the sales desk's notice; a change's
 * transaction also drops the prospect's earlier e-mails still unsent (server-shared/prospect-emails.ts). Whatever is
 * due at once is returned, for the caller to enqueue after the commit; a reminder waits for the worker's sweep to
 * find it due.
 */
import type { Knex } from 'knex';
import { deliveryJob, type QueuedJob } from '../../server-shared/jobs.js';
import { DELIVERY_KINDS, sentAtOnce, type Channel, type DeliveryKind } from '../../server-shared/delivery-kinds.js';
import { settleEarlierProspectEmails } from '../../server-shared/prospect-emails.js';

export interface FollowUpSettings {
  /** The sales desk's address (SALES_NOTIFY_EMAIL): a notice for every booking, move and cancellation. */
  salesNotifyEmail?: string;
  /** How long before the slot the reminder goes out (REMINDER_MINUTES_BEFORE); 0: no reminders. */
  reminderMinutesBefore: number;
}

export const DEFAULT_REMINDER_MINUTES_BEFORE = 1440;
export const DEFAULT_FOLLOW_UPS: FollowUpSettings = { reminderMinutesBefore: DEFAULT_REMINDER_MINUTES_BEFORE };

export type BookingChange = 'booked' | 'rescheduled' | 'cancelled';

/** A booking as it stands after the change. */
export interface ChangedBooking {
  id: string;
  timeSlot: Date;
  sequence: number;
  /** Its host after the change; null without a team. */
  host?: { email: string } | null;
}

/**
 * Who hosts the demo around the change: `before`, the host until now (a move may hand the demo on); `team`, for a new
 * booking, whose host `book` chooses in the database and writes into its rows.
 */
export interface HostChange {
  before?: string;
  team?: boolean;
}

/** Where a moved booking was: the slot its move's e-mails name as the earlier one, and its host until now. */
export interface BookingBefore {
  timeSlot: Date;
  host?: string;
}

export interface EmailRow {
  booking_id: string;
  kind: DeliveryKind;
  /** The kind's, as the registry says. */
  channel: Channel;
  time_slot: Date;
  sequence: number;
  /** Absent for an e-mail to the booking's prospect. */
  recipient?: string;
  /** To the host `book` chooses: the database writes their address in. */
  toHost?: true;
  change?: BookingChange;
  due_at?: Date;
  /** A move's slot before it, on the e-mails that tell of the move. */
  previous_time_slot?: Date;
}

const PROSPECT_EMAIL: Record<BookingChange, DeliveryKind> = {
  booked: 'confirmation',
  rescheduled: 'update',
  cancelled: 'cancellation',
};

/** The outbox rows a booking or a change leaves (without their ids), in the order they are stored. */
export function emailRows(
  booking: ChangedBooking,
  change: BookingChange,
  settings: FollowUpSettings,
  now: Date,
  hosts: HostChange = {},
  previousTimeSlot?: Date,
): EmailRow[] {
  const event = { booking_id: booking.id, time_slot: booking.timeSlot, sequence: booking.sequence };
  const moved = change === 'rescheduled' && previousTimeSlot ? { previous_time_slot: previousTimeSlot } : {};
  const rows: Omit<EmailRow, 'channel'>[] = [{ ...event, ...moved, kind: PROSPECT_EMAIL[change] }];
  const reminderAt = new Date(booking.timeSlot.getTime() - settings.reminderMinutesBefore * 60_000);
  // None for a booking made later than the reminder would go out.
  if (change !== 'cancelled' && settings.reminderMinutesBefore > 0 && reminderAt > now)
    rows.push({ ...event, kind: 'reminder', due_at: reminderAt });
  if (settings.salesNotifyEmail)
    rows.push({ ...event, ...moved, kind: 'sales-notice', recipient: settings.salesNotifyEmail, change });
  // The host's copy of the event by e-mail and in their own calendar, and both taken back from a host the demo is no
  // longer with (the worker's registry tells a write from a removal by the booking as it then stands).
  const host = booking.host?.email;
  if (change === 'booked' && hosts.team) {
    rows.push(
      { ...event, kind: 'host-invitation', toHost: true, change },
      { ...event, kind: 'host-calendar', toHost: true, change },
    );
  }
  if (host && change !== 'booked') {
    rows.push(
      { ...event, kind: change === 'cancelled' ? 'host-cancellation' : 'host-invitation', recipient: host, change },
      { ...event, kind: 'host-calendar', recipient: host, change },
    );
  }
  if (hosts.before && hosts.before !== host && change === 'rescheduled') {
    rows.push(
      { ...event, kind: 'host-cancellation', recipient: hosts.before, change },
      { ...event, kind: 'host-calendar', recipient: hosts.before, change },
    );
  }
  return rows.map((row) => ({ ...row, channel: DELIVERY_KINDS[row.kind].channel }));
}

/** A stored row as the jobs need it: its id, kind and due time (epoch milliseconds; bigint comes back as text). */
export interface StoredRow {
  id: string;
  kind: DeliveryKind;
  due: number | string;
}

/**
 * The jobs to enqueue after the commit for the rows stored: those the registry sends at once (a reminder waits for the
 * sweep to find it due).
 */
export function emailJobs(stored: readonly StoredRow[]): QueuedJob[] {
  return stored.filter((row) => sentAtOnce(row.kind)).map((row) => deliveryJob(row.id, Number(row.due)));
}

/** Stores a change's e-mails; the new booking's are stored by `book` (db/functions/bookings.sql) with the booking. */
export async function storeEmails(
  trx: Knex.Transaction,
  booking: ChangedBooking,
  change: BookingChange,
  settings: FollowUpSettings,
  now: Date,
  before?: BookingBefore,
): Promise<QueuedJob[]> {
  // The prospect's e-mails the change has overtaken and that are not being sent right now (the confirmation, an
  // earlier update, the reminder of the slot given up) are never to go out: the change's own e-mail says where the
  // booking stands. One being sent right now goes first; the worker holds this change's e-mail until it has.
  await settleEarlierProspectEmails(trx, booking.id, booking.sequence);
  const rows = emailRows(booking, change, settings, now, before?.host ? { before: before.host } : {}, before?.timeSlot);
  const stored: { id: string; kind: DeliveryKind; due_at: Date }[] = await trx('deliveries')
    .insert(rows)
    .returning(['id', 'kind', 'due_at']);
  return emailJobs(stored.map(({ id, kind, due_at }) => ({ id, kind, due: due_at.getTime() })));
}
