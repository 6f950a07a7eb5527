/**
 * iCalendar (RFC 5545) invitations: one event per booking, written with ical.js, which escapes text, encodes
 * parameters (RFC 6868) and folds lines at 75 octets as the standard asks.
 */
import ICAL from 'ical.js';
import { brand } from '../domain/brand.js';

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

const PRODUCT_ID = `-//${brand.parentProvider}//${brand.product} demo booking//EN`;

/** An instant in UTC, as DTSTART and the others carry it ("20261124T140000Z"). */
const utc = (instant: Date) => ICAL.Time.fromJSDate(instant, true);

/** A person on the event: a calendar address with their name and these parameters, in this order. */
function person(
  event: ICAL.Component,
  name: 'organizer' | 'attendee',
  who: { name: string; address: string },
  parameters: [string, string][] = [],
): void {
  const property = event.addPropertyWithValue(name, `mailto:${who.address}`);
  property.setParameter('cn', who.name);
  for (const [key, value] of parameters) property.setParameter(key, value);
}

export function buildInvitation(invitation: Invitation): string {
  const calendar = new ICAL.Component('vcalendar');
  calendar.addPropertyWithValue('version', '2.0');
  calendar.addPropertyWithValue('prodid', PRODUCT_ID);
  calendar.addPropertyWithValue('calscale', 'GREGORIAN');
  if (invitation.method) calendar.addPropertyWithValue('method', invitation.method);

  const event = new ICAL.Component('vevent');
  event.addPropertyWithValue('uid', invitation.uid);
  event.addPropertyWithValue('dtstamp', utc(invitation.stamp));
  event.addPropertyWithValue('dtstart', utc(invitation.start));
  event.addPropertyWithValue('dtend', utc(invitation.end));
  event.addPropertyWithValue('summary', invitation.summary);
  event.addPropertyWithValue('description', invitation.description);
  if (invitation.meetingUrl) {
    event.addPropertyWithValue('location', invitation.meetingUrl);
    event.addPropertyWithValue('url', invitation.meetingUrl);
    // RFC 7986, which ical.js has no design for: its value is a URI, said with VALUE=URI.
    const conference = new ICAL.Property('conference', event);
    conference.resetType('uri');
    conference.setParameter('feature', 'VIDEO');
    conference.setParameter('label', 'Video call');
    conference.setValue(invitation.meetingUrl);
    event.addProperty(conference);
  }
  person(event, 'organizer', invitation.organizer);
  if (invitation.method !== 'PUBLISH') {
    person(event, 'attendee', invitation.attendee, [
      ['role', 'REQ-PARTICIPANT'],
      ['partstat', 'NEEDS-ACTION'],
      ['rsvp', 'TRUE'],
    ]);
    if (invitation.host)
      person(event, 'attendee', invitation.host, [
        ['role', 'CHAIR'],
        ['partstat', 'ACCEPTED'],
      ]);
  }
  event.addPropertyWithValue('status', invitation.status);
  event.addPropertyWithValue('sequence', invitation.sequence);
  calendar.addSubcomponent(event);
  return `${calendar.toString()}\r\n`;
}
