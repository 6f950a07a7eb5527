import { expect } from 'chai';
import { bookingToken } from '../../server-shared/booking-link.js';
import type { DaySlots } from '../../domain/booking.js';
import { startAppUnderTest, type AppUnderTest } from '../../test/app-under-test.js';
import { TEST_LINK_SECRET } from '../../test/stack.js';
import { createSlotCounts } from './slot-counts.js';

describe("the slots' counts kept in memory", () => {
  const DAY = '2026-11-24';
  const starts = [new Date('2026-11-24T08:00:00.000Z')];

  /** A reader whose answers the test hands out one by one. */
  function controlledReader() {
    const pending: ((counts: Map<string, number>) => void)[] = [];
    let reads = 0;
    return {
      read: () => {
        reads += 1;
        return new Promise<ReadonlyMap<string, number>>((resolve) => pending.push(resolve));
      },
      answer: (n: number) => pending.shift()?.(new Map([['2026-11-24T08:00:00.000Z', n]])),
      reads: () => reads,
    };
  }

  it('asks the database once per day within its lifetime, and again after it', async () => {
    let clock = 0;
    const reader = controlledReader();
    const counts = createSlotCounts(reader.read, 1000, () => clock);
    const first = counts.of(DAY, starts);
    const second = counts.of(DAY, starts);
    reader.answer(1);
    expect((await first).get('2026-11-24T08:00:00.000Z')).to.equal(1);
    expect(await second).to.equal(await first);
    expect(reader.reads()).to.equal(1);
    clock = 1000;
    const later = counts.of(DAY, starts);
    reader.answer(2);
    expect((await later).get('2026-11-24T08:00:00.000Z')).to.equal(2);
    expect(reader.reads()).to.equal(2);
  });

  it('forgets every day at a change, and never keeps a read that began before the change', async () => {
    const reader = controlledReader();
    const counts = createSlotCounts(reader.read, 60_000, () => 0);
    const before = counts.of(DAY, starts);
    counts.changed();
    reader.answer(0);
    await before;
    const after = counts.of(DAY, starts);
    reader.answer(1);
    expect((await after).get('2026-11-24T08:00:00.000Z')).to.equal(1);
    expect(reader.reads()).to.equal(2);

    // A read under way when a change lands is dropped once it ends, even if nobody asked in between.
    counts.changed();
    const racing = counts.of(DAY, starts);
    counts.changed();
    reader.answer(1);
    await racing;
    const fresh = counts.of(DAY, starts);
    reader.answer(2);
    expect((await fresh).get('2026-11-24T08:00:00.000Z')).to.equal(2);
    expect(reader.reads()).to.equal(4);
  });

  it('does not keep a failed read', async () => {
    let fail = true;
    let reads = 0;
    const counts = createSlotCounts(async () => {
      reads += 1;
      if (fail) throw new Error('database away');
      return new Map<string, number>();
    });
    await counts.of(DAY, starts).then(
      () => expect.fail('the failed read was answered'),
      (err: Error) => expect(err.message).to.equal('database away'),
    );
    fail = false;
    expect((await counts.of(DAY, starts)).size).to.equal(0);
    expect(reads).to.equal(2);
  });
});

describe('GET /api/slots after a booking, a move and a cancellation in this process', () => {
  // Monday 23 November 2026, 10:30 in Berlin.
  const NOW = new Date('2026-11-23T09:30:00.000Z');
  const NINE = '2026-11-24T08:00:00.000Z';
  const TEN = '2026-11-24T09:00:00.000Z';
  let app: AppUnderTest;
  before(async () => {
    app = await startAppUnderTest({ now: () => NOW });
  });
  after(async () => {
    await app.close();
  });

  const taken = async (): Promise<string[]> => {
    const day = (await (await fetch(`${app.url}/api/slots?date=2026-11-24`)).json()) as DaySlots;
    return day.slots.filter((slot) => !slot.available).map((slot) => slot.start);
  };

  it('shows each change at once, though the day was just read', async () => {
    expect(await taken()).to.deep.equal([]);
    const booked = await app.post('/api/demo-request', {
      name: 'Ada Lovelace',
      email: 'ada@analytical-engines.com',
      company: 'Analytical Engines',
      timeSlot: NINE,
    });
    expect(booked.status).to.equal(201);
    expect(await taken()).to.deep.equal([NINE]);
    const token = bookingToken(String(booked.body.id), TEST_LINK_SECRET);
    expect((await app.post(`/api/bookings/${token}/reschedule`, { timeSlot: TEN })).status).to.equal(200);
    expect(await taken()).to.deep.equal([TEN]);
    expect((await app.post(`/api/bookings/${token}/cancel`, {})).status).to.equal(200);
    expect(await taken()).to.deep.equal([]);
  });
});
