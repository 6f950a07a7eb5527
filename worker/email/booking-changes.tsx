/**
 * The e-mails a prospect receives after the confirmation: the demo moved (a new invitation for the same event), the
 * demo cancelled (the event withdrawn), the demo needing a new time (the event withdrawn too, until the prospect picks
 * one) and the reminder before the call.
 */
import { brand, telHref } from '../../domain/brand.js';
import { demoEvent, googleCalendarLink, outlookCalendarLink } from '../../domain/calendar-links.js';
import { singleLine } from '../../domain/text.js';
import { bookingInvitation, type Booking } from '../../server-shared/invitation.js';
import type { ProspectEmailOptions, RenderedEmail } from './confirmation.js';
import { CalendarButtons, prospectFrame, renderEmail } from './layout.js';
import { Meeting } from './meeting.js';
import { Buttons, Link, Paragraph, Times } from './parts.js';
import { slotMove, slotRows, slotTimes } from './slot-times.js';

/** An e-mail with no invitation attached (the reminder). */
export type PlainEmail = Omit<RenderedEmail, 'ics'>;

function calendarOf(booking: Booking, options: ProspectEmailOptions) {
  const event = demoEvent(booking.company, booking.timeSlot, booking.meetingUrl);
  return {
    times: slotTimes(event.start, event.end, options.timeZone, booking.visitorTimeZone),
    links: { google: googleCalendarLink(event), outlook: outlookCalendarLink(event), ics: options.inviteUrl },
  };
}

/** The event withdrawn from the prospect's calendar: its UID, the change's SEQUENCE, METHOD:CANCEL. */
function withdrawal(booking: Booking, options: ProspectEmailOptions): string {
  return bookingInvitation(booking, {
    mailFrom: options.mailFrom,
    now: options.now,
    method: 'CANCEL',
    sequence: options.sequence,
    organizerAddress: options.replyOrganizer?.prospect,
  });
}

const UPDATE_FILE_LABEL = 'Update your calendar (.ics)';
const REMOVED_FROM_CALENDAR = 'The attached update removes the event from your calendar.';

/**
 * The booking now holds `booking.timeSlot`: the same event, its SEQUENCE raised, sent as a new REQUEST. It says where
 * the demo was (`previousTimeSlot`, stored with the move) when it knows.
 */
export function renderUpdate(
  booking: Booking,
  options: ProspectEmailOptions,
  previousTimeSlot?: Date | null,
): RenderedEmail {
  const { times, links } = calendarOf(booking, options);
  const name = singleLine(booking.name);
  const subject = `Your ${brand.product} demo has moved: ${times.zoned}`;
  const demo = `Your demo of ${brand.product} for ${singleLine(booking.company)}`;
  const lead = previousTimeSlot
    ? `${demo} has moved ${slotMove(previousTimeSlot, booking.timeSlot, options.timeZone)} (${times.zoneLabel}). It now takes place at this time:`
    : `${demo} now takes place at this time:`;
  const note =
    'The calendar invitation attached replaces the earlier one; accept it to update the event in your calendar.';
  // Google Calendar's and Outlook's links would add a second event beside the first; the .ics replaces it by its UID.
  const fileOnly =
    'No invitation in your mail program? Open the calendar file below: it replaces the event too. (Links to add it to Google Calendar or Outlook would make a second event, so this e-mail leaves them out.)';
  const { text, html } = renderEmail(
    prospectFrame(name, options, { subject, heading: 'Your demo has moved' }),
    <>
      <Paragraph>{lead}</Paragraph>
      <Times rows={slotRows(times)} />
      <Meeting booking={booking} />
      <Paragraph>{note}</Paragraph>
      <Paragraph>{fileOnly}</Paragraph>
      <Buttons style={{ margin: '0 0 16px' }} buttons={[{ href: links.ics, label: UPDATE_FILE_LABEL }]} />
    </>,
  );
  const ics = bookingInvitation(booking, {
    mailFrom: options.mailFrom,
    now: options.now,
    sequence: options.sequence,
    organizerAddress: options.replyOrganizer?.prospect,
  });
  return { subject, text, html, ics, toName: name };
}

/**
 * Sales handed the demo to another host, at the same time: the same event, its SEQUENCE raised and its organiser the
 * new host, sent as a new REQUEST, saying whom the prospect meets now.
 */
export function renderReassigned(booking: Booking, options: ProspectEmailOptions): RenderedEmail {
  const { times, links } = calendarOf(booking, options);
  const name = singleLine(booking.name);
  const host = booking.host ? singleLine(booking.host.name) : 'another member of our team';
  const subject = `Your ${brand.product} demo is now with ${host}: ${times.zoned}`;
  const lead = `Your demo of ${brand.product} for ${singleLine(booking.company)} is now given by ${host}, at the same time:`;
  const note =
    'The calendar invitation attached replaces the earlier one; accept it to update the event in your calendar.';
  const { text, html } = renderEmail(
    prospectFrame(name, options, { subject, heading: 'Who you meet has changed' }),
    <>
      <Paragraph>{lead}</Paragraph>
      <Times rows={slotRows(times)} />
      <Meeting booking={booking} />
      <Paragraph>{note}</Paragraph>
      <Buttons style={{ margin: '0 0 16px' }} buttons={[{ href: links.ics, label: UPDATE_FILE_LABEL }]} />
    </>,
  );
  const ics = bookingInvitation(booking, {
    mailFrom: options.mailFrom,
    now: options.now,
    sequence: options.sequence,
    organizerAddress: options.replyOrganizer?.prospect,
  });
  return { subject, text, html, ics, toName: name };
}

/** The booking is cancelled: the event withdrawn (METHOD:CANCEL), and a way to book again. */
export function renderCancellation(booking: Booking, options: ProspectEmailOptions): RenderedEmail {
  const { times } = calendarOf(booking, options);
  const name = singleLine(booking.name);
  const subject = `Your ${brand.product} demo is cancelled: ${times.zoned}`;
  const lead = `Your demo of ${brand.product} for ${singleLine(booking.company)} at this time is cancelled:`;
  const again =
    'Changed your mind? Book a new slot whenever it suits you: pick a day and a time on our site, and a new confirmation with its invitation arrives at once.';
  const { email, phone } = options.contact;
  const privacyUrl = `${options.publicUrl}/legal/privacy`;
  const { text, html } = renderEmail(
    prospectFrame(name, options, { subject, heading: 'Your demo is cancelled', manage: false }),
    <>
      <Paragraph>{lead}</Paragraph>
      <Times rows={slotRows(times)} />
      {/* Whom it was with; the video room is gone with the demo. */}
      <Meeting booking={booking} join={false} />
      <Paragraph>{REMOVED_FROM_CALENDAR}</Paragraph>
      <Paragraph>{again}</Paragraph>
      <Buttons buttons={[{ href: `${options.publicUrl}/`, label: 'Book a new demo' }]} />
      {/* A person who did not cancel it (a colleague did, or a link was forwarded) needs a way to reach a human. */}
      <Paragraph>
        Did not cancel it yourself, or want to talk it over first? Write to{' '}
        <Link href={`mailto:${email}`}>{email}</Link> or call <Link href={telHref(phone)}>{phone}</Link>, and we will
        find a time with you.
      </Paragraph>
      <Paragraph>
        We keep the details you gave for this booking only as long as our <Link href={privacyUrl}>privacy policy</Link>{' '}
        says; to have them erased sooner, write to <Link href={`mailto:${email}`}>{email}</Link>.
      </Paragraph>
    </>,
  );
  return { subject, text, html, ics: withdrawal(booking, options), toName: name };
}

export const NEW_TIME_LABEL = 'Choose a new time';

/**
 * The host withdrew from the demo (deleted or declined its event) and no other host of the route was free at its
 * time: an apology with the booking's page to choose a new time, and the event withdrawn from the prospect's calendar
 * (METHOD:CANCEL at the change's SEQUENCE), so it shows no demo nobody will give. The new time they pick goes out as
 * the same event again, a REQUEST at a higher SEQUENCE (renderUpdate).
 */
export function renderNewTimeNeeded(booking: Booking, options: ProspectEmailOptions): RenderedEmail {
  const { times } = calendarOf(booking, options);
  const name = singleLine(booking.name);
  const subject = `We are sorry: your ${brand.product} demo needs a new time`;
  const lead = `We are sorry: the colleague who was to give your demo of ${brand.product} for ${singleLine(booking.company)} can no longer make it, and nobody else on our team is free at this time:`;
  const next =
    'Please choose a new time that suits you on your booking’s page; a new invitation arrives as soon as you do. Our sales team has been told and may also write to you.';
  const { text, html } = renderEmail(
    prospectFrame(name, options, { subject, heading: 'Your demo needs a new time' }),
    <>
      <Paragraph>{lead}</Paragraph>
      <Times rows={slotRows(times)} />
      <Paragraph>{REMOVED_FROM_CALENDAR}</Paragraph>
      <Paragraph>{next}</Paragraph>
      <Buttons style={{ margin: '0 0 16px' }} buttons={[{ href: options.manageUrl, label: NEW_TIME_LABEL }]} />
    </>,
  );
  return { subject, text, html, ics: withdrawal(booking, options), toName: name };
}

/** Sent before the call, naming its time; it carries no invitation (the event is in the calendar already). */
export function renderReminder(booking: Booking, options: ProspectEmailOptions): PlainEmail {
  const { times, links } = calendarOf(booking, options);
  const name = singleLine(booking.name);
  const subject = `Reminder: your ${brand.product} demo is on ${times.zoned}`;
  const lead = `A reminder of your demo of ${brand.product} for ${singleLine(booking.company)}:`;
  const bring = 'Bring the channels you use today and the questions your team has; we shape the demo around them.';
  const { text, html } = renderEmail(
    prospectFrame(name, options, { subject, heading: 'Your demo is coming up' }),
    <>
      <Paragraph>{lead}</Paragraph>
      <Times rows={slotRows(times)} />
      <Meeting booking={booking} />
      <Paragraph>{bring}</Paragraph>
      <CalendarButtons links={links} />
    </>,
  );
  return { subject, text, html, toName: name };
}
