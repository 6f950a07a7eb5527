import { expect } from 'chai';
import { loadWorkerConfig } from './config.js';

describe("the worker's settings", () => {
  it('stop it when BOOKING_LINK_SECRET is unset or shorter than 32 characters, saying how to make one', () => {
    expect(() => loadWorkerConfig({})).to.throw(/^BOOKING_LINK_SECRET is not set: .*openssl rand -hex 32$/);
    expect(() => loadWorkerConfig({ BOOKING_LINK_SECRET: 'short' })).to.throw('BOOKING_LINK_SECRET must be at least 32 characters long (it has 5)');
    expect(loadWorkerConfig({ BOOKING_LINK_SECRET: 's'.repeat(32) }).bookingLinkSecret).to.equal('s'.repeat(32));
  });
});
