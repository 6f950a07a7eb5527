import { expect } from 'chai';
import { DEFAULT_BOOKING_TIME_ZONE } from '../../../domain/booking.js';
import { bookingRulesMeta, readBookingTimeZone, readMinNotice } from './booking-rules-meta.js';

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
    expect(readBookingTimeZone(documentWith([{ name: 'booking-time-zone', content: 'America/New_York' }]))).to.equal(
      'America/New_York',
    );
    expect(readBookingTimeZone(documentWith([{ name: 'booking-time-zone', content: ' Europe/London ' }]))).to.equal(
      'Europe/London',
    );
  });

  it('falls back to the default when the tag is missing', () => {
    expect(readBookingTimeZone(documentWith([]))).to.equal(DEFAULT_BOOKING_TIME_ZONE);
    expect(readBookingTimeZone(documentWith([{ name: 'description', content: 'Asia/Tokyo' }]))).to.equal(
      DEFAULT_BOOKING_TIME_ZONE,
    );
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

describe('booking rules in the page head', () => {
  it('writes the tags the server rewrites: the zone and the notice', () => {
    expect(bookingRulesMeta('Europe/Berlin')).to.deep.equal([
      '<meta name="booking-time-zone" content="Europe/Berlin">',
      '<meta name="booking-min-notice" content="120">',
    ]);
  });

  it('reads the notice the server wrote, and the default for a missing or unusable one', () => {
    const page = (content: string | null) => ({
      querySelector: () => (content === null ? null : { getAttribute: () => content }),
    });
    expect(readMinNotice(page('45'))).to.equal(45);
    expect(readMinNotice(page('0'))).to.equal(0);
    for (const bad of [null, '', 'soon', '-5', '1.5']) expect(readMinNotice(page(bad)), String(bad)).to.equal(120);
  });
});
