import { expect } from 'chai';
import { SMS_LINK_CODE_PATTERN, bookingIdOf, bookingToken, smsLinkCode, smsLinkDigest } from './booking-link.js';

const SECRET = 'a-booking-link-secret-of-32-characters!!';
const ID = '5b7a2f1e-0c1d-4e2f-8a9b-0c1d2e3f4a5b';

describe('booking link tokens', () => {
  it('lead back to the booking they were made for', () => {
    const token = bookingToken(ID, SECRET);
    expect(token).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(bookingIdOf(token, SECRET)).to.equal(ID);
    expect(bookingToken(ID, SECRET), 'the same link every time').to.equal(token);
  });

  it('reveal nothing of the id', () => {
    const token = bookingToken(ID, SECRET);
    const bytes = Buffer.from(token, 'base64url').toString('hex');
    expect(bytes).to.not.include(ID.replace(/-/g, '').slice(0, 8));
    expect(token).to.not.include(ID.slice(0, 8));
  });

  it('refuse any altered character, a truncated token, another secret, and junk', () => {
    const token = bookingToken(ID, SECRET);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (let i = 0; i < token.length; i++) {
      for (const replacement of alphabet) {
        if (replacement === token[i]) continue;
        const altered = token.slice(0, i) + replacement + token.slice(i + 1);
        expect(bookingIdOf(altered, SECRET), `character ${i} as ${replacement}`).to.equal(undefined);
      }
    }
    expect(bookingIdOf(token.slice(0, -1), SECRET)).to.equal(undefined);
    expect(bookingIdOf(token, `${SECRET}x`)).to.equal(undefined);
    for (const junk of ['', ID, '../../etc/passwd', 'x'.repeat(43), `${token}=`])
      expect(bookingIdOf(junk, SECRET), junk).to.equal(undefined);
  });

  it('after a rotation: are made with the new secret, and those of the previous secrets still lead to their booking', () => {
    const previous = 'the-secret-before-the-last-rotation!!!!!';
    const retired = 'a-secret-retired-after-its-grace-period!!';
    const sentBefore = bookingToken(ID, previous);
    expect(bookingIdOf(sentBefore, SECRET), 'without the previous secret').to.equal(undefined);
    expect(bookingIdOf(sentBefore, SECRET, [retired, previous])).to.equal(ID);
    expect(bookingIdOf(bookingToken(ID, SECRET), SECRET, [previous])).to.equal(ID);
    expect(bookingIdOf(bookingToken(ID, retired), SECRET, [previous]), 'a secret no longer listed').to.equal(undefined);
    // A previous secret checks a token, it does not loosen the check: an altered one still opens nothing.
    const altered = `${sentBefore.slice(0, 5)}${sentBefore[5] === 'A' ? 'B' : 'A'}${sentBefore.slice(6)}`;
    expect(bookingIdOf(altered, SECRET, [previous])).to.equal(undefined);
  });

  it('differ between bookings, and cannot be made for what is not a booking id', () => {
    expect(bookingToken('00000000-0000-4000-8000-000000000001', SECRET)).to.not.equal(
      bookingToken('00000000-0000-4000-8000-000000000002', SECRET),
    );
    expect(() => bookingToken('not-a-uuid', SECRET)).to.throw('a booking id is a UUID');
  });
});

describe('the texts’ short link codes', () => {
  it('are the same for a booking every time, and another for another booking or another secret', () => {
    const code = smsLinkCode(ID, SECRET);
    expect(code).to.match(SMS_LINK_CODE_PATTERN);
    expect(smsLinkCode(ID, SECRET)).to.equal(code);
    expect(smsLinkCode('5b7a2f1e-0c1d-4e2f-8a9b-0c1d2e3f4a5c', SECRET)).to.not.equal(code);
    expect(smsLinkCode(ID, `${SECRET}?`)).to.not.equal(code);
  });

  it('share nothing with the booking’s token, and are kept as a digest that is not the code', () => {
    const code = smsLinkCode(ID, SECRET);
    expect(bookingToken(ID, SECRET)).to.not.include(code.slice(0, 8));
    const digest = smsLinkDigest(code);
    expect(digest)
      .to.match(/^[A-Za-z0-9_-]{43}$/)
      .and.not.include(code);
    expect(smsLinkDigest(code)).to.equal(digest);
  });
});
