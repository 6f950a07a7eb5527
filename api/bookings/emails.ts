/**
 * The e-mails and host-calendar writes a booking or its change leaves in the outbox (deliveries), listed here and
 * stored by the booking's or the change's own statement (db/functions/booking-deliveries.sql), which also drops the prospect's
 * earlier e-mails a change overtakes: the prospect's confirmation, update or cancellation, the reminder before the
 * slot, the sales desk's notice, the host's. Whatever is due at once comes back, for the caller to enqueue after the
 * commit; a reminder waits for the worker's sweep to find it due.
 */
import { deliveryJob, type QueuedJob } from '../../server-shared/jobs.js';
import { DELIVERY_KINDS, sentAtOnce, type Channel, type DeliveryKind } from '../../server-shared/delivery-kinds.js';

export interface FollowUpSettings {
  /** The sales desk's address (SALES_NOTIFY_EMAIL): a notice for every booking, move and cancellation. */
  salesNotifyEmail?: string;
  /** How long before the slot the reminder goes out (REMINDER_MINUTES_BEFORE); 0: no reminders. */
  reminderMinutesBefore: number;
  /**
   * The site sends texts (SMPP_URL): the dialog offers the consent, and a booking that has it is texted. `zone`: the
   * booking zone, the clock of a text's reminder's quiet hours for a prospect whose own zone the booking does not know;
   * `perNumberPerDay` (SMS_PER_NUMBER_PER_DAY): texts to one number in 24 hours, whichever booking (0: no limit);
   * `perBooking` (SMS_PER_BOOKING): texts of one booking in all (0: no limit).
   */
  texts?: { zone: string; perNumberPerDay: number; perBooking: number };
}

export const DEFAULT_REMINDER_MINUTES_BEFORE = 1440;
export const DEFAULT_FOLLOW_UPS: FollowUpSettings = { reminderMinutesBefore: DEFAULT_REMINDER_MINUTES_BEFORE };

/**
 * 'reassigned': the demo handed to another host (its slot unchanged), by sales or because its host deleted or declined
 * its event; 'needs-new-time': its host did so and no other host could take it (api/hosts/host-answers.ts).
 */
export type BookingChange = 'booked' | 'rescheduled' | 'cancelled' | 'reassigned' | 'needs-new-time';

/**
 * An outbox row as the booking's or the change's statement is given it (booking_store_deliveries,
 * db/functions/booking-deliveries.sql): what it is and to whom. The database adds the booking, its slot and its sequence as
 * the statement leaves them, and the hosts' addresses, which only it knows: it chooses the host.
 */
export interface EmailRow {
  kind: DeliveryKind;
  /** The kind's, as the registry says. */
  channel: Channel;
  /** Absent for an e-mail to the booking's prospect, or to a host. */
  recipient?: string;
  /** To the booking's host after the change; stored only when it has one. */
  toHost?: true;
  /** To the host a move took the demo from; stored only when the demo left them. */
  toPreviousHost?: true;
  /** Names the slot a move gave up. */
  previousSlot?: true;
  /** To the number the booking's prospect consented to be texted at; stored only when it has one. */
  toPhone?: true;
  /** A text's reminder: moved out of the night on the prospect's clock (this zone when the booking knows none). */
  quietZone?: string;
  /** A text: not stored past this many texts to its number in 24 hours (0: no limit). */
  textLimit?: number;
  /** A text: not stored past this many texts of its booking (0: no limit). */
  bookingTextLimit?: number;
  change?: BookingChange;
  due_at?: Date;
}

const PROSPECT_EMAIL: Record<BookingChange, DeliveryKind> = {
  booked: 'confirmation',
  rescheduled: 'update',
  cancelled: 'cancellation',
  reassigned: 'update',
  'needs-new-time': 'new-time-needed',
};

/**
 * The outbox rows a booking or a change leaves, in the order they are stored: the prospect's e-mail, the reminder of
 * `timeSlot` (the slot booked or moved to; a cancellation has none), the sales desk's notice, then the host's copy by e-mail and in their own calendar (and both taken
 * back from a host a move or a reassignment takes the demo from; the worker's registry tells a write from a removal by the booking as
 * it then stands).
 */
export function emailRows(change: BookingChange, settings: FollowUpSettings, now: Date, timeSlot?: Date): EmailRow[] {
  // The host withdrew and nobody took the demo: the prospect's apology, the sales desk's notice, and the event taken
  // back from the host; no reminder of a slot the prospect no longer has a host for.
  if (change === 'needs-new-time') {
    const rows: Omit<EmailRow, 'channel'>[] = [{ kind: 'new-time-needed', change }];
    if (settings.salesNotifyEmail) rows.push({ kind: 'sales-notice', recipient: settings.salesNotifyEmail, change });
    rows.push(
      { kind: 'host-cancellation', toPreviousHost: true, change },
      { kind: 'host-calendar', toPreviousHost: true, change },
    );
    return rows.map((row) => ({ ...row, channel: DELIVERY_KINDS[row.kind].channel }));
  }
  const moved = change === 'rescheduled' ? { previousSlot: true as const } : {};
  // A reassignment's update says whom the prospect meets now rather than where the demo moved.
  const rows: Omit<EmailRow, 'channel'>[] = [
    { ...moved, kind: PROSPECT_EMAIL[change], ...(change === 'reassigned' ? { change } : {}) },
  ];
  const reminderAt = timeSlot && new Date(timeSlot.getTime() - settings.reminderMinutesBefore * 60_000);
  // None for a booking made later than the reminder would go out.
  if (reminderAt && settings.reminderMinutesBefore > 0 && reminderAt > now)
    rows.push({ kind: 'reminder', due_at: reminderAt });
  if (settings.salesNotifyEmail)
    rows.push({ ...moved, kind: 'sales-notice', recipient: settings.salesNotifyEmail, change });
  rows.push(
    { kind: change === 'cancelled' ? 'host-cancellation' : 'host-invitation', toHost: true, change },
    { kind: 'host-calendar', toHost: true, change },
  );
  if (change === 'rescheduled' || change === 'reassigned') {
    rows.push(
      { kind: 'host-cancellation', toPreviousHost: true, change },
      { kind: 'host-calendar', toPreviousHost: true, change },
    );
  }
  if (settings.texts)
    rows.push(
      ...textRows(change, settings.texts.zone, now, timeSlot).map((row) => ({
        ...row,
        textLimit: settings.texts!.perNumberPerDay,
        bookingTextLimit: settings.texts!.perBooking,
      })),
    );
  return rows.map((row) => ({ ...row, channel: DELIVERY_KINDS[row.kind].channel }));
}

/** How long before the slot a text's reminder goes (unless in the night on the prospect's clock). */
export const TEXT_REMINDER_MINUTES_BEFORE = 60;

const TEXT_OF_CHANGE: Record<Exclude<BookingChange, 'needs-new-time'>, DeliveryKind> = {
  booked: 'sms-confirmation',
  rescheduled: 'sms-update',
  reassigned: 'sms-update',
  cancelled: 'sms-cancellation',
};

/**
 * The texts of a change, to the number the prospect consented to (the statement stores none without one): its text,
 * and with a slot its reminder an hour before, moved out of the night (21:00 to 08:00 on the prospect's clock) to
 * 20:00 the evening before, and none when that is past (sms_reminder_due, db/functions/booking-deliveries.sql).
 */
function textRows(change: BookingChange, zone: string, now: Date, timeSlot?: Date): Omit<EmailRow, 'channel'>[] {
  // The host withdrew: the apology's e-mail asks for a new time; the phone hears of the demo once it has one.
  if (change === 'needs-new-time') return [];
  const rows: Omit<EmailRow, 'channel'>[] = [{ kind: TEXT_OF_CHANGE[change], toPhone: true, change }];
  const reminderAt = timeSlot && new Date(timeSlot.getTime() - TEXT_REMINDER_MINUTES_BEFORE * 60_000);
  if (change !== 'cancelled' && reminderAt && reminderAt > now)
    rows.push({ kind: 'sms-reminder', toPhone: true, due_at: reminderAt, quietZone: zone });
  return rows;
}

/** The rows as the statements take them (jsonb, read by booking_store_deliveries). */
export function emailsParameter(rows: readonly EmailRow[]): string {
  return JSON.stringify(
    rows.map((row) => ({
      kind: row.kind,
      channel: row.channel,
      recipient: row.recipient ?? null,
      to_host: row.toHost ?? false,
      to_previous_host: row.toPreviousHost ?? false,
      previous_slot: row.previousSlot ?? false,
      to_phone: row.toPhone ?? false,
      quiet_zone: row.quietZone ?? null,
      text_limit: row.textLimit ?? null,
      booking_text_limit: row.bookingTextLimit ?? null,
      change: row.change ?? null,
      due_at: row.due_at ?? null,
    })),
  );
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
