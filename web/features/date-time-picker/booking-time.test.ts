import { expect } from 'chai';
import { describeBookingTime } from './booking-time.js';

describe("a booking's time in words (the manage page, the success toast)", () => {
  // 14:00 in Berlin on Tuesday 24 November 2026.
  const slot = '2026-11-24T13:00:00.000Z';

  it('reads it in the booking zone, as the demo dialog does, with the visitor’s own time when that differs', () => {
    expect(describeBookingTime(slot, 'Europe/Berlin', 'America/New_York')).to.deep.equal({
      text: 'Tuesday, 24 November 2026 at 14:00 Europe Time',
      local: '08:00',
    });
  });

  it('leaves the visitor’s time out when their clock reads the same', () => {
    expect(describeBookingTime(slot, 'Europe/Berlin', 'Europe/Paris').local).to.equal(null);
  });

  it('names the weekday when the visitor’s clock is on another day', () => {
    // 23:00 in Berlin is 07:00 the next morning in Tokyo.
    expect(describeBookingTime('2026-11-24T22:00:00.000Z', 'Europe/Berlin', 'Asia/Tokyo')).to.deep.equal({
      text: 'Tuesday, 24 November 2026 at 23:00 Europe Time',
      local: '07:00 Wed',
    });
  });

  it('names another booking zone by its own name', () => {
    expect(describeBookingTime(slot, 'America/New_York', 'America/New_York').text).to.equal(
      'Tuesday, 24 November 2026 at 08:00 Eastern Time',
    );
  });
});
