/** A booking's calendar event: the same in the confirmation e-mail and in the download from its link. */
import { brand } from '../domain/brand.js';
import { SLOT_DURATION_MINUTES } from '../domain/booking.js';
import { singleLine } from '../domain/text.js';
import { buildInvitation } from './ics.js';
import { mailAddress, mailDomain } from './sender.js';

export interface InvitedBooking {
  id: string;
  name: string;
  email: string;
  company: string;
  timeSlot: Date;
}

export const slotEnd = (start: Date): Date => new Date(start.getTime() + SLOT_DURATION_MINUTES * 60_000);

/** The event's title and description, as calendars show them. */
export function eventText(company: string): { summary: string; description: string } {
  return {
    summary: `${brand.product} demo for ${singleLine(company)}`,
    description: `A ${SLOT_DURATION_MINUTES}-minute walkthrough of ${brand.product}: unified messaging, AI agents and network APIs. Reply to the confirmation e-mail to move it.`,
  };
}

/** The invitation (METHOD:REQUEST) for a booking; its UID is the booking's, so every copy is the one event. */
export function bookingInvitation(booking: InvitedBooking, options: { mailFrom: string; now: Date }): string {
  return buildInvitation({
    method: 'REQUEST',
    uid: `demo-${booking.id}@${mailDomain(options.mailFrom)}`,
    sequence: 0,
    status: 'CONFIRMED',
    start: booking.timeSlot,
    end: slotEnd(booking.timeSlot),
    stamp: options.now,
    ...eventText(booking.company),
    organizer: { name: brand.product, address: mailAddress(options.mailFrom) },
    attendee: { name: singleLine(booking.name), address: booking.email },
  });
}
