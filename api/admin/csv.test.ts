import { expect } from 'chai';
import { csvCell, csvLine } from './csv.js';

describe('CSV cells', () => {
  it('quotes every cell, doubles quotes, keeps commas and line breaks inside the cell', () => {
    expect(csvLine(['a', 'b,c', 'say "hi"', 'two\r\nlines', null, 3])).to.equal(
      '"a","b,c","say ""hi""","two\r\nlines","","3"\r\n',
    );
  });

  it('writes a cell a spreadsheet would run as a formula with a leading apostrophe, and nothing else', () => {
    expect(['=1+1', '+49 30 1234', '-2', '@SUM(A1)', '\tx', '\rx'].map(csvCell)).to.deep.equal([
      '"\'=1+1"',
      '"\'+49 30 1234"',
      '"\'-2"',
      '"\'@SUM(A1)"',
      '"\'\tx"',
      '"\'\rx"',
    ]);
    expect(['a=b', 'Ada', '2026-12-01T09:00:00.000Z', ''].map(csvCell)).to.deep.equal([
      '"a=b"',
      '"Ada"',
      '"2026-12-01T09:00:00.000Z"',
      '""',
    ]);
  });
});
