import { expect } from 'chai';
import { ATTRIBUTION_KEYS } from './attribution.js';
import {
  DEMO_REQUEST_FIELDS,
  OPTIONAL_FIELDS,
  REQUIRED_FIELDS,
  demoRequestSchema,
  normaliseDemoRequestBody,
} from './demo-request.js';

describe('demo request normalisation', () => {
  it('folds control characters out of one-line fields and keeps line breaks in the message', () => {
    expect(
      normaliseDemoRequestBody({
        name: ' Eve\u0000 <b>\r\nBcc: x@y.com ',
        company: 'Acme\tCorp',
        phone: '+1 555\u0000',
        message: 'Line one\r\nLine\u0000 two\u0007\n\tindented',
      }),
    ).to.deep.equal({
      name: 'Eve <b> Bcc: x@y.com',
      company: 'Acme Corp',
      phone: '+1 555',
      message: 'Line one\nLine two\n\tindented',
    });
  });

  it('puts the name and company in the form the link rules read (NFKC, nothing invisible), and no other field', () => {
    expect(
      normaliseDemoRequestBody({
        name: '\uff21\uff44\uff41 Love\u00adlace\u200b',
        company: 'evil.c\u00adom \u2102orp\ufe0f',
        phone: '\uff0b1 555',
        message: 'Love\u00adlace',
        email: ' ada@analytical-engines.com ',
      }),
    ).to.deep.equal({
      name: 'Ada Lovelace',
      company: 'evil.com Corp',
      phone: '\uff0b1 555',
      message: 'Lovelace',
      email: 'ada@analytical-engines.com',
    });
  });

  it('drops optional fields left empty, and leaves what is not an object to the schema', () => {
    expect(normaliseDemoRequestBody({ name: 'Ada', phone: ' \u0000 ', message: '' })).to.deep.equal({ name: 'Ada' });
    expect(normaliseDemoRequestBody(['x'])).to.deep.equal(['x']);
    expect(normaliseDemoRequestBody(null)).to.equal(null);
  });
});

describe("the visitor's time zone in a demo request", () => {
  it('keeps a zone the platform knows, as the platform spells it, and drops an unknown or empty one', () => {
    expect(normaliseDemoRequestBody({ visitorTimeZone: ' America/New_York ' })).to.deep.equal({
      visitorTimeZone: 'America/New_York',
    });
    expect(normaliseDemoRequestBody({ visitorTimeZone: 'aMERICA/nEW_yORK' })).to.deep.equal({
      visitorTimeZone: 'America/New_York',
    });
    for (const dropped of ['Mars/Olympus_Mons', '', null])
      expect(normaliseDemoRequestBody({ visitorTimeZone: dropped })).to.deep.equal({});
  });

  it('leaves what is not text, or longer than any zone, to the schema to refuse', () => {
    expect(normaliseDemoRequestBody({ visitorTimeZone: 3 })).to.deep.equal({ visitorTimeZone: 3 });
    const long = `Europe/${'x'.repeat(80)}`;
    expect(normaliseDemoRequestBody({ visitorTimeZone: long })).to.deep.equal({ visitorTimeZone: long });
  });
});

describe('the demo request fields, from the schema', () => {
  it('lists them in the form order, the required ones apart from the optional ones', () => {
    expect(DEMO_REQUEST_FIELDS).to.deep.equal([
      'name',
      'email',
      'company',
      'timeSlot',
      'phone',
      'smsConsent',
      'message',
    ]);
    expect(REQUIRED_FIELDS).to.deep.equal(['name', 'email', 'company', 'timeSlot']);
    expect(OPTIONAL_FIELDS).to.deep.equal(['phone', 'smsConsent', 'message']);
  });
});

describe('attribution in the schema', () => {
  it('takes exactly the keys the page collects (the API refuses any other)', () => {
    expect(Object.keys(demoRequestSchema.properties?.attribution.properties ?? {})).to.deep.equal([
      ...ATTRIBUTION_KEYS,
    ]);
  });
});
