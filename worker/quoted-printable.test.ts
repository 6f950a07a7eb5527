import { expect } from 'chai';
import PostalMime from 'postal-mime';
import { encode as qpEncode, wrap as qpWrap } from 'nodemailer/lib/qp';
import { quotedPrintable } from './quoted-printable.js';

/** What a mail client reads from a text part in this encoding. */
async function decoded(encoded: string): Promise<string> {
  const raw = `Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n${encoded}`;
  return (await PostalMime.parse(raw)).text ?? '';
}

const SAMPLES = [
  'Your demo on Tuesday, 1 December 2026, 09:00–09:30 (Europe Time) is booked.\r\nSee you then!',
  'Ünïcödé on a line of its own, and an emoji 🎉 beside a = sign and a tab\there.',
  `${'a long line of plain words that goes on well past seventy-six characters '.repeat(6)}end`,
  `${'é'.repeat(120)}\r\n${'x'.repeat(75)}=\r\n${'€'.repeat(40)}`,
  'trailing space \r\ntrailing tab\t\r\nlast space ',
  '<a href="https://converge.test/manage?token=abc&amp;id=1">Manage</a>\r\n.leading dot\r\nFrom the desk',
  'a lone \r carriage return, and a lone surrogate \ud800 here',
  '',
];

describe('quoted-printable text parts (worker/quoted-printable.ts)', () => {
  it('reads as nodemailer\'s encoding of the same text reads, line breaks included', async () => {
    for (const sample of SAMPLES) {
      const ours = await decoded(quotedPrintable(sample));
      expect(ours, JSON.stringify(sample)).to.equal(await decoded(qpWrap(qpEncode(Buffer.from(sample, 'utf8')), 76)));
      // The text itself, but for the line break a mail client puts at the end.
      expect(ours.replace(/\r?\n$/, '').replace(/\r\n/g, '\n'), JSON.stringify(sample)).to.equal(sample.replace(/\ud800/g, '\ufffd').replace(/\r\n/g, '\n'));
    }
  });

  it('writes lines of at most 76 characters, of printable ASCII, with no whitespace at their ends', () => {
    for (const sample of SAMPLES) {
      for (const line of quotedPrintable(sample).split('\r\n')) {
        expect(line.length, line).to.be.at.most(76);
        expect(line, line).to.match(/^[ \t!-~]*$/);
        expect(line, line).not.to.match(/[ \t]$/);
        // An = is a soft line break at the end of a line, or the start of one whole =XX.
        expect(line.replace(/=[0-9A-F]{2}/g, '').replace(/=$/, ''), line).not.to.include('=');
      }
    }
  });

  it('never breaks a line inside the bytes of one character', () => {
    const encoded = quotedPrintable('é'.repeat(100) + '🎉'.repeat(30));
    for (const line of encoded.split('=\r\n')) expect(line, line).to.match(/^(?:=C3=A9|=F0=9F=8E=89)*$/);
  });

  it('writes the same bytes as ever at the edges: the 76th character, a break before =XX, blanks at the end, lone CR and LF', () => {
    const x = (n: number) => 'x'.repeat(n);
    expect(quotedPrintable(x(75))).to.equal(x(75));
    expect(quotedPrintable(x(76))).to.equal(`${x(75)}=\r\nx`);
    expect(quotedPrintable(x(151))).to.equal(`${x(75)}=\r\n${x(75)}=\r\nx`);
    expect(quotedPrintable(`${x(74)}=`)).to.equal(`${x(74)}=\r\n=3D`);
    expect(quotedPrintable(`${x(74)}é`)).to.equal(`${x(74)}=\r\n=C3=A9`);
    expect(quotedPrintable('end blank \r\n\tlead tab, end tab\t')).to.equal('end blank=20\r\n\tlead tab, end tab=09');
    expect(quotedPrintable('a lone \r and \n')).to.equal('a lone =0D and =0A');
    expect(quotedPrintable('a = b\r\n\r\n🎉')).to.equal('a =3D b\r\n\r\n=F0=9F=8E=89');
  });
});
