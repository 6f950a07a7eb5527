import { expect } from 'chai';
import { readMinNotice } from '../features/demo-request/booking-zone.js';
import { bookingRulesMeta } from './booking-zone.js';

describe('booking rules in the page head', () => {
  it('writes the tags the server rewrites: the zone and the notice', () => {
    expect(bookingRulesMeta('Europe/Berlin')).to.deep.equal([
      '<meta name="booking-time-zone" content="Europe/Berlin">',
      '<meta name="booking-min-notice" content="120">',
    ]);
  });

  it('reads the notice the server wrote, and the default for a missing or unusable one', () => {
    const page = (content: string | null) => ({ querySelector: () => (content === null ? null : { getAttribute: () => content }) });
    expect(readMinNotice(page('45'))).to.equal(45);
    expect(readMinNotice(page('0'))).to.equal(0);
    for (const bad of [null, '', 'soon', '-5', '1.5']) expect(readMinNotice(page(bad)), String(bad)).to.equal(120);
  });
});
