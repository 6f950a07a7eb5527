import { expect } from 'chai';
import { brand } from '../../domain/brand.js';
import { DEFAULT_RETENTION_DAYS } from '../../domain/retention.js';
import { LEGAL_DOCUMENTS } from '../features/legal/legal-documents.js';
import { renderPage } from '../test/render.js';
import { LegalRoot } from './legal-root.js';

function render(slug: string) {
  const document = LEGAL_DOCUMENTS.find((candidate) => candidate.slug === slug);
  if (!document) throw new Error(`no legal document ${slug}`);
  return renderPage(<LegalRoot document={document} />);
}

describe('prerendered legal pages', () => {
  it('has one page per legal link of the footer, at its address', () => {
    expect(LEGAL_DOCUMENTS.map(({ href, title }) => ({ label: title, href }))).to.deep.equal(
      brand.legalLinks.map(({ label, href }) => ({ label, href })),
    );
    for (const document of LEGAL_DOCUMENTS) expect(document.href).to.equal(`/legal/${document.slug}`);
  });

  for (const document of LEGAL_DOCUMENTS) {
    it(`${document.href}: one h1, the logo home, the operator, the footer`, () => {
      const { html, text } = render(document.slug);
      expect(html.match(/<h1[ >]/g)).to.have.length(1);
      expect(text).to.include(` ${document.title} `);
      expect(html).to.match(/<a [^>]*href="\/" aria-label="Converge home"/);
      expect(text).to.include(brand.parentProvider);
      expect(text).to.include('reply to any e-mail about your demo: replies reach our sales team');
      // One story about moving a demo: the link, never a reply.
      expect(text).to.not.match(/reply to (the|that) (confirmation )?e-mail/i);
      for (const link of brand.legalLinks) expect(html).to.include(`href="${link.href}"`);
      expect(text).to.not.match(/lorem|ipsum|ISO 27001|certif/i);
    });
  }

  it('names what the form collects and why', () => {
    const { text } = render('privacy');
    for (const item of [
      'name',
      'work e-mail address',
      'company',
      'date and time you chose',
      'phone number',
      'message',
      'optional',
    ]) {
      expect(text).to.include(item);
    }
    expect(text).to.include('confirmation e-mail with a calendar invitation');
    expect(text).to.include('stored in our database');
  });

  it("names the legal basis of each use, how long data is kept, the visitor's rights and the authority", () => {
    const { text } = render('privacy');
    for (const phrase of [
      'Art. 6(1)(b) GDPR',
      'Art. 6(1)(f) GDPR',
      `deleted ${DEFAULT_RETENTION_DAYS} days`,
      'Our server logs name no person',
      'Art. 15 GDPR',
      'deleted (Art. 17)',
      'object to its use',
      'Berlin Commissioner for Data Protection',
      'Alt-Moabit 59–61',
      'Reschedule or cancel',
      "your device's time zone",
    ]) {
      expect(text, phrase).to.include(phrase);
    }
  });

  it('says what the funnel counts and what it does not', () => {
    const { text } = render('privacy');
    for (const phrase of [
      'the form is opened, an e-mail address is accepted, a time is chosen, and a demo is booked',
      'utm_source',
      'keeps only those daily totals',
      'no e-mail address, name, IP address, browser description or identifier',
      'sets no cookie',
      `totals are deleted ${DEFAULT_RETENTION_DAYS} days`,
    ]) {
      expect(text, phrase).to.include(phrase);
    }
  });

  it('says the site sets no cookies and loads nothing from other hosts', () => {
    const { text } = render('cookies');
    expect(text).to.include('This site sets no cookies.');
    expect(text).to.include('loads nothing from other hosts: no analytics');
  });
});
