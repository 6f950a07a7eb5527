import { expect } from 'chai';
import { hasInvisibleCharacter, multiLine, nameText, singleLine } from './text.js';

describe('text clean-up', () => {
  it('drops every format (Cf) character from one-line and multi-line text: soft hyphen, zero-width, bidirectional, tags', () => {
    const invisible = [
      '\u00ad',
      '\u200b',
      '\u200d',
      '\u2060',
      '\u202e',
      '\u2066',
      '\ufeff',
      '\u061c',
      '\u180e',
      '\u{e0041}',
    ];
    for (const character of invisible) {
      expect(singleLine(`evil.c${character}om`), JSON.stringify(character)).to.equal('evil.com');
      expect(multiLine(`evil.c${character}om`), JSON.stringify(character)).to.equal('evil.com');
      expect(hasInvisibleCharacter(`ada${character}@example.com`), JSON.stringify(character)).to.equal(true);
    }
    expect(hasInvisibleCharacter('ada@example.com')).to.equal(false);
  });

  it('gives a name or company in the form it looks: NFKC, nothing invisible, one line', () => {
    const cases: [string, string][] = [
      ['\uff45\uff56\uff49\uff4c.\uff43\uff4f\uff4d', 'evil.com'],
      ['evil\u2024com', 'evil.com'],
      ['evil\ufe52com', 'evil.com'],
      ['evil.\u2102om', 'evil.Com'],
      ['evil.c\u24dem', 'evil.com'],
      ['evil.c\u00adom Ng', 'evil.com Ng'],
      ['evil.c\ufe0fom', 'evil.com'],
      ['evil.c\u034fom', 'evil.com'],
      ['\u3164Ada', 'Ada'],
      [' Ada\u00a0\u00a0Lovelace\u3000', 'Ada Lovelace'],
      ['\ufb01nance', 'finance'],
      ['Jose\u0301', 'Jos\u00e9'],
      ['\u674e\u5c0f\u9f8d', '\u674e\u5c0f\u9f8d'],
      ['Ana Mar\u00eda O\u2019Neil', 'Ana Mar\u00eda O\u2019Neil'],
      ['\ud800Ada', '\ufffdAda'],
    ];
    expect(cases.map(([given]) => nameText(given))).to.deep.equal(cases.map(([, kept]) => kept));
    // Once is enough: normalising again changes nothing.
    for (const [given] of cases) expect(nameText(nameText(given)), JSON.stringify(given)).to.equal(nameText(given));
  });
});
