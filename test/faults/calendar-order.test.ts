/**
 * Scenario 6: what the prospect's calendar ends with is what the booking is. Bookings are made, cancelled, moved,
 * moved and then cancelled, and moved twice while the SMTP server is down (first) or while no worker runs (then);
 * once it is back, every prospect's calendar messages are read from the SMTP server in the order they arrived. Each
 * must carry the SEQUENCE of the change it announces, the sequences must only rise, no REQUEST may follow a CANCEL,
 * and the last one must be the booking as it finally stands (slot, status, sequence).
 */
import { expect } from 'chai';
import PostalMime from 'postal-mime';
import type { RunningApi } from '../../api/server.js';
import { bookingToken } from '../../server-shared/booking-link.js';
import type { RunningWorker } from '../../worker/index.js';
import { icsProperties } from '../booking.js';
import { TEST_LINK_SECRET } from '../stack.js';
import { bookableSlots, bookingBody, postBooking, runTag } from './helpers/bookings.js';
import { startFaultStack, type FaultStack } from './helpers/fault-stack.js';
import { delay, printFigures, seconds, waitUntil } from './helpers/wait.js';

/** What happens to a booking after it is made, one fifth of the bookings each. */
const PLANS = ['kept', 'cancelled', 'moved', 'moved-then-cancelled', 'moved-twice'] as const;
type Plan = (typeof PLANS)[number];
const BOOKINGS = 20;

interface Booked {
  id: string;
  email: string;
  plan: Plan;
}

interface CalendarMessage {
  messageId: string;
  method: string;
  sequence: number;
  status: string;
  start: string;
}

const compact = (date: Date) => date.toISOString().replace(/[-:]/g, '').replace('.000Z', 'Z');

async function post(url: string, body: unknown): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response.status;
}

/** Books BOOKINGS demos and applies each one's plan through its link, as the prospect would. */
async function bookAndChange(
  api: RunningApi,
  run: string,
  slots: readonly string[],
  afterBooking: () => Promise<void>,
): Promise<Booked[]> {
  const booked: Booked[] = [];
  for (let i = 0; i < BOOKINGS; i += 1) {
    const body = bookingBody(i, run, slots);
    const answer = await postBooking(api.url, i, body);
    expect(answer.status, `booking ${i}`).to.equal(201);
    booked.push({ id: answer.id as string, email: body.email, plan: PLANS[i % PLANS.length] as Plan });
  }
  await afterBooking();
  for (const [i, booking] of booked.entries()) {
    const link = `${api.url}/api/bookings/${bookingToken(booking.id, TEST_LINK_SECRET)}`;
    const elsewhere = (step: number) => ({ timeSlot: slots[(i + step * BOOKINGS) % slots.length] });
    if (booking.plan === 'moved' || booking.plan === 'moved-then-cancelled' || booking.plan === 'moved-twice') {
      expect(await post(`${link}/reschedule`, elsewhere(1)), `move of booking ${i}`).to.equal(200);
    }
    if (booking.plan === 'moved-twice')
      expect(await post(`${link}/reschedule`, elsewhere(2)), `second move of booking ${i}`).to.equal(200);
    if (booking.plan === 'cancelled' || booking.plan === 'moved-then-cancelled')
      expect(await post(`${link}/cancel`, {}), `cancel of booking ${i}`).to.equal(200);
  }
  return booked;
}

/** The prospect e-mails of these bookings still to be sent (neither sent, refused for good, nor dropped). */
async function unsettled(stack: FaultStack, ids: string[]): Promise<number> {
  const { rows } = (await stack.db.raw(
    `SELECT count(*) AS open FROM deliveries WHERE booking_id = ANY(?::uuid[]) AND kind IN ('confirmation', 'update', 'cancellation')
       AND sent_at IS NULL AND failed_at IS NULL AND dropped_at IS NULL`,
    [ids],
  )) as { rows: Array<{ open: string }> };
  return Number(rows[0]?.open ?? 0);
}

/** Each prospect's calendar messages in the order the SMTP server took them in (each Message-ID once). */
async function calendarsOf(stack: FaultStack, booked: readonly Booked[]): Promise<Map<string, CalendarMessage[]>> {
  const byAddress = new Map(booked.map((booking) => [booking.email, booking.id]));
  const received = new Map<string, CalendarMessage[]>(booked.map((booking) => [booking.id, []]));
  const seen = new Set<string>();
  for (const message of stack.smtp.messages) {
    const id = message.to.map((address) => byAddress.get(address)).find((found) => found !== undefined);
    if (!id || seen.has(message.messageId)) continue;
    seen.add(message.messageId);
    const parsed = await PostalMime.parse(message.raw ?? '');
    const part = parsed.attachments.find((attachment) => attachment.mimeType === 'text/calendar');
    if (!part) continue;
    const ics = icsProperties(typeof part.content === 'string' ? part.content : new TextDecoder().decode(part.content));
    received.get(id)?.push({
      messageId: message.messageId,
      method: ics.METHOD ?? '',
      sequence: Number(ics.SEQUENCE),
      status: ics.STATUS ?? '',
      start: ics.DTSTART ?? '',
    });
  }
  return received;
}

/** The sequence each message should carry: the confirmation 0, an update or cancellation its change's. */
async function announcedSequences(stack: FaultStack, booked: readonly Booked[]): Promise<Map<string, number>> {
  const ids = booked.map((booking) => booking.id);
  const rows: Array<{ id: string; kind: string; sequence: number }> = await stack
    .db('deliveries')
    .whereIn('booking_id', ids)
    .select('id', 'kind', 'sequence');
  const sequences = new Map<string, number>(ids.map((id) => [`<demo-${id}@converge.localhost>`, 0]));
  for (const row of rows) sequences.set(`<${row.kind}-${row.id}@converge.localhost>`, row.sequence);
  return sequences;
}

/** Checks every booking's calendar against its final state; prints and returns the counts of each way it can fail. */
async function judge(
  stack: FaultStack,
  scenario: string,
  booked: readonly Booked[],
  extra: Record<string, string | number>,
) {
  const calendars = await calendarsOf(stack, booked);
  const announced = await announcedSequences(stack, booked);
  const finals = new Map<string, { status: string; time_slot: Date; sequence: number }>(
    (
      await stack
        .db('bookings')
        .whereIn(
          'id',
          booked.map((booking) => booking.id),
        )
        .select('id', 'status', 'time_slot', 'sequence')
    ).map((row: { id: string; status: string; time_slot: Date; sequence: number }) => [row.id, row]),
  );
  const failures = {
    requestAfterCancel: [] as string[],
    sequenceNotRising: [] as string[],
    lastNotFinal: [] as string[],
    wrongSequence: [] as string[],
    noCalendar: [] as string[],
  };
  let messages = 0;
  let confirmationsOfChangedBookings = 0;
  for (const booking of booked) {
    const calendar = calendars.get(booking.id) ?? [];
    const final = finals.get(booking.id)!;
    messages += calendar.length;
    const label = `${booking.plan} ${booking.id}: ${calendar.map((message) => `${message.method}/${message.sequence}`).join(' ') || 'nothing'}`;
    if (booking.plan !== 'kept' && calendar.some((message) => message.messageId.startsWith('<demo-')))
      confirmationsOfChangedBookings += 1;
    const firstCancel = calendar.findIndex((message) => message.method === 'CANCEL');
    if (firstCancel >= 0 && calendar.slice(firstCancel).some((message) => message.method === 'REQUEST'))
      failures.requestAfterCancel.push(label);
    if (calendar.some((message, i) => i > 0 && message.sequence <= calendar[i - 1]!.sequence))
      failures.sequenceNotRising.push(label);
    if (calendar.some((message) => announced.get(message.messageId) !== message.sequence))
      failures.wrongSequence.push(label);
    const last = calendar.at(-1);
    if (!last) {
      failures.noCalendar.push(label);
      continue;
    }
    const cancelled = final.status === 'cancelled';
    const matches =
      last.method === (cancelled ? 'CANCEL' : 'REQUEST') &&
      last.status === (cancelled ? 'CANCELLED' : 'CONFIRMED') &&
      last.sequence === final.sequence &&
      last.start === compact(final.time_slot);
    if (!matches) failures.lastNotFinal.push(label);
  }
  const summary = stack.smtp.summary();
  printFigures(scenario, {
    bookings: booked.length,
    ...Object.fromEntries(PLANS.map((plan) => [plan, booked.filter((booking) => booking.plan === plan).length])),
    ...extra,
    calendarMessages: messages,
    confirmationsOfChangedBookings,
    requestAfterCancel: failures.requestAfterCancel.length,
    sequenceNotRising: failures.sequenceNotRising.length,
    wrongSequence: failures.wrongSequence.length,
    lastNotFinal: failures.lastNotFinal.length,
    noCalendar: failures.noCalendar.length,
    duplicates: summary.duplicates,
  });
  return failures;
}

describe("fault 6: the prospect's calendar ends with what the booking is, whatever SMTP or the worker did", function () {
  this.timeout(180_000);
  let stack: FaultStack;
  let api: RunningApi;
  let worker: RunningWorker;
  const slots = bookableSlots();
  const workerOptions = { sweepEveryMs: 1000, sweepGraceMs: 3000 };

  before(async () => {
    stack = await startFaultStack({ keepRaw: true });
    api = await stack.startApi();
    worker = await stack.startWorker(workerOptions);
  });
  after(async () => {
    await stack?.teardown();
  });

  async function settle(booked: readonly Booked[], from: number): Promise<number> {
    const ids = booked.map((booking) => booking.id);
    const waitFrom = Date.now();
    const took = await waitUntil(
      'every prospect e-mail sent or dropped',
      async () => (await unsettled(stack, ids)) === 0,
      120_000,
      {
        everyMs: 250,
        describe: async () => `${await unsettled(stack, ids)} still open`,
      },
    );
    // A straggling copy or a late confirmation would come within a few sweep rounds and a retry.
    await delay(8000);
    return waitFrom + took - from;
  }

  it('with the SMTP server down while they book and change', async () => {
    await stack.smtp.goDown();
    const downAt = Date.now();
    // The confirmations fail twice (at once and 5 s later) and wait out their 10 s backoff when the changes are made;
    // the changes' e-mails fail twice too, and their next try comes before the confirmations' next one.
    const booked = await bookAndChange(api, runTag(), slots, () => delay(5500));
    await delay(9000);
    await stack.smtp.comeBack();
    const upAt = Date.now();
    const settledAfter = await settle(booked, upAt);
    const failures = await judge(stack, '6a smtp down, book, cancel, move', booked, {
      outage: seconds(upAt - downAt),
      settledAfterServerBack: seconds(settledAfter),
    });
    expect(failures).to.deep.equal({
      requestAfterCancel: [],
      sequenceNotRising: [],
      lastNotFinal: [],
      wrongSequence: [],
      noCalendar: [],
    });
    expect(stack.smtp.summary().duplicates, 'no e-mail twice').to.equal(0);
  });

  it('with no worker running while they book and change', async () => {
    await worker.close();
    const booked = await bookAndChange(api, runTag(), slots, async () => {});
    const startedAt = Date.now();
    worker = await stack.startWorker(workerOptions);
    const settledAfter = await settle(booked, startedAt);
    const failures = await judge(stack, '6b worker down, book, cancel, move', booked, {
      settledAfterWorkerBack: seconds(settledAfter),
    });
    expect(failures).to.deep.equal({
      requestAfterCancel: [],
      sequenceNotRising: [],
      lastNotFinal: [],
      wrongSequence: [],
      noCalendar: [],
    });
    expect(stack.smtp.summary().duplicates, 'no e-mail twice').to.equal(0);
  });
});
