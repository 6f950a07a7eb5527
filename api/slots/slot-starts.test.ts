import { expect } from 'chai';
import { parseCalendarDay, slotStartsOf, type CalendarDay } from '../../domain/booking.js';
import { keptSlotStarts } from './routes.js';

const dayOf = (date: string): CalendarDay => parseCalendarDay(date)!;

describe("a day's slot starts, kept per day", () => {
  it('are the slot starts of that day in the zone, in ISO form too, on a day the clocks change as on any other', () => {
    const startsOf = keptSlotStarts('Europe/Berlin');
    for (const date of ['2026-11-24', '2026-10-25', '2027-03-28', '2026-11-24']) {
      const expected = slotStartsOf(dayOf(date), 'Europe/Berlin');
      const { starts, isos } = startsOf(date, dayOf(date));
      expect(
        starts.map((start) => start.getTime()),
        date,
      ).to.deep.equal(expected.map((start) => start.getTime()));
      expect(isos, date).to.deep.equal(expected.map((start) => start.toISOString()));
    }
    expect(keptSlotStarts('America/New_York')('2026-11-24', dayOf('2026-11-24')).isos[0]).to.equal(
      slotStartsOf(dayOf('2026-11-24'), 'America/New_York')[0]!.toISOString(),
    );
  });

  it('keeps a bounded number of days, the first kept going first, and works a dropped day out again the same', () => {
    const startsOf = keptSlotStarts('Europe/Berlin', 2);
    const first = startsOf('2026-11-24', dayOf('2026-11-24'));
    expect(startsOf('2026-11-24', dayOf('2026-11-24'))).to.equal(first);
    startsOf('2026-11-25', dayOf('2026-11-25'));
    startsOf('2026-11-26', dayOf('2026-11-26'));
    const again = startsOf('2026-11-24', dayOf('2026-11-24'));
    expect(again).to.not.equal(first);
    expect(again).to.deep.equal(first);
  });
});
