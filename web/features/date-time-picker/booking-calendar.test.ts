import { expect } from 'chai';
import { SLOT_HOURS } from '../../../domain/booking.js';
import {
  calendarBounds,
  firstBookableDay,
  formatDayLong,
  isTileDisabled,
  slotOptions,
  takenSlotTimes,
  tileDate,
  tileDay,
  zonePlaceName,
} from './booking-calendar.js';

const ZONE = 'Europe/Berlin';
// Wednesday 18 November 2026, 10:30 in Berlin (CET, UTC+1).
const NOW = new Date('2026-11-18T09:30:00Z');
const tile = (year: number, month: number, day: number) => new Date(year, month - 1, day);

describe('booking calendar helpers', () => {
  it('reads a tile as the booking-zone day it shows, and back', () => {
    expect(tileDay(tile(2026, 11, 20))).to.deep.equal({ year: 2026, month: 11, day: 20 });
    expect(tileDay(tileDate({ year: 2027, month: 2, day: 28 }))).to.deep.equal({ year: 2027, month: 2, day: 28 });
  });

  it('disables Saturdays and Sundays', () => {
    expect(isTileDisabled(tile(2026, 11, 21), NOW, ZONE), 'Saturday').to.equal(true);
    expect(isTileDisabled(tile(2026, 11, 22), NOW, ZONE), 'Sunday').to.equal(true);
    expect(isTileDisabled(tile(2026, 11, 23), NOW, ZONE), 'Monday').to.equal(false);
  });

  it('disables past days and keeps today while a slot is left', () => {
    expect(isTileDisabled(tile(2026, 11, 17), NOW, ZONE), 'yesterday').to.equal(true);
    expect(isTileDisabled(tile(2026, 11, 18), NOW, ZONE), 'today at 10:30').to.equal(false);
    const lateEvening = new Date('2026-11-18T22:30:00Z'); // 23:30 in Berlin: the 23:00 slot has begun
    expect(isTileDisabled(tile(2026, 11, 18), lateEvening, ZONE), 'today after the last slot').to.equal(true);
  });

  it('disables days more than one month ahead', () => {
    expect(isTileDisabled(tile(2026, 12, 18), NOW, ZONE), '18 December, the last day of the window').to.equal(false);
    expect(isTileDisabled(tile(2026, 12, 21), NOW, ZONE), '21 December, beyond the window').to.equal(true);
  });

  it('bounds navigation to the months of the window', () => {
    const { minDate, maxDate } = calendarBounds(NOW, ZONE);
    expect(tileDay(minDate)).to.deep.equal({ year: 2026, month: 11, day: 18 });
    expect(tileDay(maxDate)).to.deep.equal({ year: 2026, month: 12, day: 18 });
  });

  it("bounds the window on the given zone's clock, not the default one", () => {
    // 21:00 on 30 November in Berlin is already 05:00 on 1 December in Tokyo: a month later is 1 January there.
    const now = new Date('2026-11-30T20:00:00Z');
    expect(tileDay(calendarBounds(now, ZONE).maxDate)).to.deep.equal({ year: 2026, month: 12, day: 30 });
    expect(tileDay(calendarBounds(now, 'Asia/Tokyo').minDate)).to.deep.equal({ year: 2026, month: 12, day: 1 });
    expect(tileDay(calendarBounds(now, 'Asia/Tokyo').maxDate)).to.deep.equal({ year: 2027, month: 1, day: 1 });
  });

  it('names the place of a zone for the hint', () => {
    expect(zonePlaceName('Europe/Berlin')).to.equal('Berlin');
    expect(zonePlaceName('America/New_York')).to.equal('New York');
    expect(zonePlaceName('America/Argentina/Buenos_Aires')).to.equal('Buenos Aires');
    expect(zonePlaceName('UTC')).to.equal('UTC');
  });

  it('finds the first bookable day, skipping a weekend', () => {
    const saturdayNight = new Date('2026-11-21T20:00:00Z');
    expect(firstBookableDay(saturdayNight, ZONE)).to.deep.equal({ year: 2026, month: 11, day: 23 });
  });

  it('offers all 17 hourly slots on a later weekday, 07:00 to 23:00', () => {
    const slots = slotOptions({ year: 2026, month: 11, day: 24 }, NOW, ZONE, ZONE);
    expect(slots).to.have.length(17);
    expect(slots.map((slot) => slot.label)).to.deep.equal(
      SLOT_HOURS.map((hour) => `${String(hour).padStart(2, '0')}:00`),
    );
    expect(slots[0]?.iso).to.equal('2026-11-24T06:00:00.000Z');
    expect(slots.every((slot) => slot.localLabel === null)).to.equal(true);
  });

  it("leaves out the slots already past today and those sooner than the page's notice (two hours here)", () => {
    const slots = slotOptions({ year: 2026, month: 11, day: 18 }, NOW, ZONE, ZONE);
    expect(slots[0]?.label).to.equal('13:00');
    expect(slots).to.have.length(11);
  });

  it("adds the visitor's own clock time only when it reads differently", () => {
    const day = { year: 2026, month: 11, day: 24 };
    expect(slotOptions(day, NOW, ZONE, 'Europe/Paris').every((slot) => slot.localLabel === null)).to.equal(true);
    const newYork = slotOptions(day, NOW, ZONE, 'America/New_York');
    expect(newYork[0]).to.deep.include({ label: '07:00', localLabel: '01:00' });
    const tokyo = slotOptions(day, NOW, ZONE, 'Asia/Tokyo');
    // 23:00 in Berlin is 07:00 the next morning in Tokyo, so the weekday is named.
    expect(tokyo[16]).to.deep.include({ label: '23:00', localLabel: '07:00 Wed' });
  });

  it('follows summer time: 07:00 Berlin is 05:00 UTC in June', () => {
    const june = new Date('2027-06-01T08:00:00Z');
    const slots = slotOptions({ year: 2027, month: 6, day: 2 }, june, ZONE, 'UTC');
    expect(slots[0]).to.deep.include({ iso: '2027-06-02T05:00:00.000Z', label: '07:00', localLabel: '05:00' });
  });

  it('writes a day out in full for the announcement', () => {
    expect(formatDayLong({ year: 2026, month: 11, day: 24 })).to.equal('Tuesday, 24 November 2026');
  });

  it('greys out only the slots the server says are gone, matching instants however they are written', () => {
    const day = { year: 2026, month: 11, day: 24 };
    const daySlots = {
      date: '2026-11-24',
      timeZone: ZONE,
      slots: [
        { start: '2026-11-24T06:00:00Z', available: false },
        { start: '2026-11-24T07:00:00.000Z', available: true },
        { start: '2026-11-24T09:00:00.000+01:00', available: false },
        { start: 'not a time', available: false },
      ],
    };
    const taken = takenSlotTimes(daySlots);
    const gone = slotOptions(day, NOW, ZONE, ZONE).filter((slot) => taken.has(Date.parse(slot.iso)));
    expect(gone.map((slot) => slot.label)).to.deep.equal(['07:00', '09:00']);
    // No answer (not asked yet, or the call failed): the domain rules alone decide.
    expect(takenSlotTimes(undefined).size).to.equal(0);
  });
});
