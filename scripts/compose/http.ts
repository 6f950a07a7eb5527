/** The stack as a visitor and Mailpit's reader see it: slots, bookings, e-mails, the hosts' calendars. */
import {
  calendarDayOf,
  DEFAULT_BOOKING_TIME_ZONE,
  formatCalendarDay,
  type CalendarDay,
  type DaySlots,
} from '../../domain/booking.js';
import { check, note, waitFor } from './run.js';

export async function http<T>(url: string, init: RequestInit = {}): Promise<{ status: number; body: T; text: string }> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(15_000) });
  const text = await response.text();
  let body: unknown = text;
  if ((response.headers.get('content-type') ?? '').includes('json')) body = JSON.parse(text);
  return { status: response.status, body: body as T, text };
}

export interface Booking {
  id: string;
  email: string;
  timeSlot: string;
  invitePath: string;
  /** Who gives the demo (the demo team is on). */
  host?: { name: string; title: string };
}

/** The booking zone's day `offset` days from now. */
export const dayAhead = (offset: number): CalendarDay =>
  calendarDayOf(new Date(Date.now() + offset * 86_400_000), DEFAULT_BOOKING_TIME_ZONE);

export async function daySlots(apiUrl: string, day: CalendarDay): Promise<DaySlots> {
  const { status, body, text } = await http<DaySlots>(`${apiUrl}/api/slots?date=${formatCalendarDay(day)}`);
  check(status === 200, `GET /api/slots?date=${formatCalendarDay(day)} answered ${status}: ${text.slice(0, 300)}`);
  return body;
}

/**
 * The slots GET /api/slots offers in the coming weeks, from tomorrow on (today's may pass while the test runs),
 * but those in `besides`: with the demo team a slot is offered while one of its hosts is free.
 */
export async function offeredSlots(apiUrl: string, count: number, besides: readonly string[]): Promise<string[]> {
  const slots: string[] = [];
  for (let offset = 1; offset <= 31 && slots.length < count; offset++) {
    for (const slot of (await daySlots(apiUrl, dayAhead(offset))).slots)
      if (slot.available && !besides.includes(slot.start)) slots.push(slot.start);
  }
  check(slots.length >= count, `only ${slots.length} slots offered in the next month`);
  return slots.slice(0, count);
}

/** Books the slot; `extra` adds to the request (a phone and the texts' consent). */
export async function book(
  apiUrl: string,
  index: number,
  timeSlot: string,
  extra: Record<string, unknown> = {},
): Promise<Booking> {
  // A company address of its own domain each, so no per-address or per-domain ceiling is reached.
  const n = String(index).padStart(2, '0');
  const email = `ada.lovelace${n}@northwind-smoke${n}.com`;
  const { status, body, text } = await http<{
    id: string;
    timeSlot: string;
    invitePath: string;
    host?: { name: string; title: string };
  }>(`${apiUrl}/api/demo-request`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      name: `Ada Lovelace ${n}`,
      email,
      company: `Northwind ${n}`,
      timeSlot,
      message: 'compose smoke test',
      ...extra,
    }),
  });
  check(status === 201, `POST /api/demo-request answered ${status}: ${text.slice(0, 300)}`);
  check(body.timeSlot === timeSlot, `booked ${body.timeSlot}, asked for ${timeSlot}`);
  return {
    id: String(body.id),
    email,
    timeSlot,
    invitePath: body.invitePath,
    ...(body.host ? { host: body.host } : {}),
  };
}

export interface MailSummary {
  ID: string;
  MessageID: string;
  To: Array<{ Address: string }>;
}

export async function mailbox(mailpitUrl: string): Promise<MailSummary[]> {
  const { status, body } = await http<{ total: number; messages: MailSummary[] }>(
    `${mailpitUrl}/api/v1/messages?limit=500`,
  );
  check(status === 200, `Mailpit answered ${status}`);
  return body.messages;
}

/** Message-ID of a booking's confirmation, as Mailpit shows it (without the angle brackets). */
export const messageIdOf = (mail: MailSummary) => mail.MessageID.replace(/^<|>$/g, '');
export const bookingIdOf = (mail: MailSummary) => /^demo-(.+)@/.exec(messageIdOf(mail))?.[1];
/** A host's copy of a booking's event (the demo team is on): one per booking. */
export const isHostInvitation = (mail: MailSummary) => messageIdOf(mail).startsWith('host-invitation-');

/**
 * The booking in its host's own calendar on the CalDAV service: the event under the booking's UID, at its slot,
 * with its video room. The host is one of the demo team, whose calendars are named after them.
 */
export async function eventInHostCalendar(caldavUrl: string, booking: Booking): Promise<void> {
  check(booking.host, 'the booking answered no host, with the demo team on');
  const calendar = booking.host.name.toLowerCase().replace(/\s+/g, '-');
  const url = `${caldavUrl}/user/calendars/${calendar}/${encodeURIComponent(`demo-${booking.id}@converge.localhost`)}.ics`;
  const event = await waitFor(`the booking in ${booking.host.name}'s calendar`, 60_000, async () => {
    const answer = await http<string>(url);
    return answer.status === 200 ? answer.text : undefined;
  });
  const start = booking.timeSlot.replace(/[-:]/g, '').replace('.000Z', 'Z');
  check(
    event.includes(`DTSTART:${start}`),
    `the event in ${booking.host.name}'s calendar does not start at ${booking.timeSlot}:\n${event}`,
  );
  // The server may write the event's lines back folded and its parameters in another order.
  const unfolded = event.replace(/\r?\n[ \t]/g, '');
  check(
    /^CONFERENCE;[^\r\n]*FEATURE=VIDEO[^\r\n]*:https:\/\//m.test(unfolded),
    `the event in the host's calendar has no video room:\n${event}`,
  );
  note(`the booking is in ${booking.host.name}'s calendar (${calendar}), at its slot, with its video room`);
}
