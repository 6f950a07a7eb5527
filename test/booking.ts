import { DEFAULT_BOOKING_TIME_ZONE, availableSlots, calendarDayOf, type Slot } from '../domain/booking.js';

/** The first slot of the next bookable day after today, so a test never races the clock. */
export function nextBookableSlot(now = new Date(), timeZone = DEFAULT_BOOKING_TIME_ZONE): Slot {
  for (let offset = 1; offset <= 10; offset++) {
    const day = calendarDayOf(new Date(now.getTime() + offset * 86_400_000), timeZone);
    const [first] = availableSlots(day, now, timeZone);
    if (first) return first;
  }
  throw new Error('no bookable slot in the next ten days');
}

/** The first `count` slots of the next bookable day after today (17 a day). */
export function bookableSlots(count: number, now = new Date(), timeZone = DEFAULT_BOOKING_TIME_ZONE): Slot[] {
  const first = nextBookableSlot(now, timeZone);
  const slots = availableSlots(calendarDayOf(new Date(first.iso), timeZone), now, timeZone).slice(0, count);
  if (slots.length < count) throw new Error(`only ${slots.length} bookable slots on the next bookable day`);
  return slots;
}

/**
 * Books `timeSlot` through the API at `url` as Ada Lovelace of Analytical Engines, with the texts' consent for `phone`
 * when one is given; resolves with the booking's id, and throws with the answer when it is not a 201.
 */
export async function bookWithTexts(url: string, timeSlot: string, email: string, phone?: string): Promise<string> {
  const answer = await fetch(`${url}/api/bookings`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      name: 'Ada Lovelace',
      email,
      company: 'Analytical Engines',
      timeSlot,
      ...(phone ? { phone, smsConsent: true } : {}),
    }),
  });
  const body = (await answer.json()) as { id?: string };
  if (answer.status !== 201) throw new Error(`booking answered ${answer.status}: ${JSON.stringify(body)}`);
  return String(body.id);
}

/** An iCalendar text's properties by name (lines unfolded; the first of each name). */
export function icsProperties(ics: string): Record<string, string> {
  const properties: Record<string, string> = {};
  // A parsed e-mail may hand the part over with its CRLFs turned into LFs.
  for (const line of ics.replace(/\r?\n[ \t]/g, '').split(/\r?\n/)) {
    const match = /^([A-Z-]+)[;:](.*)$/.exec(line);
    if (match?.[1] && !(match[1] in properties)) properties[match[1]] = line.slice(line.indexOf(':') + 1);
  }
  return properties;
}

/** What differs between any two answers: the moment and the request's own id. */
const PER_REQUEST_HEADERS = new Set(['date', 'x-request-id']);
/** What differs between any two bookings' answers: compared by kind only. */
const PER_BOOKING_FIELDS = new Set(['id', 'createdAt', 'timeSlot', 'invitePath', 'meetingUrl']);

/**
 * An answer as a client could tell it from another (its status, its headers, its body's words), less what differs
 * between any two requests and any two bookings: two answers alike here cannot be told apart by what they say.
 */
export function comparableAnswer(answer: { status: number; body: Record<string, unknown>; headers: Headers }): {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
} {
  return {
    status: answer.status,
    headers: Object.fromEntries([...answer.headers].filter(([name]) => !PER_REQUEST_HEADERS.has(name))),
    body: Object.fromEntries(
      Object.entries(answer.body).map(([field, value]) => [
        field,
        PER_BOOKING_FIELDS.has(field) ? typeof value : value,
      ]),
    ),
  };
}

/** An iCalendar text's ORGANIZER line whole (its parameters too), unfolded. */
export function icsOrganizer(ics: string): string | undefined {
  return /^ORGANIZER[;:].*$/m.exec(ics.replace(/\r?\n[ \t]/g, '').replace(/\r/g, ''))?.[0];
}
