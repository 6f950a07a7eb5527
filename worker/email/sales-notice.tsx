/**
 * The sales desk's notice of a booking, a move or a cancellation: the lead as the prospect gave it, the slot in the
 * booking zone and in UTC, where the visit came from, and the event as a file for the desk's calendar.
 */
import { ATTRIBUTION_KEYS } from '../../domain/attribution.js';
import type { Contact } from '../../domain/brand.js';
import { demoEvent } from '../../domain/calendar-links.js';
import { labelledAnswers, type RoutingQuestion } from '../../domain/routing.js';
import { singleLine } from '../../domain/text.js';
import { bookingInvitation } from '../../server-shared/invitation.js';
import type { Lead } from '../delivery-row.js';
import { renderEmail } from './layout.js';
import { Details, Heading, Message, Paragraph } from './parts.js';
import { slotTimes } from './slot-times.js';

export type SalesChange = 'booked' | 'rescheduled' | 'cancelled' | 'reassigned' | 'needs-new-time';

const HEADINGS: Record<SalesChange, string> = {
  booked: 'New demo booking',
  rescheduled: 'Demo moved',
  cancelled: 'Demo cancelled',
  reassigned: 'Demo handed to another host',
  'needs-new-time': 'Demo needs a new time: its host withdrew and no other host was free',
};

export interface SalesNotice {
  subject: string;
  text: string;
  html: string;
  /** The event as a file to import: PUBLISH, cancelled when the booking is. */
  ics: string;
}

export function renderSalesNotice(
  lead: Lead,
  change: SalesChange,
  options: {
    timeZone: string;
    mailFrom: string;
    publicUrl: string;
    contact: Contact;
    now: Date;
    sequence: number;
    /** The team file's questions, whose labels the answers are shown with; an answer to none keeps its id. */
    questions?: readonly RoutingQuestion[];
  },
  /** A move's slot before it, stored with the move. */
  previousTimeSlot?: Date | null,
): SalesNotice {
  const event = demoEvent(lead.company, lead.timeSlot);
  const times = slotTimes(event.start, event.end, options.timeZone, lead.visitorTimeZone);
  const before = change === 'rescheduled' && previousTimeSlot ? demoEvent(lead.company, previousTimeSlot) : undefined;
  const company = singleLine(lead.company);
  const subject = `${HEADINGS[change]}: ${company}, ${times.zoned}`;
  const rows: [string, string][] = [
    ['Name', singleLine(lead.name)],
    ['Company', company],
    ['E-mail', lead.email],
    ['Phone', lead.phone ?? '—'],
    [times.zoneLabel, times.zoned],
    ['UTC', times.utc],
    // The prospect's own clock, when the page told their zone: what "tomorrow morning" means to them on the phone.
    ...(times.visitor && lead.visitorTimeZone
      ? [[`Their time (${lead.visitorTimeZone})`, times.visitor] as [string, string]]
      : []),
    ...(before
      ? [['Moved from', slotTimes(before.start, before.end, options.timeZone).zoned] as [string, string]]
      : []),
    [
      'Status',
      change === 'cancelled'
        ? 'Cancelled'
        : change === 'needs-new-time'
          ? 'Needs a new time (the prospect was asked to choose one)'
          : 'Booked',
    ],
    ...(lead.host
      ? [
          ['Host', `${singleLine(lead.host.name)}, ${singleLine(lead.host.title)} <${lead.host.email}>`] as [
            string,
            string,
          ],
        ]
      : []),
    ...(lead.meetingUrl ? [['Video call', lead.meetingUrl] as [string, string]] : []),
    // How the host was chosen: the route that matched, by its place in the team file and its label.
    ...(lead.route
      ? [
          [
            'Route',
            lead.route.rule === null
              ? singleLine(lead.route.label)
              : `${lead.route.rule + 1} (${singleLine(lead.route.label)})`,
          ] as [string, string],
        ]
      : []),
  ];
  const answers = labelledAnswers(options.questions ?? [], lead.answers).map(({ label, answer }): [string, string] => [
    singleLine(label),
    singleLine(answer),
  ]);
  const attribution = ATTRIBUTION_KEYS.flatMap((key): [string, string][] => {
    const value = lead.attribution?.[key];
    return value ? [[key, singleLine(value)]] : [];
  });
  const intro = 'Reply to this e-mail to write to the prospect. The event is attached for your calendar.';

  const { text, html } = renderEmail(
    {
      subject,
      heading: HEADINGS[change],
      name: 'sales team',
      publicUrl: options.publicUrl,
      contact: options.contact,
    },
    <>
      <Paragraph>{intro}</Paragraph>
      <Details rows={rows} />
      {answers.length > 0 ? (
        <>
          <Heading margin="16px 0 8px">Their answers</Heading>
          <Details rows={answers} />
        </>
      ) : null}
      <Heading margin="16px 0 8px">Message</Heading>
      <Message>{lead.message || '(none)'}</Message>
      <Heading margin="16px 0 8px">Where the visit came from</Heading>
      {attribution.length > 0 ? <Details rows={attribution} /> : <Paragraph>None recorded (a direct visit).</Paragraph>}
    </>,
  );
  const ics = bookingInvitation(lead, {
    mailFrom: options.mailFrom,
    now: options.now,
    method: 'PUBLISH',
    sequence: options.sequence,
    cancelled: change === 'cancelled',
  });
  return { subject, text, html, ics };
}
