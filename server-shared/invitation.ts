/** A booking's calendar event: the same in the confirmation e-mail and in the download from its link. */
import { brand } from '../domain/brand.js';
import type { BookingHost } from '../domain/demo-request.js';
import { demoEvent } from '../domain/calendar-links.js';
import { singleLine } from '../domain/text.js';
import { buildInvitation } from './ics.js';
import { mailAddress, mailDomain } from './sender.js';

/** A booking as the e-mails and its link show it. */
export interface Booking {
  id: string;
  name: string;
  email: string;
  company: string;
  timeSlot: Date;
  /** The demo's video room; null for a booking made before rooms were given. */
  meetingUrl?: string | null;
  /** Who gives the demo, and their address; null without a team. */
  host?: (BookingHost & { email: string }) | null;
  /** The visitor's own time zone (IANA), when the page sent it: the prospect's e-mails show the slot in it too. */
  visitorTimeZone?: string | null;
}

/** The name of everything the product sends about one booking: the e-mail's Message-ID and the event's UID. */
export function bookingUid(id: string, mailFrom: string): string {
  return `demo-${id}@${mailDomain(mailFrom)}`;
}

export interface InvitationOptions {
  mailFrom: string;
  now: Date;
  /**
   * REQUEST (the default) is the invitation an e-mail carries, CANCEL withdraws it; PUBLISH is a file a person
   * imports, which asks for no reply.
   */
  method?: 'REQUEST' | 'CANCEL' | 'PUBLISH' | null;
  /** The booking's count of changes: calendars keep the event with the highest. */
  sequence?: number;
  cancelled?: boolean;
  /**
   * The reply mailbox's address (REPLY_MAILBOX_ADDRESS), where calendars send the attendee's answer: the ORGANIZER,
   * named as the host (or the product), the host staying a CHAIR attendee. Unset: the host organises.
   */
  organizerAddress?: string | undefined;
}

/** The booking's event; its UID is the booking's, so the confirmation, every update and the cancellation are one event. */
export function bookingInvitation(booking: Booking, options: InvitationOptions): string {
  const event = demoEvent(booking.company, booking.timeSlot, booking.meetingUrl);
  return buildInvitation({
    // null: an object stored in a calendar, which carries no METHOD (RFC 4791, 4.1).
    method: options.method === undefined ? 'REQUEST' : options.method,
    uid: bookingUid(booking.id, options.mailFrom),
    sequence: options.sequence ?? 0,
    status: options.cancelled || options.method === 'CANCEL' ? 'CANCELLED' : 'CONFIRMED',
    start: event.start,
    end: event.end,
    stamp: options.now,
    summary: event.title,
    description: event.details,
    // The host organises the demo they give; without a team, the product does.
    organizer: {
      name: booking.host ? singleLine(booking.host.name) : brand.product,
      address: options.organizerAddress ?? booking.host?.email ?? mailAddress(options.mailFrom),
    },
    attendee: { name: singleLine(booking.name), address: booking.email },
    ...(booking.host ? { host: { name: singleLine(booking.host.name), address: booking.host.email } } : {}),
    ...(booking.meetingUrl ? { meetingUrl: booking.meetingUrl } : {}),
  });
}
