/**
 * The registry of e-mail kinds, the one place that says for each kind of outbox row (booking_emails) which template
 * writes it, to whom it goes, the METHOD of its calendar part, when it is sent, and when it no longer tells the truth.
 * Adding a kind: its template in email/, its line here, and its name in EMAIL_KINDS (server-shared/jobs.ts), under
 * which the API stores its rows. No migration: the table does not list the kinds.
 */
import type { EmailKind } from '../server-shared/jobs.js';
import { bookingUid, type Booking } from '../server-shared/invitation.js';
import { renderCancellation, renderReminder, renderUpdate } from './email/booking-changes.js';
import { renderConfirmation, type ProspectEmailOptions } from './email/confirmation.js';
import { renderSalesNotice } from './email/sales-notice.js';
import type { EmailRow, Lead } from './outbox.js';

/** What a template gives: the message's words, and the event as an .ics when it carries one. */
export interface Written {
  subject: string;
  text: string;
  html: string;
  ics?: string;
}

export interface EmailKindEntry {
  /** Writes the message about `booking` (the lead with the slot the row tells of). */
  write(booking: Lead, row: EmailRow, options: ProspectEmailOptions): Written;
  /**
   * 'prospect': the booking's prospect (the row has no recipient of its own), the invitation in the message as its
   * calendar part, in the order of the booking's changes; 'row': the row's recipient (the sales desk), replies going
   * to the prospect, the event as an attached file.
   */
  to: 'prospect' | 'row';
  /** The METHOD of the .ics and of its `text/calendar` part (RFC 6047); null: the message carries no event. */
  method: 'REQUEST' | 'CANCEL' | 'PUBLISH' | null;
  /** 'at once': the API enqueues the row, the sweep steps in after its grace period; 'when due': the sweep at due_at. */
  sent: 'at once' | 'when due';
  /** Whether the row still tells the truth when it is about to be sent; false: dropped, never sent. */
  stillTrue(row: EmailRow, lead: Lead, now: Date): boolean;
  /** Its Message-ID, when it is not one of its own row. */
  messageId?(lead: Booking, mailFrom: string): string;
}

export const EMAIL_KIND_REGISTRY: { readonly [K in EmailKind]: EmailKindEntry } = {
  // The booking as it was made, the event's first version: once it has changed, the change's own e-mail tells where
  // it stands, and the confirmation would put back what the change replaced. Its Message-ID is the event's UID.
  confirmation: {
    write: (booking, _row, options) => renderConfirmation(booking, options),
    to: 'prospect',
    method: 'REQUEST',
    sent: 'at once',
    stillTrue: (row, lead) => lead.status === 'booked' && lead.sequence === row.sequence,
    messageId: (lead, mailFrom) => `<${bookingUid(lead.id, mailFrom)}>`,
  },
  // A later change has its own e-mail, which tells the booking as it is now.
  update: {
    write: (booking, _row, options) => renderUpdate(booking, options),
    to: 'prospect',
    method: 'REQUEST',
    sent: 'at once',
    stillTrue: (row, lead) => lead.sequence <= row.sequence,
  },
  cancellation: {
    write: (booking, _row, options) => renderCancellation(booking, options),
    to: 'prospect',
    method: 'CANCEL',
    sent: 'at once',
    stillTrue: () => true,
  },
  // Dropped with its slot: moved, cancelled, or already begun (a worker that was away for long).
  reminder: {
    write: (booking, _row, options) => renderReminder(booking, options),
    to: 'prospect',
    method: null,
    sent: 'when due',
    stillTrue: (row, lead, now) =>
      lead.status === 'booked' && lead.timeSlot.getTime() === row.time_slot.getTime() && row.time_slot.getTime() > now.getTime(),
  },
  'sales-notice': {
    write: (booking, row, options) => renderSalesNotice(booking, row.change ?? 'booked', options),
    to: 'row',
    method: 'PUBLISH',
    sent: 'at once',
    stillTrue: (row) => row.recipient !== null && row.change !== null,
  },
};
