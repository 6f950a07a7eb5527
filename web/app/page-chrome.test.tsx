import { expect } from 'chai';
import { brand } from '../../domain/brand.js';
import { LEGAL_DOCUMENTS } from '../features/legal/legal-documents.js';
import { renderPage } from '../test/render.js';
import { globalCss } from './global-style.js';
import { LegalRoot } from './legal-root.js';
import { Root } from './root.js';

const privacy = LEGAL_DOCUMENTS.find((document) => document.slug === 'privacy');
if (!privacy) throw new Error('no privacy policy');

const pages = {
  landing: renderPage(<Root pathname="/" />),
  'not found': renderPage(<Root pathname="/pricing" />),
  legal: renderPage(<LegalRoot document={privacy} />),
};

/** The hrefs of the footer's link groups, in order. */
function footerGroupLinks(html: string): string[] {
  const footer = /<footer[\s\S]*<\/footer>/.exec(html)?.[0] ?? '';
  return [...footer.matchAll(/<nav[^>]*aria-labelledby="footer-[^"]*"[\s\S]*?<\/nav>/g)].flatMap((group) =>
    [...group[0].matchAll(/href="([^"]*)"/g)].map((match) => match[1] ?? ''),
  );
}

describe('the top bar and the footer, prerendered', () => {
  it('has a rule in the head for every class that is not styled-components’ (the menu, the footer)', () => {
    for (const [name, page] of Object.entries(pages)) {
      // styled-components' own names are one word (and sc-…); the static ones are hyphenated.
      const staticClasses = new Set(
        [...page.html.matchAll(/class="([^"]*)"/g)]
          .flatMap((match) => (match[1] ?? '').split(' '))
          .filter((name) => /^[a-z]+(-[a-z]+)+$/.test(name) && !name.startsWith('sc-')),
      );
      expect(staticClasses.size, name).to.be.greaterThan(0);
      for (const className of staticClasses)
        expect(globalCss, `.${className} on the ${name} page`).to.match(new RegExp(`\\.${className}[^\\w-]`));
    }
  });

  it('has a menu button that controls the section links, closed, and works as a popover without script', () => {
    const { html } = pages.landing;
    const button = /<button[^>]*aria-label="Menu"[^>]*>/.exec(html)?.[0] ?? '';
    expect(button).to.include('aria-expanded="false"');
    expect(button).to.include('aria-controls="section-menu"');
    expect(button).to.match(/popovertarget="section-menu"/i);
    expect(button, 'not one of the dialog triggers').to.not.include('aria-haspopup');
    expect(html).to.match(/<nav id="section-menu"[^>]*popover="auto"[^>]*aria-label="Sections"/);
    expect(globalCss).to.include('@media (prefers-reduced-motion:no-preference){.top-bar-menu:popover-open{animation:');
  });

  it('has the same footer on the landing, 404 and legal pages, with section links that lead to the landing page', () => {
    const onLanding = footerGroupLinks(pages.landing.html);
    expect(onLanding).to.deep.equal([
      '#platform',
      '#architecture',
      '#capabilities',
      '#results',
      '#challenge',
      '#case-study',
      '#industries',
      '#contact',
      ...brand.legalLinks.map((link) => link.href),
    ]);
    const elsewhere = onLanding.map((href) => (href.startsWith('#') && href !== '#contact' ? `/${href}` : href));
    expect(footerGroupLinks(pages['not found'].html), '404 page').to.deep.equal(elsewhere);
    expect(footerGroupLinks(pages.legal.html), 'legal page').to.deep.equal(elsewhere);
    for (const page of Object.values(pages)) {
      expect(page.html).to.include('<address id="contact">');
      // Contact leads to a way to reach the sales desk, not only a postal address.
      expect(page.html).to.include(
        `<a href="mailto:${brand.company.contact.email}">${brand.company.contact.email}</a>`,
      );
      expect(page.html).to.include(`<a href="tel:+493055572100">${brand.company.contact.phone}</a>`);
      expect(page.text).to.include(brand.company.legalName);
      expect(page.text).to.include(brand.company.register.number);
      for (const { href } of brand.socialLinks) expect(page.html).to.include(`href="${href}"`);
    }
  });
});
