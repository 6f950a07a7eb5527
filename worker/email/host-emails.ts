/**
 * The e-mails to the host who gives a demo: the invitation (the event as the prospect has it, the host as organiser
 * and chair, so it lands in their calendar) with who the prospect is and what they wrote, and its withdrawal when
 * the demo is cancelled or handed to another host. Answering writes to the prospect.
 */
import { brand } from '../../domain/brand.js';
import { demoEvent } from '../../domain/calendar-links.js';
import { escapeHtml, singleLine } from '../../domain/text.js';
import { bookingInvitation } from '../../server-shared/invitation.js';
import type { Lead } from '../outbox.js';
import type { ProspectEmailOptions } from './confirmation.js';
import { button, firstName, renderLayout } from './layout.js';
import { slotTableHtml, slotTimes, slotTimesText } from './slot-times.js';

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

/** The demo is theirs (booked, moved, or handed to them): a REQUEST of the booking's event. */
export function renderHostInvitation(lead: Lead, options: ProspectEmailOptions): HostEmail {
  const event = demoEvent(lead.company, lead.timeSlot);
  const times = slotTimes(event.start, event.end, options.timeZone);
  const company = singleLine(lead.company);
  const subject = `Your demo with ${company}: ${times.zoned}`;
  const intro = `You give this ${brand.product} demo. The event is attached for your calendar; reply to this e-mail to write to the prospect.`;
  const rows = about(lead);
  const message = lead.message ?? '';
  const { text, html } = renderLayout({
    subject,
    heading: 'A demo for you',
    name: firstName(singleLine(lead.host?.name ?? 'team')),
    publicUrl: options.publicUrl,
    contact: options.contact,
    textLines: [
      intro,
      '',
      ...slotTimesText(times),
      '',
      ...rows.map(([key, value]) => `  ${key}: ${value}`),
      ...(lead.meetingUrl ? ['', `Video call: ${lead.meetingUrl}`] : []),
      '',
      'Message:',
      message ? message.split('\n').map((line) => `  ${line}`).join('\n') : '  (none)',
    ],
    html: `    <p>${escapeHtml(intro)}</p>
${slotTableHtml(times)}
    <ul>
${rows.map(([key, value]) => `      <li>${escapeHtml(key)}: ${escapeHtml(value)}</li>`).join('\n')}
    </ul>
${lead.meetingUrl ? `    <p>${button(lead.meetingUrl, 'Join the video call')}</p>` : ''}
    <p style="white-space:pre-wrap">${message ? escapeHtml(message) : '(no message)'}</p>`,
  });
  const ics = bookingInvitation(lead, { mailFrom: options.mailFrom, now: options.now, sequence: options.sequence });
  return { subject, text, html, ics };
}

/** The demo is no longer theirs (cancelled, or handed to another host): a CANCEL of the same event. */
export function renderHostCancellation(lead: Lead, options: ProspectEmailOptions): HostEmail {
  const event = demoEvent(lead.company, lead.timeSlot);
  const times = slotTimes(event.start, event.end, options.timeZone);
  const company = singleLine(lead.company);
  const subject = `Demo off your calendar: ${company}, ${times.zoned}`;
  const intro =
    lead.status === 'cancelled'
      ? 'The prospect cancelled this demo. The attached update removes it from your calendar.'
      : 'This demo moved to a time you are not free, and another host gives it. The attached update removes it from your calendar.';
  const { text, html } = renderLayout({
    subject,
    heading: 'A demo off your calendar',
    name: 'there',
    publicUrl: options.publicUrl,
    contact: options.contact,
    textLines: [intro, '', ...slotTimesText(times), '', ...about(lead).map(([key, value]) => `  ${key}: ${value}`)],
    html: `    <p>${escapeHtml(intro)}</p>
${slotTableHtml(times)}`,
  });
  const ics = bookingInvitation(lead, { mailFrom: options.mailFrom, now: options.now, method: 'CANCEL', sequence: options.sequence });
  return { subject, text, html, ics };
}
