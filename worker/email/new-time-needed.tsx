/**
 * The prospect's apology when their host withdrew from the demo (deleted or declined its event) and no other host of
 * their route was free at its time: the slot they had, and the booking's own page to choose a new time.
 */
import { brand } from '../../domain/brand.js';
import { demoEvent } from '../../domain/calendar-links.js';
import { singleLine } from '../../domain/text.js';
import type { Booking } from '../../server-shared/invitation.js';
import type { ProspectEmailOptions } from './confirmation.js';
import { firstName, renderEmail } from './layout.js';
import { Buttons, Paragraph, Times } from './parts.js';
import { slotRows, slotTimes } from './slot-times.js';
import type { PlainEmail } from './booking-changes.js';

export const NEW_TIME_LABEL = 'Choose a new time';

export function renderNewTimeNeeded(booking: Booking, options: ProspectEmailOptions): PlainEmail {
  const event = demoEvent(booking.company, booking.timeSlot, booking.meetingUrl);
  const times = slotTimes(event.start, event.end, options.timeZone, booking.visitorTimeZone);
  const name = singleLine(booking.name);
  const subject = `We are sorry: your ${brand.product} demo needs a new time`;
  const lead = `We are sorry: the colleague who was to give your demo of ${brand.product} for ${singleLine(booking.company)} can no longer make it, and nobody else on our team is free at this time:`;
  const next =
    'Please choose a new time that suits you on your booking’s page; a new invitation arrives as soon as you do. Our sales team has been told and may also write to you.';
  const { text, html } = renderEmail(
    {
      subject,
      heading: 'Your demo needs a new time',
      name: firstName(name),
      publicUrl: options.publicUrl,
      contact: options.contact,
      manageUrl: options.manageUrl,
    },
    <>
      <Paragraph>{lead}</Paragraph>
      <Times rows={slotRows(times)} />
      <Paragraph>{next}</Paragraph>
      <Buttons style={{ margin: '0 0 16px' }} buttons={[{ href: options.manageUrl, label: NEW_TIME_LABEL }]} />
    </>,
  );
  return { subject, text, html, toName: name };
}
