import { expect } from 'chai';
import { normaliseDemoRequestBody } from './demo-request.js';

describe('demo request normalisation', () => {
  it('folds control characters out of one-line fields and keeps line breaks in the message', () => {
    expect(
      normaliseDemoRequestBody({
        name: ' Eve\u0000 <b>\r\nBcc: x@y.com ',
        company: 'Acme\tCorp',
        phone: '+1 555\u0000',
        message: 'Line one\r\nLine\u0000 two\u0007\n\tindented',
      }),
    ).to.deep.equal({ name: 'Eve <b> Bcc: x@y.com', company: 'Acme Corp', phone: '+1 555', message: 'Line one\nLine two\n\tindented' });
  });

  it('drops optional fields left empty, and leaves what is not an object to the schema', () => {
    expect(normaliseDemoRequestBody({ name: 'Ada', phone: ' \u0000 ', message: '' })).to.deep.equal({ name: 'Ada' });
    expect(normaliseDemoRequestBody(['x'])).to.deep.equal(['x']);
    expect(normaliseDemoRequestBody(null)).to.equal(null);
  });
});
