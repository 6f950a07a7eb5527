import { expect } from 'chai';
import {
  DEFAULT_MIN_NOTICE_MINUTES,
  SLOT_HOURS,
  TIME_SLOT_WEEKEND_MESSAGE,
  TIME_SLOT_WINDOW_MESSAGE,
  availableSlots,
  bookingZoneLabel,
  calendarDayOf,
  isBookableDay,
  oneMonthAfter,
  timeSlotHoursMessage,
  timeSlotProblem,
  zonedTimeToInstant,
  zonedIsoString,
} from './booking.js';

const BERLIN = 'Europe/Berlin';
// Monday 23 November 2026, 10:30 in Berlin (CET, UTC+1).
const NOW = new Date('2026-11-23T09:30:00.000Z');

describe('booking rules', () => {
  it('has 17 hourly slots from 07:00 to 23:00', () => {
    expect(SLOT_HOURS).to.have.length(17);
    expect(SLOT_HOURS[0]).to.equal(7);
    expect(SLOT_HOURS.at(-1)).to.equal(23);
  });

  it('converts the booking zone wall clock to UTC across both DST offsets', () => {
    expect(zonedTimeToInstant({ year: 2026, month: 11, day: 24 }, 9, BERLIN).toISOString()).to.equal(
      '2026-11-24T08:00:00.000Z',
    );
    expect(zonedTimeToInstant({ year: 2026, month: 7, day: 1 }, 9, BERLIN).toISOString()).to.equal(
      '2026-07-01T07:00:00.000Z',
    );
    // 29 March 2026 is the switch to summer time: 07:00 that day is already CEST.
    expect(zonedTimeToInstant({ year: 2026, month: 3, day: 29 }, 7, BERLIN).toISOString()).to.equal(
      '2026-03-29T05:00:00.000Z',
    );
    expect(zonedTimeToInstant({ year: 2026, month: 11, day: 24 }, 9, 'America/New_York').toISOString()).to.equal(
      '2026-11-24T14:00:00.000Z',
    );
  });

  it('reads a wall time the clock skips later by the gap, and one it reads twice as the earlier, west of UTC as east', () => {
    const at = (zone: string, [year, month, day, hour, minute]: number[]) =>
      zonedTimeToInstant({ year: year!, month: month!, day: day! }, hour!, zone, minute).toISOString();
    // Santiago's clock goes from 00:00 to 01:00 on 6 September 2026: that day's midnight is its first instant, 01:00.
    expect(at('America/Santiago', [2026, 9, 6, 0, 0])).to.equal('2026-09-06T04:00:00.000Z');
    expect(at('America/Havana', [2026, 3, 8, 0, 30])).to.equal('2026-03-08T05:30:00.000Z');
    // 02:30 does not exist in New York on 8 March 2026: 03:30 EDT, as in Berlin on 29 March (03:30 CEST).
    expect(at('America/New_York', [2026, 3, 8, 2, 30])).to.equal('2026-03-08T07:30:00.000Z');
    expect(at(BERLIN, [2026, 3, 29, 2, 30])).to.equal('2026-03-29T01:30:00.000Z');
    // Cairo's clock reads Thursday 29 October 2026, 23:00 twice (+03:00, then +02:00): the grid's 23:00 is the first,
    // an hour after its 22:00, as Berlin's 02:30 on 25 October is the one in CEST.
    expect(at('Africa/Cairo', [2026, 10, 29, 23, 0])).to.equal('2026-10-29T20:00:00.000Z');
    expect(at(BERLIN, [2026, 10, 25, 2, 30])).to.equal('2026-10-25T00:30:00.000Z');
  });

  it('ends the window on the same day and time next month, clamped to the month end', () => {
    expect(oneMonthAfter(new Date('2026-11-23T09:30:00Z')).toISOString()).to.equal('2026-12-23T09:30:00.000Z');
    expect(oneMonthAfter(new Date('2027-01-31T12:00:00Z')).toISOString()).to.equal('2027-02-28T12:00:00.000Z');
    expect(oneMonthAfter(new Date('2028-01-31T12:00:00Z')).toISOString()).to.equal('2028-02-29T12:00:00.000Z');
    expect(oneMonthAfter(new Date('2026-12-15T08:00:00Z')).toISOString()).to.equal('2027-01-15T08:00:00.000Z');
  });

  it('counts the month on the booking zone clock across a change of summer time', () => {
    // 12:30 CEST on 9 October ends the window at 12:30 CET on 9 November, an hour later in UTC.
    expect(oneMonthAfter(new Date('2026-10-09T10:30:00Z'), BERLIN).toISOString()).to.equal('2026-11-09T11:30:00.000Z');
    expect(timeSlotProblem('2026-11-09T11:00:00Z', new Date('2026-10-09T10:30:00Z'), BERLIN), '12:00 CET').to.equal(
      null,
    );
    // 11:30 CET on 12 March ends it at 11:30 CEST on 12 April.
    expect(oneMonthAfter(new Date('2027-03-12T10:30:00Z'), BERLIN).toISOString()).to.equal('2027-04-12T09:30:00.000Z');
    expect(timeSlotProblem('2027-04-12T10:00:00Z', new Date('2027-03-12T10:30:00Z'), BERLIN), '12:00 CEST').to.equal(
      TIME_SLOT_WINDOW_MESSAGE,
    );
  });

  it('offers all 17 slots on a future weekday inside the window', () => {
    const slots = availableSlots({ year: 2026, month: 11, day: 25 }, NOW, BERLIN);
    expect(slots.map((slot) => slot.label)).to.deep.equal(
      SLOT_HOURS.map((hour) => `${String(hour).padStart(2, '0')}:00`),
    );
    expect(slots[0]?.iso).to.equal('2026-11-25T06:00:00.000Z');
  });

  it('offers only the slots still ahead today, and none sooner than the notice allows', () => {
    // 10:30 now: with the default two hours' notice 12:30 is the earliest start, so 13:00 is the first slot.
    const slots = availableSlots(calendarDayOf(NOW, BERLIN), NOW, BERLIN);
    expect(DEFAULT_MIN_NOTICE_MINUTES).to.equal(120);
    expect(slots[0]?.label).to.equal('13:00');
    expect(slots).to.have.length(11);
    expect(availableSlots(calendarDayOf(NOW, BERLIN), NOW, BERLIN, 0)[0]?.label).to.equal('11:00');
    // A slot exactly the notice away is still offered.
    expect(availableSlots(calendarDayOf(NOW, BERLIN), NOW, BERLIN, 30)[0]?.label).to.equal('11:00');
    expect(availableSlots(calendarDayOf(NOW, BERLIN), NOW, BERLIN, 31)[0]?.label).to.equal('12:00');
  });

  it('refuses a slot sooner than the notice with the window message, as the calendar does', () => {
    expect(timeSlotProblem('2026-11-23T11:00:00Z', NOW, BERLIN), '12:00 today, 90 minutes away').to.equal(
      TIME_SLOT_WINDOW_MESSAGE,
    );
    expect(timeSlotProblem('2026-11-23T12:00:00Z', NOW, BERLIN), '13:00 today').to.equal(null);
    expect(timeSlotProblem('2026-11-23T11:00:00Z', NOW, BERLIN, 60), 'with an hour of notice').to.equal(null);
    expect(
      isBookableDay(calendarDayOf(NOW, BERLIN), new Date('2026-11-23T20:30:00Z'), BERLIN),
      '21:30: 23:00 is too soon',
    ).to.equal(false);
  });

  it('disables weekends, past days, days beyond a month, and days with no slot left', () => {
    expect(isBookableDay({ year: 2026, month: 11, day: 28 }, NOW, BERLIN), 'Saturday').to.equal(false);
    expect(isBookableDay({ year: 2026, month: 11, day: 29 }, NOW, BERLIN), 'Sunday').to.equal(false);
    expect(isBookableDay({ year: 2026, month: 11, day: 20 }, NOW, BERLIN), 'past Friday').to.equal(false);
    expect(isBookableDay({ year: 2026, month: 12, day: 23 }, NOW, BERLIN), 'last day, morning slots left').to.equal(
      true,
    );
    expect(availableSlots({ year: 2026, month: 12, day: 23 }, NOW, BERLIN).at(-1)?.label).to.equal('10:00');
    expect(isBookableDay({ year: 2026, month: 12, day: 24 }, NOW, BERLIN), 'a day past the window').to.equal(false);
    const lateEvening = new Date('2026-11-23T22:30:00Z'); // 23:30 in Berlin
    expect(isBookableDay({ year: 2026, month: 11, day: 23 }, lateEvening, BERLIN)).to.equal(false);
  });

  it('judges a requested slot with one message per rule', () => {
    expect(timeSlotProblem('2026-11-24T08:00:00.000Z', NOW, BERLIN)).to.equal(null);
    expect(timeSlotProblem('2026-11-24T08:00:00Z', NOW, BERLIN)).to.equal(null);
    expect(timeSlotProblem('not a date', NOW, BERLIN)).to.equal(TIME_SLOT_WINDOW_MESSAGE);
    expect(timeSlotProblem('Tue, 24 Nov 2026 08:00:00 GMT', NOW, BERLIN), 'not ISO 8601').to.equal(
      TIME_SLOT_WINDOW_MESSAGE,
    );
    expect(timeSlotProblem('2026-11-24T08:00', NOW, BERLIN), 'no offset').to.equal(TIME_SLOT_WINDOW_MESSAGE);
    expect(timeSlotProblem('2026-11-24', NOW, BERLIN), 'a day only').to.equal(TIME_SLOT_WINDOW_MESSAGE);
    expect(timeSlotProblem('2026-02-30T08:00:00Z', NOW, BERLIN), 'no such day').to.equal(TIME_SLOT_WINDOW_MESSAGE);
    expect(timeSlotProblem('2026-11-24T09:00:00+01:00', NOW, BERLIN), 'with an offset').to.equal(null);
    expect(timeSlotProblem('2026-11-23T09:00:00Z', NOW, BERLIN), 'past').to.equal(TIME_SLOT_WINDOW_MESSAGE);
    expect(timeSlotProblem(NOW.toISOString(), NOW, BERLIN), 'now is not later than now').to.equal(
      TIME_SLOT_WINDOW_MESSAGE,
    );
    expect(timeSlotProblem('2026-12-23T09:00:00Z', NOW, BERLIN), 'inside, last day').to.equal(null);
    expect(timeSlotProblem('2026-12-24T09:00:00Z', NOW, BERLIN), 'beyond a month').to.equal(TIME_SLOT_WINDOW_MESSAGE);
    expect(timeSlotProblem('2026-11-28T09:00:00Z', NOW, BERLIN), 'Saturday').to.equal(TIME_SLOT_WEEKEND_MESSAGE);
    expect(timeSlotProblem('2026-11-24T08:30:00Z', NOW, BERLIN), 'half hour').to.equal(timeSlotHoursMessage(BERLIN));
    expect(timeSlotProblem('2026-11-24T05:00:00Z', NOW, BERLIN), '06:00 Berlin').to.equal(timeSlotHoursMessage(BERLIN));
    expect(timeSlotProblem('2026-11-24T22:00:00Z', NOW, BERLIN), '23:00 Berlin').to.equal(null);
    // 23:00 UTC on Tuesday is 00:00 Wednesday in Berlin: outside the hours.
    expect(timeSlotProblem('2026-11-24T23:00:00Z', NOW, BERLIN)).to.equal(timeSlotHoursMessage(BERLIN));
    // Friday 23:00 UTC is Saturday 00:00 in Berlin: a weekend there, whatever the visitor's zone says.
    expect(timeSlotProblem('2026-11-27T23:00:00Z', NOW, BERLIN)).to.equal(TIME_SLOT_WEEKEND_MESSAGE);
  });
});

describe('the window check', () => {
  // timeSlotProblem works out the window's end only for times further off than the shortest month; it must refuse
  // exactly the times after oneMonthAfter, whatever the zone, the month lengths and the changes of offset.
  it("refuses exactly the times after one month on the zone's clock, checked hour by hour over 35 days", () => {
    const cases: [string, string][] = [
      ['2027-01-31T11:00:00.000Z', BERLIN],
      ['2027-02-27T12:17:31.250Z', BERLIN],
      ['2026-10-09T10:30:00.000Z', BERLIN],
      ['2027-03-12T10:30:00.000Z', BERLIN],
      ['2027-02-28T20:00:00.000Z', 'America/New_York'],
      ['2011-12-01T10:00:00.000Z', 'Pacific/Apia'],
      ['2027-03-20T01:00:00.000Z', 'Australia/Lord_Howe'],
    ];
    for (const [at, zone] of cases) {
      const now = new Date(at);
      const end = oneMonthAfter(now, zone).getTime();
      const firstHour = (Math.floor(now.getTime() / 3_600_000) + 1) * 3_600_000;
      for (let time = firstHour; time < now.getTime() + 35 * 86_400_000; time += 3_600_000) {
        const refused = timeSlotProblem(new Date(time).toISOString(), now, zone, 0) === TIME_SLOT_WINDOW_MESSAGE;
        expect(refused, `${new Date(time).toISOString()} from ${at} in ${zone}`).to.equal(time > end);
      }
    }
  });
});

describe('the booking zone as people read it', () => {
  it('is "Europe Time" for a European zone, as the specification words it', () => {
    expect(bookingZoneLabel('Europe/Berlin')).to.equal('Europe Time');
    expect(bookingZoneLabel('Europe/Lisbon')).to.equal('Europe Time');
  });

  it("is the zone's generic name elsewhere, and names it in the hours message", () => {
    expect(bookingZoneLabel('America/New_York')).to.equal('Eastern Time');
    expect(timeSlotHoursMessage('America/New_York')).to.equal(
      'Please choose a whole-hour slot between 07:00 and 23:00 Eastern Time.',
    );
    expect(timeSlotHoursMessage('Europe/Berlin')).to.equal(
      'Please choose a whole-hour slot between 07:00 and 23:00 Europe Time.',
    );
  });
});

describe('an instant in ISO 8601 as a zone reads it', () => {
  it("writes the zone's wall clock with the offset in force at that instant, either side of a change and west of UTC", () => {
    expect(zonedIsoString(new Date('2026-12-03T09:00:00.400Z'), 'Europe/Berlin')).to.equal('2026-12-03T10:00:00+01:00');
    expect(zonedIsoString(new Date('2026-07-01T09:00:00Z'), 'Europe/Berlin')).to.equal('2026-07-01T11:00:00+02:00');
    // 01:59:59 and then 03:00:00 on the night clocks go forward in Berlin.
    expect(zonedIsoString(new Date('2026-03-29T00:59:59Z'), 'Europe/Berlin')).to.equal('2026-03-29T01:59:59+01:00');
    expect(zonedIsoString(new Date('2026-03-29T01:00:00Z'), 'Europe/Berlin')).to.equal('2026-03-29T03:00:00+02:00');
    expect(zonedIsoString(new Date('2026-12-03T03:30:00Z'), 'America/St_Johns')).to.equal('2026-12-03T00:00:00-03:30');
    expect(zonedIsoString(new Date('2026-12-03T09:00:00Z'), 'Asia/Kolkata')).to.equal('2026-12-03T14:30:00+05:30');
    expect(zonedIsoString(new Date('2026-12-03T09:00:00Z'), 'UTC')).to.equal('2026-12-03T09:00:00+00:00');
  });
});

describe("zone arithmetic whatever the host computer's own zone", () => {
  // The browser runs in the visitor's zone; a server may run in any. Each case is one where a conversion through the
  // host's own clock (TZDate's wall-clock constructor) lands a day, half an hour or an hour off, near a change of
  // offset of the host's own zone.
  const cases: [host: string, zone: string, wall: [number, number, number, number, number], instant: string][] = [
    ['Pacific/Apia', 'America/New_York', [2011, 12, 30, 14, 32], '2011-12-30T19:32:00.000Z'],
    ['Australia/Lord_Howe', 'America/Santiago', [2024, 4, 7, 0, 36], '2024-04-07T04:36:00.000Z'],
    ['America/Santiago', 'Pacific/Chatham', [2026, 4, 5, 0, 31], '2026-04-04T10:46:00.000Z'],
  ];
  const hostZone = process.env.TZ;
  afterEach(() => {
    if (hostZone === undefined) delete process.env.TZ;
    else process.env.TZ = hostZone;
  });

  for (const [host, zone, [year, month, day, hour, minute], instant] of cases) {
    it(`reads ${zone}'s clock the same on a host in ${host}`, () => {
      process.env.TZ = host;
      expect(zonedTimeToInstant({ year, month, day }, hour, zone, minute).toISOString()).to.equal(instant);
      expect(calendarDayOf(new Date(instant), zone)).to.deep.equal({ year, month, day });
      expect(zonedIsoString(new Date(instant), zone).slice(11, 16)).to.equal(
        `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`,
      );
    });
  }
});
