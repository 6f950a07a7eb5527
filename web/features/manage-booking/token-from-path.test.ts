import { expect } from 'chai';
import { tokenFromPath } from './token-from-path.js';

describe("the manage page's token", () => {
  const token = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-AbCdE';

  it('is the one segment after /booking/, with or without a trailing slash', () => {
    expect(tokenFromPath(`/booking/${token}`)).to.equal(token);
    expect(tokenFromPath(`/booking/${token}/`)).to.equal(token);
  });

  it('is decoded, and kept as it is when its escapes are broken, for the API to refuse', () => {
    expect(tokenFromPath('/booking/a%20b')).to.equal('a b');
    expect(tokenFromPath('/booking/%E0%A4%A')).to.equal('%E0%A4%A');
  });

  it('is empty for any other address', () => {
    expect(tokenFromPath('/booking/')).to.equal('');
    expect(tokenFromPath('/booking/a/b')).to.equal('');
    expect(tokenFromPath('/')).to.equal('');
  });
});
