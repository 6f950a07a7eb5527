/** A booking's calendar event: the same in the confirmation e-mail and in the download from its link. */
import { brand } from '../domain/brand.js';
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
}

/** The name of everything the product sends about one booking: the e-mail's Message-ID and the event's UID. */
export function bookingUid(id: string, mailFrom: string): string {
  return `demo-${id}@${mailDomain(mailFrom)}`;
}

/**
 * The booking's event; its UID is the booking's, so every copy is the one event. REQUEST (the default) is the
 * invitation an e-mail carries; PUBLISH is the file a person downloads and imports, which asks for no reply.
 */
export function bookingInvitation(booking: Booking, options: { mailFrom: string; now: Date; method?: 'REQUEST' | 'PUBLISH' }): string {
  const event = demoEvent(booking.company, booking.timeSlot);
  return buildInvitation({
    method: options.method ?? 'REQUEST',
    uid: bookingUid(booking.id, options.mailFrom),
    sequence: 0,
    status: 'CONFIRMED',
    start: event.start,
    end: event.end,
    stamp: options.now,
    summary: event.title,
    description: event.details,
    organizer: { name: brand.product, address: mailAddress(options.mailFrom) },
    attendee: { name: singleLine(booking.name), address: booking.email },
  });
}
