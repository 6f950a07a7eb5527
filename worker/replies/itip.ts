/**
 * An iTIP REPLY (RFC 5546) carried by e-mail (iMIP, RFC 6047), as the reply mailbox holds it: the calendar part
 * found whatever the mail program's shape (Google Calendar's text/calendar inside multipart/alternative, Outlook's
 * own, Apple Calendar's attached .ics), parsed with ical.js.
 */
import { domainToASCII } from 'node:url';
import ICAL from 'ical.js';
import PostalMime from 'postal-mime';

/** The answers that change a booking; anything else is not acted on. */
export type PartStat = 'ACCEPTED' | 'TENTATIVE' | 'DECLINED';

export interface ReplyFacts {
  /** The From header's address. */
  from: string;
  /** The event's UID. */
  uid: string;
  /** The SEQUENCE of the invitation answered (0 when left out, as RFC 5546 allows for 0). */
  sequence: number;
  /** DTSTAMP: when the answer was made. */
  stamp: Date;
  /** The replying attendee's address and answer. */
  attendee: string;
  partstat: string;
  /** The ORGANIZER echoed from the invitation. */
  organizer: string;
}

/** Why a message is not a reply the reader acts on, said without any address. */
export type NotAReply = { why: 'no-calendar' | 'not-a-reply' | 'malformed' | 'attendees'; method?: string };

const textOf = (content: ArrayBuffer | Uint8Array | string): string =>
  typeof content === 'string' ? content : new TextDecoder().decode(content);

const mailto = (value: unknown): string =>
  String(value)
    .replace(/^mailto:/i, '')
    .trim();

/**
 * The address as bookings.recipient keeps it (the API's canonicalRecipient): lower case, the "+tag" dropped from the
 * local part (but a leading "+"), the domain in ASCII.
 */
export function canonicalAddress(address: string): string {
  const trimmed = address.trim();
  const at = trimmed.lastIndexOf('@');
  const local = trimmed.slice(0, at).toLowerCase();
  const plus = local.indexOf('+');
  const domain = trimmed.slice(at + 1);
  return `${plus > 0 ? local.slice(0, plus) : local}@${(domainToASCII(domain) || domain).toLowerCase()}`;
}

/** The message's calendar parts, in the order the message has them. */
async function calendarParts(raw: Buffer): Promise<{ from: string; calendars: string[] }> {
  const email = await PostalMime.parse(raw, { attachmentEncoding: 'utf8' });
  const calendars = email.attachments
    .filter((part) => /^(text\/calendar|application\/ics)$/i.test(part.mimeType))
    .map((part) => textOf(part.content));
  return { from: email.from?.address ?? '', calendars };
}

/** The REPLY this message carries, or why it carries none. */
export async function readReply(raw: Buffer): Promise<ReplyFacts | NotAReply> {
  const { from, calendars } = await calendarParts(raw);
  if (calendars.length === 0) return { why: 'no-calendar' };
  let method: string | undefined;
  // Google attaches the same REPLY twice (inline and as invite.ics): the first that parses is the one.
  for (const text of calendars) {
    let calendar: ICAL.Component;
    try {
      calendar = new ICAL.Component(ICAL.parse(text));
    } catch {
      continue;
    }
    method = String(calendar.getFirstPropertyValue('method') ?? '').toUpperCase();
    if (method !== 'REPLY') continue;
    const event = calendar.getFirstSubcomponent('vevent');
    if (!event) return { why: 'malformed', method };
    const attendees = event.getAllProperties('attendee');
    // RFC 5546, 3.2.3: a REPLY names the one attendee who answers.
    if (attendees.length !== 1) return { why: 'attendees', method };
    const attendee = attendees[0]!;
    const uid = event.getFirstPropertyValue('uid');
    const stamp = event.getFirstPropertyValue('dtstamp');
    const organizer = event.getFirstPropertyValue('organizer');
    if (!uid || !(stamp instanceof ICAL.Time) || !organizer) return { why: 'malformed', method };
    const sequence = Number(event.getFirstPropertyValue('sequence') ?? 0);
    return {
      from,
      uid: String(uid),
      sequence: Number.isInteger(sequence) ? sequence : 0,
      stamp: stamp.toJSDate(),
      attendee: mailto(attendee.getFirstValue()),
      partstat: String(attendee.getParameter('partstat') ?? 'NEEDS-ACTION').toUpperCase(),
      organizer: mailto(organizer),
    };
  }
  return method ? { why: 'not-a-reply', method } : { why: 'malformed' };
}

export const isReply = (read: ReplyFacts | NotAReply): read is ReplyFacts => 'uid' in read;

export const isActedOn = (partstat: string): partstat is PartStat =>
  partstat === 'ACCEPTED' || partstat === 'TENTATIVE' || partstat === 'DECLINED';
