/** The confirmation a prospect receives when a demo is booked: subject, text, HTML and the invitation. */
import { brand, type Contact } from '../../domain/brand.js';
import { SLOT_DURATION_MINUTES } from '../../domain/booking.js';
// Nothing a person typed may start a new header line: the API folds it already, the e-mail does so again.
import { singleLine } from '../../domain/text.js';
import { demoEvent, googleCalendarLink, outlookCalendarLink } from '../../domain/calendar-links.js';
import { bookingInvitation, type Booking } from '../../server-shared/invitation.js';
import { CalendarButtons, prospectFrame, renderEmail } from './layout.js';
import { Meeting } from './meeting.js';
import { Heading, Paragraph, Steps, Times } from './parts.js';
import { slotRows, slotTimes } from './slot-times.js';

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
  ics: string;
  /** The prospect's name made safe for a header: no line breaks or control characters. */
  toName: string;
}

/** What every e-mail to the prospect needs beside the booking. */
export interface ProspectEmailOptions {
  timeZone: string;
  mailFrom: string;
  publicUrl: string;
  /** How buyers reach the sales desk (CONTACT_EMAIL, CONTACT_PHONE): the footer's contact line. */
  contact: Contact;
  now: Date;
  /** The booking's .ics download. */
  inviteUrl: string;
  /** The booking's own page: reschedule or cancel. */
  manageUrl: string;
  /** The booking's count of changes, for the invitation's SEQUENCE. */
  sequence: number;
  /**
   * With a reply mailbox, the invitation's ORGANIZER: the prospect's carries their booking's tag, the host's and the
   * sales desk's the bare address.
   */
  replyOrganizer?: { prospect: string; team: string };
}

const nextSteps = (booking: Booking) => [
  'A calendar invitation is attached: accept it to keep the slot in your calendar.',
  booking.meetingUrl
    ? 'At the time of the demo, join the video call from the link above or from the event in your calendar.'
    : 'A solutions engineer will e-mail you the video link ahead of the call.',
  `In a ${SLOT_DURATION_MINUTES}-minute call we walk through unified messaging, AI agents and network APIs for your use case.`,
];
const ANOTHER_TIME = 'Need another time? Use the button below to pick a new slot or to cancel.';

export function renderConfirmation(booking: Booking, options: ProspectEmailOptions): RenderedEmail {
  const event = demoEvent(booking.company, booking.timeSlot, booking.meetingUrl);
  const times = slotTimes(event.start, event.end, options.timeZone, booking.visitorTimeZone);
  const name = singleLine(booking.name);
  const company = singleLine(booking.company);
  const subject = `Your ${brand.product} demo is booked: ${times.zoned}`;
  const thanks = `Thank you for booking a demo of ${brand.product} for ${company}. Your slot is confirmed:`;
  const calendar = { google: googleCalendarLink(event), outlook: outlookCalendarLink(event), ics: options.inviteUrl };
  const { text, html } = renderEmail(
    prospectFrame(name, options, { subject, heading: 'Your demo is booked' }),
    <>
      <Paragraph>{thanks}</Paragraph>
      <Times rows={slotRows(times)} />
      <Meeting booking={booking} />
      <CalendarButtons links={calendar} />
      <Heading margin="24px 0 8px">What happens next</Heading>
      <Steps steps={nextSteps(booking)} />
      <Paragraph>{ANOTHER_TIME}</Paragraph>
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
