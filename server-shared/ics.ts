/** iCalendar (RFC 5545) invitations: one event per booking, escaped and folded as the standard asks. */
import { brand } from '../domain/brand.js';
import { compactUtc } from '../domain/calendar-links.js';

export interface Invitation {
  /** REQUEST or CANCEL in an e-mail to the attendee; PUBLISH for a file a person imports (no reply is asked). */
  method: 'REQUEST' | 'CANCEL' | 'PUBLISH' | null;
  /** The same for every message about one booking, so calendars keep one event. */
  uid: string;
  /** Rises with each change to the booking. */
  sequence: number;
  status: 'CONFIRMED' | 'CANCELLED';
  start: Date;
  end: Date;
  stamp: Date;
  summary: string;
  description: string;
  /** The demo's host when it has one, else the product's sender. */
  organizer: { name: string; address: string };
  attendee: { name: string; address: string };
  /** The host, listed beside the prospect as the chair (they get the invitation too). */
  host?: { name: string; address: string };
  /** The video room: the event's LOCATION and URL, and its CONFERENCE (RFC 7986). */
  meetingUrl?: string;
}

/** RFC 5545 TEXT escaping. */
function icsText(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');
}

/** A parameter value in double quotes, which may hold neither a quote nor a backslash. */
function icsQuoted(value: string): string {
  return `"${value.replace(/["\\]/g, '')}"`;
}

/** RFC 5545 lines are at most 75 octets; longer ones continue on lines that start with a space. */
function foldLine(line: string): string {
  if (Buffer.byteLength(line, 'utf8') <= 75) return line;
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


export function buildInvitation(event: Invitation): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:-//${brand.parentProvider}//${brand.product} demo booking//EN`,
    'CALSCALE:GREGORIAN',
    ...(event.method ? [`METHOD:${event.method}`] : []),
    'BEGIN:VEVENT',
    `UID:${event.uid}`,
    `DTSTAMP:${compactUtc(event.stamp)}`,
    `DTSTART:${compactUtc(event.start)}`,
    `DTEND:${compactUtc(event.end)}`,
    `SUMMARY:${icsText(event.summary)}`,
    `DESCRIPTION:${icsText(event.description)}`,
    ...(event.meetingUrl
      ? [
          `LOCATION:${icsText(event.meetingUrl)}`,
          // URI values are not escaped (RFC 5545, 3.3.13).
          `URL:${event.meetingUrl}`,
          `CONFERENCE;VALUE=URI;FEATURE=VIDEO;LABEL=${icsQuoted('Video call')}:${event.meetingUrl}`,
        ]
      : []),
    `ORGANIZER;CN=${icsQuoted(event.organizer.name)}:mailto:${event.organizer.address}`,
    ...(event.method === 'PUBLISH'
      ? []
      : [
          `ATTENDEE;CN=${icsQuoted(event.attendee.name)};ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:${event.attendee.address}`,
          ...(event.host ? [`ATTENDEE;CN=${icsQuoted(event.host.name)};ROLE=CHAIR;PARTSTAT=ACCEPTED:mailto:${event.host.address}`] : []),
        ]),
    `STATUS:${event.status}`,
    `SEQUENCE:${event.sequence}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.map(foldLine).join('\r\n')}\r\n`;
}
