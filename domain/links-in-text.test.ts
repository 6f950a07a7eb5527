import { expect } from 'chai';
import { COMPANY_LINK_MESSAGE, NAME_LINK_MESSAGE, companyLinkProblem, domainShapedEndings, nameLinkProblem } from './links-in-text.js';

/** A stand-in for IANA's list, which the domain layer does not load. */
const endings = new Set(['com', 'net', 'example']);
const isDomainEnding = (ending: string) => endings.has(ending);

describe('links in a name or company', () => {
  it('refuses a scheme or www. in either, in any case, with the field\'s message', () => {
    for (const text of ['Your mailbox is full, log in at http://evil.example/owa', 'Ada hxxps://x', 'WWW.evil.com', 'Ada www。evil。com', 'javascript://x']) {
      expect(nameLinkProblem(text), text).to.equal(NAME_LINK_MESSAGE);
      expect(companyLinkProblem(text), text).to.equal(COMPANY_LINK_MESSAGE);
    }
  });

  it('refuses a host name in the name when the ending is a domain\'s, however its dots are written', () => {
    for (const name of ['evil.example', 'Log in at login.microsoftonline.com now', 'Ada (ada@evil.com)', 'Ada evil．com', 'Reset at EVIL.COM.']) {
      expect(nameLinkProblem(name, isDomainEnding), name).to.equal(NAME_LINK_MESSAGE);
    }
  });

  it('lets names with initials and titles through, and a company named after its domain', () => {
    for (const name of ['J.R. Smith', 'Dr.Who', 'Jean-Luc Picard', 'Ana María O\'Neil', 'A.B.C. Müller', '李小龍']) {
      expect(nameLinkProblem(name, isDomainEnding), name).to.equal(null);
    }
    expect(companyLinkProblem('Booking.com')).to.equal(null);
    // Without the list (the browser), only the markers are checked.
    expect(nameLinkProblem('evil.example')).to.equal(null);
  });

  it('finds the endings of host-shaped words', () => {
    expect(domainShapedEndings('J.R. Smith of login.Microsoftonline.COM and a.b')).to.deep.equal(['r', 'com', 'b']);
  });
});
