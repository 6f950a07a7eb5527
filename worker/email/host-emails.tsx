/**
 * The e-mails to the host who gives a demo: the invitation (the event as the prospect has it, the host as organiser
 * and chair, so it lands in their calendar) with who the prospect is and what they wrote, and its withdrawal when
 * the demo is cancelled or handed to another host. Answering writes to the prospect.
 */
import { brand } from '../../domain/brand.js';
import { demoEvent } from '../../domain/calendar-links.js';
import { singleLine } from '../../domain/text.js';
import { bookingInvitation } from '../../server-shared/invitation.js';
import type { Lead } from '../delivery-row.js';
import type { ProspectEmailOptions } from './confirmation.js';
import { firstName, renderEmail } from './layout.js';
import { JoinCall } from './meeting.js';
import { Buttons, Details, Message, Paragraph, Times } from './parts.js';
import { slotRows, slotTimes } from './slot-times.js';

export interface HostEmail {
  subject: string;
  text: string;
  html: string;
  ics: string;
}

function about(lead: Lead): [string, string][] {
  return [
    ['Prospect', singleLine(lead.name)],
    ['Company', singleLine(lead.company)],
    ['E-mail', lead.email],
    ['Phone', lead.phone ?? '—'],
  ];
}

/** Where the host finds the booking's history (every move, cancellation and mark) and marks attendance afterwards. */
function SalesPage({ publicUrl }: { publicUrl: string }) {
  const url = `${publicUrl.replace(/\/+$/, '')}/admin`;
  return (
    <>
      <Paragraph>
        The booking's history, and its attended or no-show mark after the call, are on the sales page.
      </Paragraph>
      <Buttons
        style={{ margin: '0 0 16px' }}
        buttons={[{ href: url, label: 'Open the sales page', secondary: true }]}
      />
    </>
  );
}

/** What the host can count on: changes the prospect makes reach them without anyone forwarding them. */
const CHANGES_REACH_YOU =
  'The prospect has the same invitation and video link, and can move or cancel the demo from their confirmation: if they do, an update or a withdrawal reaches you here and in your calendar.';

/** The demo is theirs (booked, moved, or handed to them): a REQUEST of the booking's event. */
export function renderHostInvitation(lead: Lead, options: ProspectEmailOptions): HostEmail {
  const event = demoEvent(lead.company, lead.timeSlot);
  // The prospect's own clock too, when the page told it: what "tomorrow morning" means to them on the call.
  const times = slotTimes(event.start, event.end, options.timeZone, lead.visitorTimeZone);
  const company = singleLine(lead.company);
  const subject = `Your demo with ${company}: ${times.zoned}`;
  const intro = `You give this ${brand.product} demo. The event is attached for your calendar; reply to this e-mail to write to the prospect.`;
  const { text, html } = renderEmail(
    {
      subject,
      heading: 'A demo for you',
      name: firstName(singleLine(lead.host?.name ?? 'team')),
      publicUrl: options.publicUrl,
      contact: options.contact,
    },
    <>
      <Paragraph>{intro}</Paragraph>
      <Times rows={slotRows(times)} />
      <Details rows={about(lead)} />
      {lead.meetingUrl && <JoinCall room={lead.meetingUrl} />}
      <Message>{lead.message || '(no message)'}</Message>
      <Paragraph>{CHANGES_REACH_YOU}</Paragraph>
      <SalesPage publicUrl={options.publicUrl} />
    </>,
  );
  const ics = bookingInvitation(lead, {
    mailFrom: options.mailFrom,
    now: options.now,
    sequence: options.sequence,
    organizerAddress: options.replyOrganizer?.team,
  });
  return { subject, text, html, ics };
}

/** The demo is no longer theirs (cancelled, or handed to another host): a CANCEL of the same event. */
/**
 * `handedOn`: another host gives it now (by sales, or because this host deleted or declined it); `withdrew`: this host
 * deleted or declined it and nobody else was free, so the prospect is choosing a new time.
 */
export function renderHostCancellation(
  lead: Lead,
  options: ProspectEmailOptions,
  handedOn = false,
  withdrew = false,
): HostEmail {
  const event = demoEvent(lead.company, lead.timeSlot);
  const times = slotTimes(event.start, event.end, options.timeZone);
  const company = singleLine(lead.company);
  const subject = `Demo off your calendar: ${company}, ${times.zoned}`;
  const intro =
    lead.status === 'cancelled'
      ? 'The prospect cancelled this demo. The attached update removes it from your calendar.'
      : withdrew
        ? 'You deleted or declined this demo in your calendar, and no other host was free at its time. The attached update removes it from your calendar.'
        : handedOn
          ? 'This demo was handed to another host. The attached update removes it from your calendar.'
          : 'This demo moved to a time you are not free, and another host gives it. The attached update removes it from your calendar.';
  const after =
    lead.status === 'cancelled'
      ? 'The hour is free again for other bookings. Nothing more is needed from you; if you want to follow up, write to the prospect at the address below.'
      : withdrew
        ? 'The prospect has been asked to choose a new time, and sales have been told. You will not be given this hour again.'
        : handedOn
          ? 'The new host has the prospect’s details and message, and the prospect has been told who they meet now. Nothing more is needed from you.'
          : 'The new host has the prospect’s details and message, and the prospect has been told the new time. Nothing more is needed from you.';
  const { text, html } = renderEmail(
    {
      subject,
      heading: 'A demo off your calendar',
      name: 'there',
      publicUrl: options.publicUrl,
      contact: options.contact,
    },
    <>
      <Paragraph>{intro}</Paragraph>
      <Times rows={slotRows(times)} />
      <Details rows={about(lead)} />
      <Paragraph>{after}</Paragraph>
      <SalesPage publicUrl={options.publicUrl} />
    </>,
  );
  const ics = bookingInvitation(lead, {
    mailFrom: options.mailFrom,
    now: options.now,
    method: 'CANCEL',
    sequence: options.sequence,
    organizerAddress: options.replyOrganizer?.team,
  });
  return { subject, text, html, ics };
}
