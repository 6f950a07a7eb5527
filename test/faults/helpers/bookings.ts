/** Demo requests as a visitor's browser sends them, many at once, each with its own e-mail address. */
import { randomBytes } from 'node:crypto';
import { availableSlots, calendarDayOf } from '../../../domain/booking.js';

/**
 * Every slot that can be booked now and stays bookable for a while: the slots of the next five weeks, less the
 * next three hours (which may pass during a run).
 */
export function bookableSlots(timeZone = 'Europe/Berlin', now = new Date()): string[] {
  const soonest = now.getTime() + 3 * 3_600_000;
  const slots: string[] = [];
  for (let day = 0; day < 36; day += 1) {
    for (const slot of availableSlots(
      calendarDayOf(new Date(now.getTime() + day * 86_400_000), timeZone),
      now,
      timeZone,
    )) {
      if (new Date(slot.iso).getTime() > soonest && !slots.includes(slot.iso)) slots.push(slot.iso);
    }
  }
  if (slots.length === 0) throw new Error('no bookable slot in the next five weeks');
  return slots;
}

export interface BookingBody {
  name: string;
  email: string;
  company: string;
  timeSlot: string;
  message: string;
  /** A mobile number with the consent to text it (SMPP_URL set). */
  phone?: string;
  smsConsent?: true;
}

/**
 * The i-th booking of a run: a distinct address (so no one holds a slot twice), spread over slots and company
 * domains (so requests do not all queue on one slot's or one domain's lock).
 */
export function bookingBody(i: number, run: string, slots: readonly string[]): BookingBody {
  const company = `Northwind ${i % 97}`;
  return {
    name: `Prospect ${i}`,
    email: `prospect${i}.${run}@northwind-${i % 97}.io`,
    company,
    timeSlot: slots[i % slots.length] as string,
    message: `Fault test booking ${i} of run ${run}.`,
  };
}

export const runTag = (): string => randomBytes(3).toString('hex');

export interface BookingAnswer {
  i: number;
  status: number;
  /** The row id, from a 201. */
  id?: string;
  /** The answer's `error` field, or the network error. */
  error?: string;
  details?: string;
  startedAt: number;
  ms: number;
}

/** POSTs one booking; a network failure or timeout is status 0. */
export async function postBooking(
  baseUrl: string,
  i: number,
  body: BookingBody,
  timeoutMs = 15_000,
): Promise<BookingAnswer> {
  const startedAt = Date.now();
  try {
    const response = await fetch(`${baseUrl}/api/demo-request`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const answer = (await response.json().catch(() => ({}))) as { id?: string; error?: string; details?: string };
    return {
      i,
      status: response.status,
      id: answer.id,
      error: answer.error,
      details: answer.details,
      startedAt,
      ms: Date.now() - startedAt,
    };
  } catch (err) {
    return {
      i,
      status: 0,
      error: err instanceof Error ? err.message : String(err),
      startedAt,
      ms: Date.now() - startedAt,
    };
  }
}

/** Books `count` demos with `concurrency` requests in flight; `pace` (requests a second) spreads them out. */
export async function bookMany(
  baseUrl: string,
  count: number,
  options: {
    concurrency: number;
    run: string;
    slots: readonly string[];
    perSecond?: number;
    from?: number;
    /** The i-th booking's mobile number, texted with its consent. */
    phoneOf?: (i: number) => string;
  },
): Promise<BookingAnswer[]> {
  const answers: BookingAnswer[] = [];
  const first = options.from ?? 0;
  let next = 0;
  const started = Date.now();
  const lane = async () => {
    while (next < count) {
      const index = next;
      next += 1;
      if (options.perSecond) {
        const due = started + (index * 1000) / options.perSecond;
        const wait = due - Date.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
      const i = first + index;
      const body = bookingBody(i, options.run, options.slots);
      const phone = options.phoneOf?.(i);
      answers.push(await postBooking(baseUrl, i, phone ? { ...body, phone, smsConsent: true } : body));
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, count) }, lane));
  return answers.sort((a, b) => a.i - b.i);
}

/** How many answers had each status, e.g. { 201: 198, 503: 2 }. */
export function statusCounts(answers: readonly BookingAnswer[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const answer of answers) counts[answer.status] = (counts[answer.status] ?? 0) + 1;
  return counts;
}
