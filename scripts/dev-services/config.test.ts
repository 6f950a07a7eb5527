import { expect } from 'chai';
import { derivedQueuePrefix } from './config.js';

describe("npm start's queue prefix", () => {
  it("is one of its own for each database, so checkouts sharing one Redis never take each other's jobs", () => {
    const embeddedA = derivedQueuePrefix(undefined, '/srv/checkout-a/.data');
    const embeddedB = derivedQueuePrefix(undefined, '/srv/checkout-b/.data');
    const configured = derivedQueuePrefix(
      'postgres://converge:secret@db.internal:5432/converge',
      '/srv/checkout-a/.data',
    );
    expect(embeddedA).to.match(/^converge-[0-9a-f]{10}$/);
    expect(new Set([embeddedA, embeddedB, configured]).size).to.equal(3);
    expect(derivedQueuePrefix(undefined, '/srv/checkout-a/.data'), 'stable between runs').to.equal(embeddedA);
    // The password is not part of the name: changing it does not orphan the queued jobs.
    expect(derivedQueuePrefix('postgres://converge:other@db.internal:5432/converge', '/x')).to.equal(configured);
  });
});
