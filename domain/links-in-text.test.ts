import { expect } from 'chai';
import {
  COMPANY_LINK_MESSAGE,
  NAME_LINK_MESSAGE,
  companyLinkProblem,
  domainShapedEndings,
  nameLinkProblem,
} from './links-in-text.js';

/** A stand-in for IANA's list, which the domain layer does not load. */
const endings = new Set(['com', 'net', 'example']);
const isDomainEnding = (ending: string) => endings.has(ending);

describe('links in a name or company', () => {
  it("refuses a scheme or www. in either, in any case, with the field's message", () => {
    for (const text of [
      'Your mailbox is full, log in at http://evil.example/owa',
      'Ada hxxps://x',
      'WWW.evil.com',
      'Ada www。evil。com',
      'javascript://x',
    ]) {
      expect(nameLinkProblem(text), text).to.equal(NAME_LINK_MESSAGE);
      expect(companyLinkProblem(text), text).to.equal(COMPANY_LINK_MESSAGE);
    }
  });

  it("refuses a host name in the name when the ending is a domain's, however its dots are written", () => {
    for (const name of [
      'evil.example',
      'Log in at login.microsoftonline.com now',
      'Ada (ada@evil.com)',
      'Ada evil．com',
      'Reset at EVIL.COM.',
    ]) {
      expect(nameLinkProblem(name, isDomainEnding), name).to.equal(NAME_LINK_MESSAGE);
    }
  });

  it('lets names with initials and titles through, and a company named after its domain', () => {
    for (const name of ['J.R. Smith', 'Dr.Who', 'Jean-Luc Picard', "Ana María O'Neil", 'A.B.C. Müller', '李小龍']) {
      expect(nameLinkProblem(name, isDomainEnding), name).to.equal(null);
    }
    expect(companyLinkProblem('Booking.com')).to.equal(null);
    // Without the list (the browser), only the markers are checked.
    expect(nameLinkProblem('evil.example')).to.equal(null);
  });

  it("refuses the issue's disguised links in a name: defanged dots, schemes, look-alike dots and letters, invisible characters", () => {
    const disguised = [
      'evil[.]com',
      'Ada evil(.)com',
      'Ada evil{.}com',
      'evil [dot] com',
      'evil(DOT)com',
      'evil{dot}com',
      'javascript:alert(1)',
      'Ada JavaScript:void(0)',
      'data:text/html,<script>',
      'mailto:ceo@evil.com',
      'evil\u2024com',
      'evil\ufe52com',
      '\uff45\uff56\uff49\uff4c.\uff43\uff4f\uff4d',
      'evil.\u2102om',
      'evil.c\u24dem',
      'evil.c\u00adom Ng',
      'evil.c\ufe0fom Ng',
      'evil.c\u2060om',
      '\uff48\uff54\uff54\uff50\uff53\uff1a\uff0f\uff0fevil',
    ];
    for (const name of disguised)
      expect(nameLinkProblem(name, isDomainEnding), JSON.stringify(name)).to.equal(NAME_LINK_MESSAGE);
    // The markers alone (the browser's check) catch the defanged dots and the schemes.
    for (const name of disguised.slice(0, 10))
      expect(nameLinkProblem(name), JSON.stringify(name)).to.equal(NAME_LINK_MESSAGE);
  });

  it('takes a bare domain as a company, but not with a path, query, fragment, port, user or scheme', () => {
    for (const company of [
      'acme.com',
      'Booking.com',
      'ACME.COM Inc.',
      '\uff41\uff43\uff4d\uff45.\uff43\uff4f\uff4d',
      'Acme (acme.com)',
      'Re:Build Manufacturing',
      'Big Data: Analytics',
      'Acme Co./Ltd',
      'AT&T/Bell Labs',
    ]) {
      expect(companyLinkProblem(company, isDomainEnding), company).to.equal(null);
    }
    for (const company of [
      'paypal-verify.com/login?acct=1',
      'paypal-verify.com?acct=1',
      'paypal-verify.com#login',
      'paypal-verify.com:8443',
      'paypal-verify.com\\login',
      'paypal-verify\uff0ecom\uff0flogin',
      'ceo@paypal-verify.com',
      '192.168.0.1/admin',
      'evil[.]com',
      'evil{dot}com',
      'javascript:alert(1)',
      'data:text/html;base64,PHNjcmlwdD4=',
      'https://acme.com',
    ]) {
      expect(companyLinkProblem(company, isDomainEnding), company).to.equal(COMPANY_LINK_MESSAGE);
    }
    // Without the list (the browser), a host's path is not looked for: the API does it.
    expect(companyLinkProblem('paypal-verify.com/login?acct=1')).to.equal(null);
  });

  it('finds the endings of host-shaped words', () => {
    expect(domainShapedEndings('J.R. Smith of login.Microsoftonline.COM and a.b')).to.deep.equal(['r', 'com', 'b']);
  });
});
