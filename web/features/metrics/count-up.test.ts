import { expect } from 'chai';
import { countUpTotalMs, countUpValue, easeOutCubic } from './count-up.js';

describe('count-up', () => {
  it('takes 2000 ms per card, and the last of five cards lands 800 ms after the first', () => {
    expect(countUpValue(1000, 1800, 0), 'first card at 1.8 s').to.equal(999);
    expect(countUpValue(1000, 2000, 0), 'first card at 2 s').to.equal(1000);
    expect(countUpValue(1000, 2600, 4), 'fifth card at 2.6 s').to.equal(999);
    expect(countUpValue(1000, 2800, 4), 'fifth card at 2.8 s').to.equal(1000);
    expect(countUpTotalMs(5)).to.equal(2800);
    expect(countUpTotalMs(1)).to.equal(2000);
  });

  it('eases out: starts at 0, ends at 1, more than half done at the midpoint', () => {
    expect(easeOutCubic(0)).to.equal(0);
    expect(easeOutCubic(1)).to.equal(1);
    expect(easeOutCubic(0.5)).to.equal(0.875);
    expect(easeOutCubic(-1)).to.equal(0);
    expect(easeOutCubic(3)).to.equal(1);
  });

  it('is monotonic', () => {
    let previous = -1;
    for (let t = 0; t <= 1; t += 0.05) {
      const value = easeOutCubic(t);
      expect(value).to.be.at.least(previous);
      previous = value;
    }
  });

  it('counts a card from 0 to its value', () => {
    expect(countUpValue(40, 0, 0)).to.equal(0);
    expect(countUpValue(40, 1000, 0)).to.equal(35);
    expect(countUpValue(40, 2000, 0)).to.equal(40);
    expect(countUpValue(40, 5000, 0)).to.equal(40);
  });

  it('starts each later card 200 ms after the one before', () => {
    expect(countUpValue(100, 400, 2)).to.equal(0);
    expect(countUpValue(100, 1400, 2)).to.equal(88);
    expect(countUpValue(100, 2000, 2)).to.equal(99);
    expect(countUpValue(100, 2400, 2)).to.equal(100);
  });
});
