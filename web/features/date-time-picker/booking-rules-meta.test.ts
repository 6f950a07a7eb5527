import { expect } from 'chai';
import { DEFAULT_BOOKING_TIME_ZONE } from '../../../domain/booking.js';
import { readBookingTimeZone } from './booking-zone.js';

/** A stand-in for document with the given head tags, answering querySelector as a browser would for them. */
function documentWith(tags: { name: string; content: string | null }[]) {
  return {
    querySelector(selectors: string) {
      const name = /^meta\[name="([^"]+)"\]$/.exec(selectors)?.[1];
      const tag = tags.find((candidate) => candidate.name === name);
      return tag ? { getAttribute: (attribute: string) => (attribute === 'content' ? tag.content : null) } : null;
    },
  };
}

describe('booking zone from the page', () => {
  it('reads a valid zone from <meta name="booking-time-zone">', () => {
    expect(readBookingTimeZone(documentWith([{ name: 'booking-time-zone', content: 'America/New_York' }]))).to.equal('America/New_York');
    expect(readBookingTimeZone(documentWith([{ name: 'booking-time-zone', content: ' Europe/London ' }]))).to.equal('Europe/London');
  });

  it('falls back to the default when the tag is missing', () => {
    expect(readBookingTimeZone(documentWith([]))).to.equal(DEFAULT_BOOKING_TIME_ZONE);
    expect(readBookingTimeZone(documentWith([{ name: 'description', content: 'Asia/Tokyo' }]))).to.equal(DEFAULT_BOOKING_TIME_ZONE);
    expect(readBookingTimeZone(undefined), 'no document (prerender, tests)').to.equal(DEFAULT_BOOKING_TIME_ZONE);
  });

  it('falls back to the default when the content is not a valid zone', () => {
    for (const content of ['Mars/Olympus_Mons', '', '   ', null, '${BOOKING_TIME_ZONE}']) {
      expect(readBookingTimeZone(documentWith([{ name: 'booking-time-zone', content }])), String(content)).to.equal(
        DEFAULT_BOOKING_TIME_ZONE,
      );
    }
  });
});
