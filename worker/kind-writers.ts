/**
 * The registry of delivery kinds, the worker's half: for each kind of outbox row (deliveries), its line of data
 * (server-shared/delivery-kinds.ts: channel, recipient, timing, order, tries) with the template that writes it and
 * the rule that says when it no longer tells the truth. One kind is not an e-mail but goes the same way:
 * `host-calendar`, the event written into the host's own calendar over CalDAV.
 */
import {
  DELIVERY_KINDS,
  type CalendarKindData,
  type DeliveryKind,
  type EmailKindData,
  type SmsKindData,
  type WebhookKindData,
} from '../server-shared/delivery-kinds.js';
import { writeText, type TextKind, type TextOptions } from './sms/texts.js';
import { brand, type Contact } from '../domain/brand.js';
import type { RoutingQuestion } from '../domain/routing.js';
import { invitePathOf, managePathOf } from '../server-shared/booking-link.js';
import { bookingInvitation, bookingUid, type Booking } from '../server-shared/invitation.js';
import {
  renderCancellation,
  renderNewTimeNeeded,
  renderReassigned,
  renderReminder,
  renderUpdate,
} from './email/booking-changes.js';
import { renderConfirmation, type ProspectEmailOptions } from './email/confirmation.js';
import { renderHostCancellation, renderHostInvitation } from './email/host-emails.js';
import { renderSalesNotice } from './email/sales-notice.js';
import type { ChangeRow, Lead } from './delivery-row.js';
import { taggedReplyAddress } from './replies/organizer.js';

/** What writing a row needs: no database, no transport. */
export interface ComposeDeps {
  mailFrom: string;
  timeZone: string;
  publicUrl: string;
  /** How buyers reach the sales desk (CONTACT_EMAIL, CONTACT_PHONE), in every e-mail's footer; the brand's own when unset. */
  contact?: Contact;
  /** Signs the booking's links (its manage page and the invitation's download). */
  linkSecret: string;
  /** REPLY_MAILBOX_ADDRESS: the invitations' ORGANIZER, the prospect's tagged (replies/organizer.ts); unset: the host's. */
  replyAddress?: string | undefined;
  now?: () => Date;
  /** The team file's questions, whose labels the sales notice shows beside the answers. */
  questions?: readonly RoutingQuestion[];
}

/** What a template is given besides the booking; the sales notice reads the questions too. */
export type WriteOptions = ProspectEmailOptions & { questions: readonly RoutingQuestion[] };

/** What a template is given besides the booking: the links, the zone, the contact and the change's sequence. */
export function writeOptions(deps: ComposeDeps, bookingId: string, sequence: number): WriteOptions {
  return {
    timeZone: deps.timeZone,
    mailFrom: deps.mailFrom,
    publicUrl: deps.publicUrl,
    contact: deps.contact ?? brand.company.contact,
    now: deps.now?.() ?? new Date(),
    inviteUrl: `${deps.publicUrl}${invitePathOf(bookingId, deps.linkSecret)}`,
    manageUrl: `${deps.publicUrl}${managePathOf(bookingId, deps.linkSecret)}`,
    sequence,
    questions: deps.questions ?? [],
    ...(deps.replyAddress
      ? {
          replyOrganizer: {
            prospect: taggedReplyAddress(deps.replyAddress, bookingId, deps.linkSecret),
            team: deps.replyAddress,
          },
        }
      : {}),
  };
}

/** What a template gives: the message's words, and the event as an .ics when it carries one. */
export interface Written {
  subject: string;
  text: string;
  html: string;
  ics?: string;
}

interface Truth {
  /** Whether the row still tells the truth when it is about to be sent; false: dropped, never sent. */
  stillTrue(row: ChangeRow, lead: Lead, now: Date): boolean;
}

/** A write into the host's calendar: the event to store, or null to take it out. */
export interface CalendarKindWriter extends CalendarKindData, Truth {
  event(booking: Lead, row: ChangeRow, options: ProspectEmailOptions): string | null;
}

export interface EmailKindWriter extends EmailKindData, Truth {
  /** Writes the message about `booking` (the lead with the slot the row tells of). */
  write(booking: Lead, row: ChangeRow, options: WriteOptions): Written;
  /** Its Message-ID, when it is not one of its own row. */
  messageId?(lead: Booking, mailFrom: string): string;
}

/** A webhook delivery: its event is written by the change that raised it (db/functions/webhooks.sql), signed and posted by channels/webhook.ts. */
export type WebhookKindWriter = WebhookKindData;

/** A text to the prospect's phone (channels/sms.ts sends it). */
export interface SmsKindWriter extends SmsKindData, Truth {
  text(booking: Lead, options: TextOptions): string;
}

export type KindWriter = EmailKindWriter | CalendarKindWriter | WebhookKindWriter | SmsKindWriter;

/** A text's writer: its words (sms/texts.ts) and the truth its e-mail counterpart keeps. */
const textWriter = (kind: TextKind, stillTrue: Truth['stillTrue']): SmsKindWriter => ({
  ...DELIVERY_KINDS[kind],
  text: (booking, options) => writeText(kind, booking, options),
  stillTrue,
});

export const KIND_WRITERS: { readonly [K in DeliveryKind]: KindWriter } = {
  // The booking as it was made, the event's first version: once it has changed, the change's own e-mail tells where
  // it stands, and the confirmation would put back what the change replaced. Its Message-ID is the event's UID.
  confirmation: {
    ...DELIVERY_KINDS.confirmation,
    write: (booking, _row, options) => renderConfirmation(booking, options),
    stillTrue: (row, lead) => lead.status === 'booked' && lead.sequence === row.sequence,
    messageId: (lead, mailFrom) => `<${bookingUid(lead.id, mailFrom)}>`,
  },
  // A later change has its own e-mail, which tells the booking as it is now.
  update: {
    ...DELIVERY_KINDS.update,
    write: (booking, row, options) =>
      row.change === 'reassigned'
        ? renderReassigned(booking, options)
        : renderUpdate(booking, options, row.previous_time_slot),
    stillTrue: (row, lead) => lead.sequence <= row.sequence,
  },
  cancellation: {
    ...DELIVERY_KINDS.cancellation,
    write: (booking, _row, options) => renderCancellation(booking, options),
    stillTrue: () => true,
  },
  // The host withdrew and nobody took the demo; a later change (the prospect's new time) tells where it stands.
  'new-time-needed': {
    ...DELIVERY_KINDS['new-time-needed'],
    write: (booking, _row, options) => renderNewTimeNeeded(booking, options),
    stillTrue: (row, lead) => lead.status === 'booked' && lead.sequence <= row.sequence,
  },
  // Dropped with its slot: moved, cancelled, or already begun (a worker that was away for long).
  reminder: {
    ...DELIVERY_KINDS.reminder,
    write: (booking, _row, options) => renderReminder(booking, options),
    stillTrue: (row, lead, now) =>
      lead.status === 'booked' &&
      lead.timeSlot.getTime() === row.time_slot.getTime() &&
      row.time_slot.getTime() > now.getTime(),
  },
  'sales-notice': {
    ...DELIVERY_KINDS['sales-notice'],
    write: (booking, row, options) =>
      renderSalesNotice(booking, row.change ?? 'booked', options, row.previous_time_slot),
    stillTrue: (row) => row.recipient !== null && row.change !== null,
  },
  // The host's copy of the event, while the demo is theirs and no later change has its own.
  'host-invitation': {
    ...DELIVERY_KINDS['host-invitation'],
    write: (booking, row, options) => renderHostInvitation(asTheirs(booking, row), options),
    stillTrue: (row, lead) =>
      lead.status === 'booked' && lead.host?.email === row.recipient && lead.sequence <= row.sequence,
  },
  // The event withdrawn from a host: the demo cancelled, or handed to another host.
  'host-cancellation': {
    ...DELIVERY_KINDS['host-cancellation'],
    write: (booking, row, options) =>
      renderHostCancellation(
        asTheirs(booking, row),
        options,
        row.change === 'reassigned',
        row.change === 'needs-new-time',
      ),
    stillTrue: (row) => row.recipient !== null,
  },
  // The event in the host's own calendar: written while the demo is theirs, taken out when it is cancelled or handed
  // on. Of one host's writes about one booking the latest change wins; earlier ones still waiting are dropped, but
  // for a removal from a host the demo has left.
  'host-calendar': {
    ...DELIVERY_KINDS['host-calendar'],
    event: (booking, row, options) =>
      row.change === 'cancelled' || booking.status === 'cancelled' || booking.host?.email !== row.recipient
        ? null
        : bookingInvitation(booking, {
            mailFrom: options.mailFrom,
            now: options.now,
            method: null,
            sequence: row.sequence,
          }),
    // A removal stays true while the demo is not theirs, whatever came after: a later change (a second handover, say)
    // stores no row for a host it never touched, so dropping this one would leave the event in their calendar.
    stillTrue: (row, lead) =>
      row.recipient !== null &&
      (lead.sequence <= row.sequence || lead.status === 'cancelled' || lead.host?.email !== row.recipient),
  },
  webhook: DELIVERY_KINDS.webhook,
  // The texts keep the e-mails' truths: a later change's own text tells where the booking stands, a reminder goes
  // with its slot, and a cancel's note is always true (the phone's line makes it the last).
  'sms-confirmation': textWriter(
    'sms-confirmation',
    (row, lead) => lead.status === 'booked' && lead.sequence === row.sequence,
  ),
  'sms-update': textWriter('sms-update', (row, lead) => lead.status === 'booked' && lead.sequence <= row.sequence),
  'sms-cancellation': textWriter('sms-cancellation', () => true),
  // A reminder of its change alone: a later one (a handover, a host's withdrawal) stores its own when one is due, and
  // two reminders of one slot would reach the phone otherwise.
  'sms-reminder': textWriter(
    'sms-reminder',
    (row, lead, now) =>
      lead.status === 'booked' &&
      lead.sequence <= row.sequence &&
      lead.timeSlot.getTime() === row.time_slot.getTime() &&
      row.time_slot.getTime() > now.getTime(),
  ),
};

/** The booking as the row's host has it: a demo handed on names its earlier host, whose name the row does not keep. */
function asTheirs(booking: Lead, row: ChangeRow): Lead {
  if (row.recipient === null || booking.host?.email === row.recipient) return booking;
  return { ...booking, host: { email: row.recipient, name: row.recipient, title: '' } };
}
