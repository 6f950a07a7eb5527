/**
 * The registry of e-mail kinds, the one place that says for each kind of outbox row (booking_emails) which template
 * writes it, to whom it goes, the METHOD of its calendar part, when it is sent, and when it no longer tells the truth.
 * One kind is not an e-mail but goes the same way: `host-calendar`, the event written into the host's own calendar
 * over CalDAV. Adding a kind: its template in email/, its line here, and its name in EMAIL_KINDS
 * (server-shared/jobs.ts), under which the API stores its rows. No migration: the table does not list the kinds.
 */
import type { EmailKind } from '../server-shared/jobs.js';
import { bookingInvitation, bookingUid, type Booking } from '../server-shared/invitation.js';
import { renderCancellation, renderReminder, renderUpdate } from './email/booking-changes.js';
import { renderConfirmation, type ProspectEmailOptions } from './email/confirmation.js';
import { renderHostCancellation, renderHostInvitation } from './email/host-emails.js';
import { renderSalesNotice } from './email/sales-notice.js';
import type { EmailRow, Lead } from './outbox.js';

/** What a template gives: the message's words, and the event as an .ics when it carries one. */
export interface Written {
  subject: string;
  text: string;
  html: string;
  ics?: string;
}

interface KindTiming {
  /** 'at once': the API enqueues the row, the sweep steps in after its grace period; 'when due': the sweep at due_at. */
  sent: 'at once' | 'when due';
  /** Whether the row still tells the truth when it is about to be sent; false: dropped, never sent. */
  stillTrue(row: EmailRow, lead: Lead, now: Date): boolean;
  /**
   * Rows of the kinds of one `order` group about one booking and to one recipient go out in the order of the
   * booking's changes: a later one waits while an earlier one is in flight, and drops earlier ones not yet claimed.
   */
  order?: 'prospect' | 'host-calendar';
}

/** A write into the host's calendar: the event to store, or null to take it out. */
export interface CalendarKindEntry extends KindTiming {
  via: 'caldav';
  event(booking: Lead, row: EmailRow, options: ProspectEmailOptions): string | null;
}

export interface EmailKindEntry extends KindTiming {
  via: 'smtp';
  /** Writes the message about `booking` (the lead with the slot the row tells of). */
  write(booking: Lead, row: EmailRow, options: ProspectEmailOptions): Written;
  /**
   * 'prospect': the booking's prospect (the row has no recipient of its own), in the order of the booking's changes;
   * 'row': the row's recipient (the sales desk, a host), replies going to the prospect.
   */
  to: 'prospect' | 'row';
  /** The METHOD of the .ics and of its `text/calendar` part (RFC 6047); null: the message carries no event. */
  method: 'REQUEST' | 'CANCEL' | 'PUBLISH' | null;
  /** 'invitation': the event as the message's calendar part, which a calendar acts on; 'file': an attachment to import. */
  calendarAs: 'invitation' | 'file';
  /** The name its recipient is addressed by, for a row's recipient who is not the booking's host. */
  recipientName?: string;
  /** Its Message-ID, when it is not one of its own row. */
  messageId?(lead: Booking, mailFrom: string): string;
}

export const EMAIL_KIND_REGISTRY: { readonly [K in EmailKind]: EmailKindEntry | CalendarKindEntry } = {
  // The booking as it was made, the event's first version: once it has changed, the change's own e-mail tells where
  // it stands, and the confirmation would put back what the change replaced. Its Message-ID is the event's UID.
  confirmation: {
    via: 'smtp',
    write: (booking, _row, options) => renderConfirmation(booking, options),
    to: 'prospect',
    order: 'prospect',
    method: 'REQUEST',
    calendarAs: 'invitation',
    sent: 'at once',
    stillTrue: (row, lead) => lead.status === 'booked' && lead.sequence === row.sequence,
    messageId: (lead, mailFrom) => `<${bookingUid(lead.id, mailFrom)}>`,
  },
  // A later change has its own e-mail, which tells the booking as it is now.
  update: {
    via: 'smtp',
    write: (booking, row, options) => renderUpdate(booking, options, row.previous_time_slot),
    to: 'prospect',
    order: 'prospect',
    method: 'REQUEST',
    calendarAs: 'invitation',
    sent: 'at once',
    stillTrue: (row, lead) => lead.sequence <= row.sequence,
  },
  cancellation: {
    via: 'smtp',
    write: (booking, _row, options) => renderCancellation(booking, options),
    to: 'prospect',
    order: 'prospect',
    method: 'CANCEL',
    calendarAs: 'invitation',
    sent: 'at once',
    stillTrue: () => true,
  },
  // Dropped with its slot: moved, cancelled, or already begun (a worker that was away for long).
  reminder: {
    via: 'smtp',
    write: (booking, _row, options) => renderReminder(booking, options),
    to: 'prospect',
    order: 'prospect',
    method: null,
    calendarAs: 'invitation',
    sent: 'when due',
    stillTrue: (row, lead, now) =>
      lead.status === 'booked' &&
      lead.timeSlot.getTime() === row.time_slot.getTime() &&
      row.time_slot.getTime() > now.getTime(),
  },
  'sales-notice': {
    via: 'smtp',
    write: (booking, row, options) =>
      renderSalesNotice(booking, row.change ?? 'booked', options, row.previous_time_slot),
    to: 'row',
    recipientName: 'Sales',
    method: 'PUBLISH',
    calendarAs: 'file',
    sent: 'at once',
    stillTrue: (row) => row.recipient !== null && row.change !== null,
  },
  // The host's copy of the event, while the demo is theirs and no later change has its own.
  'host-invitation': {
    via: 'smtp',
    write: (booking, row, options) => renderHostInvitation(asTheirs(booking, row), options),
    to: 'row',
    method: 'REQUEST',
    calendarAs: 'invitation',
    sent: 'at once',
    stillTrue: (row, lead) =>
      lead.status === 'booked' && lead.host?.email === row.recipient && lead.sequence <= row.sequence,
  },
  // The event withdrawn from a host: the demo cancelled, or handed to another host.
  'host-cancellation': {
    via: 'smtp',
    write: (booking, row, options) => renderHostCancellation(asTheirs(booking, row), options),
    to: 'row',
    method: 'CANCEL',
    calendarAs: 'invitation',
    sent: 'at once',
    stillTrue: (row) => row.recipient !== null,
  },
  // The event in the host's own calendar: written while the demo is theirs, taken out when it is cancelled or handed
  // on. Of one host's writes about one booking the latest change wins; earlier ones still waiting are dropped.
  'host-calendar': {
    via: 'caldav',
    event: (booking, row, options) =>
      row.change === 'cancelled' || booking.status === 'cancelled' || booking.host?.email !== row.recipient
        ? null
        : bookingInvitation(booking, {
            mailFrom: options.mailFrom,
            now: options.now,
            method: null,
            sequence: row.sequence,
          }),
    sent: 'at once',
    order: 'host-calendar',
    stillTrue: (row, lead) => row.recipient !== null && lead.sequence <= row.sequence,
  },
};

/** The booking as the row's host has it: a demo handed on names its earlier host, whose name the row does not keep. */
function asTheirs(booking: Lead, row: EmailRow): Lead {
  if (row.recipient === null || booking.host?.email === row.recipient) return booking;
  return { ...booking, host: { email: row.recipient, name: row.recipient, title: '' } };
}
