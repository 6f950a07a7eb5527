import { expect } from 'chai';
import { bookingTimeZoneMeta } from './booking-zone.js';

describe('booking zone in the page head', () => {
  it('writes the tag the server rewrites', () => {
    expect(bookingTimeZoneMeta('Europe/Berlin')).to.equal('<meta name="booking-time-zone" content="Europe/Berlin">');
  });
});
