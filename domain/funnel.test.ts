import { expect } from 'chai';
import { FUNNEL_SOURCE_MAX_LENGTH, funnelSource } from './funnel.js';

describe('funnelSource', () => {
  it('keeps a short plain source, lower case and trimmed; none is null; anything else is other', () => {
    const cases: [string | null | undefined, string | null][] = [
      [' Newsletter ', 'newsletter'],
      ['linkedin.com', 'linkedin.com'],
      ['q4_launch-2026', 'q4_launch-2026'],
      ['x'.repeat(FUNNEL_SOURCE_MAX_LENGTH), 'x'.repeat(FUNNEL_SOURCE_MAX_LENGTH)],
      ['x'.repeat(FUNNEL_SOURCE_MAX_LENGTH + 1), 'other'],
      ['ada@example.com', 'other'],
      ['news letter', 'other'],
      ['Ünïcode', 'other'],
      ['', null],
      ['   ', null],
      [null, null],
      [undefined, null],
    ];
    expect(cases.map(([given]) => funnelSource(given))).to.deep.equal(cases.map(([, counted]) => counted));
  });
});
