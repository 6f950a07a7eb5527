/**
 * The confirmation a prospect receives: subject, plain text, HTML and an iCalendar invite.
 * Every value the prospect typed is escaped for the part it goes into.
 */
import { brand } from '../domain/brand.js';
import { SLOT_DURATION_MINUTES } from '../domain/booking.js';
// Nothing a person typed may start a new header line: the API folds it already, the e-mail does so again.
import { singleLine } from '../domain/text.js';

export interface ConfirmationRequest {
  id: string;
  name: string;
  email: string;
  company: string;
  timeSlot: Date;
}

export interface ConfirmationEmail {
  subject: string;
  text: string;
  html: string;
  ics: string;
  /** The prospect's name made safe for a header: no line breaks or control characters. */
  toName: string;
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}


/** RFC 5545 TEXT escaping. */
function icsText(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');
}

/** RFC 5545 lines are at most 75 octets; longer ones continue on lines that start with a space. */
function foldIcsLine(line: string): string {
  const bytes = Buffer.from(line, 'utf8');
  if (bytes.length <= 75) return line;
  const parts: string[] = [];
  let current = '';
  let size = 0;
  for (const char of line) {
    const charSize = Buffer.byteLength(char, 'utf8');
    if (size + charSize > (parts.length === 0 ? 75 : 74)) {
      parts.push(current);
      current = '';
      size = 0;
    }
    current += char;
    size += charSize;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

function icsDate(instant: Date): string {
  return instant.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z');
}

function mailAddress(from: string): string {
  return /<([^>]+)>/.exec(from)?.[1] ?? from.trim();
}

/** The domain of the sender's address: the right-hand side of the booking's Message-ID and invitation UID. */
export function mailDomain(from: string): string {
  const address = mailAddress(from);
  return address.slice(address.lastIndexOf('@') + 1) || 'converge';
}

function formatSlot(start: Date, end: Date, timeZone: string): string {
  const day = new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }).format(start);
  const time = (instant: Date) => new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(instant);
  const zoneName = new Intl.DateTimeFormat('en-GB', { timeZone, timeZoneName: 'short' })
    .formatToParts(start)
    .find((part) => part.type === 'timeZoneName')?.value;
  return `${day}, ${time(start)}–${time(end)}${zoneName ? ` (${zoneName})` : ''}`;
}

export function renderConfirmation(
  request: ConfirmationRequest,
  options: { timeZone: string; mailFrom: string; publicUrl: string; now: Date },
): ConfirmationEmail {
  const start = request.timeSlot;
  const end = new Date(start.getTime() + SLOT_DURATION_MINUTES * 60_000);
  const europe = formatSlot(start, end, options.timeZone);
  const utc = formatSlot(start, end, 'UTC').replace(/ \(UTC\)$/, ' UTC');
  const name = singleLine(request.name);
  const company = singleLine(request.company);
  const subject = `Your ${brand.product} demo is booked: ${europe}`;

  const text = [
    `Hi ${name},`,
    '',
    `Thank you for booking a demo of ${brand.product} for ${company}. Your slot is confirmed:`,
    '',
    `  Europe Time: ${europe}`,
    `  UTC:         ${utc}`,
    '',
    'What happens next:',
    `  1. A calendar invitation is attached: accept it to keep the slot in your calendar.`,
    '  2. A solutions engineer will send you a video link a day before the call.',
    `  3. In 60 minutes we walk through unified messaging, AI agents and network APIs for your use case.`,
    '',
    'Need another time? Reply to this e-mail and we will move the demo.',
    '',
    `The ${brand.product} team`,
    `${brand.product} by ${brand.parentProvider} · ${options.publicUrl}`,
  ].join('\n');

  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f6fb;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#0f1a33">
  <div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:12px;padding:32px">
    <p style="margin:0 0 8px;font-size:14px;color:#4b5a78">${escapeHtml(brand.product)}</p>
    <h1 style="margin:0 0 16px;font-size:22px">Your demo is booked</h1>
    <p>Hi ${escapeHtml(name)},</p>
    <p>Thank you for booking a demo of ${escapeHtml(brand.product)} for ${escapeHtml(company)}. Your slot is confirmed:</p>
    <table role="presentation" style="border-collapse:collapse;margin:16px 0">
      <tr><td style="padding:4px 16px 4px 0;color:#4b5a78">Europe Time</td><td style="padding:4px 0"><strong>${escapeHtml(europe)}</strong></td></tr>
      <tr><td style="padding:4px 16px 4px 0;color:#4b5a78">UTC</td><td style="padding:4px 0">${escapeHtml(utc)}</td></tr>
    </table>
    <h2 style="font-size:16px;margin:24px 0 8px">What happens next</h2>
    <ol style="padding-left:20px">
      <li>A calendar invitation is attached: accept it to keep the slot in your calendar.</li>
      <li>A solutions engineer will send you a video link a day before the call.</li>
      <li>In 60 minutes we walk through unified messaging, AI agents and network APIs for your use case.</li>
    </ol>
    <p>Need another time? Reply to this e-mail and we will move the demo.</p>
    <p>The ${escapeHtml(brand.product)} team</p>
    <p style="font-size:12px;color:#4b5a78">${escapeHtml(brand.product)} by ${escapeHtml(brand.parentProvider)} · <a href="${escapeHtml(options.publicUrl)}">${escapeHtml(options.publicUrl)}</a></p>
  </div>
</body>
</html>`;

  const organizer = mailAddress(options.mailFrom);
  const ics = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:-//${brand.parentProvider}//${brand.product} demo booking//EN`,
    'CALSCALE:GREGORIAN',
    'METHOD:REQUEST',
    'BEGIN:VEVENT',
    `UID:demo-${request.id}@${mailDomain(options.mailFrom)}`,
    `DTSTAMP:${icsDate(options.now)}`,
    `DTSTART:${icsDate(start)}`,
    `DTEND:${icsDate(end)}`,
    `SUMMARY:${icsText(`${brand.product} demo for ${company}`)}`,
    `DESCRIPTION:${icsText(`A 60-minute walkthrough of ${brand.product}: unified messaging, AI agents and network APIs. Reply to the confirmation e-mail to move it.`)}`,
    `ORGANIZER;CN=${icsText(brand.product)}:mailto:${organizer}`,
    `ATTENDEE;CN="${name.replace(/["\\]/g, '')}";ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:${request.email}`,
    'STATUS:CONFIRMED',
    'SEQUENCE:0',
    'END:VEVENT',
    'END:VCALENDAR',
  ]
    .map(foldIcsLine)
    .join('\r\n');

  return { subject, text, html, ics: `${ics}\r\n`, toName: name };
}
