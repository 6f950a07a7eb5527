import { expect } from 'chai';
import { createTrappedSlots, type TrappedSlot } from './trapped-slots.js';

describe("the honeypot's catches in the slot list, kept in memory", () => {
  const FROM = new Date('2026-11-24T06:00:00.000Z');
  const TO = new Date('2026-11-24T22:00:00.000Z');
  const TAKEN: TrappedSlot[] = [{ timeSlot: new Date('2026-11-24T09:00:00.000Z'), hostEmail: null }];

  function readers(caught: string[]) {
    const asked = { networks: 0, taken: [] as string[] };
    return {
      asked,
      networks: async () => {
        asked.networks += 1;
        return new Set(caught);
      },
      taken: async (network: string) => {
        asked.taken.push(network);
        return TAKEN;
      },
    };
  }

  it("asks what a network took only for a network caught, and which were caught once within the counts' lifetime", async () => {
    let clock = 0;
    const read = readers(['203.0.113.7']);
    const trapped = createTrappedSlots(read.networks, read.taken, 1000, () => clock);
    expect(await trapped.of('198.51.100.20', FROM, TO)).to.deep.equal([]);
    expect(await trapped.of('198.51.100.21', FROM, TO)).to.deep.equal([]);
    expect(await trapped.of('203.0.113.7', FROM, TO)).to.deep.equal(TAKEN);
    expect(read.asked).to.deep.equal({ networks: 1, taken: ['203.0.113.7'] });
    clock = 1000;
    await trapped.of('198.51.100.20', FROM, TO);
    expect(read.asked.networks).to.equal(2);
  });

  it('reads the caught networks again after a catch of its own, however recent the last read', async () => {
    const read = readers([]);
    const trapped = createTrappedSlots(read.networks, read.taken, 1000, () => 0);
    await trapped.of('203.0.113.7', FROM, TO);
    trapped.changed();
    await trapped.of('203.0.113.7', FROM, TO);
    expect(read.asked.networks).to.equal(2);
  });

  it('keeps no failed read: the next request asks again', async () => {
    let fail = true;
    const trapped = createTrappedSlots(
      async () => {
        if (fail) throw new Error('database down');
        return new Set<string>();
      },
      async () => [],
      1000,
      () => 0,
    );
    const failure = await trapped.of('203.0.113.7', FROM, TO).catch((err: unknown) => err);
    expect(failure).to.be.an('error');
    fail = false;
    expect(await trapped.of('203.0.113.7', FROM, TO)).to.deep.equal([]);
  });
});
