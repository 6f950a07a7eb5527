import { expect } from 'chai';
import { SLOT_DURATION_MINUTES } from '../../domain/booking.js';
import { brand } from '../../domain/brand.js';
import { renderPage } from '../test/render.js';
import { Root } from './root.js';

const render = (pathname: string) => renderPage(<Root pathname={pathname} />);

describe('prerendered landing page', () => {
  const page = render('/');

  it('has the sections in the order of the specification', () => {
    const order = [
      'Get Started',
      'Every customer conversation',
      'The challenge',
      'The breakthrough',
      'Architecture',
      'What you can do',
      'Results',
      'Customer story',
      'Industries',
      'See Converge on your own customer journeys',
      `provided by ${brand.parentProvider}`,
    ];
    let from = 0;
    for (const marker of order) {
      const at = page.text.indexOf(marker, from);
      expect(at, `"${marker}" after position ${from}`).to.be.greaterThan(-1);
      from = at;
    }
  });

  it('carries every claim of the specification', () => {
    for (const claim of [
      '7,000+',
      '200+ countries',
      'Telecom-industry certified',
      '40%',
      'Cost optimization',
      '2x',
      'Faster automation',
      '100%',
      'Fraud-free authentication',
      '30%',
      'Higher delivery',
      '1 platform',
    ]) {
      expect(page.text, claim).to.include(claim);
    }
    for (const stat of ['200+ countries reached', '40% cost reduction', '30% better delivery', '0 fraud incidents']) {
      const [value, ...label] = stat.split(' ');
      expect(page.text, stat).to.include(`${label.join(' ')} ${value}`);
    }
  });

  it('has the metrics at their final values before any script runs', () => {
    // Each value is there twice: as shown (it counts up later) and as read by screen readers.
    const values = [...page.html.matchAll(/<p[^>]*><span aria-hidden="true">(.*?)<\/p>/g)].map((match) =>
      (match[1] ?? '').replace(/<!-- -->|<[^>]+>/g, ''),
    );
    expect(values).to.deep.equal(['40%40%', '2x2x', '100%100%', '30%30%', '1 platform1 platform']);
  });

  it('gives the demo the one length of the booking rules', () => {
    expect(page.text).to.include(`Book a ${SLOT_DURATION_MINUTES}-minute demo`);
    const lengths = [...page.text.matchAll(/(\d+)[- ]minutes?\b/g)].map((match) => Number(match[1]));
    expect(lengths).to.deep.equal([SLOT_DURATION_MINUTES]);
  });

  it('has three links that open the Request Demo dialog, to the booking page without script', () => {
    const triggers = page.html.match(/<a href="\/book" aria-haspopup="dialog" data-demo-trigger=""[^>]*>[^<]*/g) ?? [];
    expect(triggers.map((link) => link.replace(/.*>/, ''))).to.deep.equal([
      'Get Started',
      'Request Demo',
      'Request Demo',
    ]);
  });

  it('names each of the five social links and the legal links', () => {
    for (const { network } of brand.socialLinks)
      expect(page.html).to.include(`aria-label="${brand.product} on ${network}"`);
    for (const { label } of brand.legalLinks) expect(page.text).to.include(label);
  });

  it('describes the architecture diagram in text', () => {
    expect(page.html).to.match(/<img[^>]*alt="Converge architecture diagram"[^>]*aria-describedby="arch-caption"/);
    expect(page.text).to.include('network APIs for identity, verification and fraud protection');
  });

  it('inlines the critical CSS: the rules of every styled element on the page', () => {
    expect(page.styles).to.match(/^<style[^>]*data-styled/);
    // styled-components gives each element its component's id (sc-…, no rules) and the class its rules are under.
    const styledClasses = new Set(
      [...page.html.matchAll(/class="([^"]*)"/g)]
        .flatMap((match) => (match[1] ?? '').split(' '))
        .filter((name) => /^(?!sc-)\w+$/.test(name)),
    );
    const withoutRules = [...styledClasses].filter((name) => !new RegExp(`\\.${name}(?![\\w-])`).test(page.styles));
    expect(withoutRules, 'classes in the markup with no rule in the inlined CSS').to.deep.equal([]);

    const rulesOf = (tag: RegExp) => {
      const name = tag
        .exec(page.html)?.[1]
        ?.split(' ')
        .find((candidate) => !candidate.startsWith('sc-'));
      expect(name, String(tag)).to.be.a('string');
      return [...page.styles.matchAll(new RegExp(`\\.${name}\\{([^}]*)\\}`, 'g'))].map((match) => match[1]).join(';');
    };
    expect(rulesOf(/<header class="([^"]*)"/), 'top bar').to.include('position:sticky');
    expect(rulesOf(/<a href="#main" class="([^"]*)"/), 'skip link').to.include('top:-100px');
    expect(rulesOf(/<h1 id="hero-title" class="([^"]*)"/), 'hero heading').to.include('font-size:clamp(');
    expect(
      rulesOf(/<a href="\/book" aria-haspopup="dialog" data-demo-trigger="" class="([^"]*)"/),
      'Get Started',
    ).to.include('min-height:44px');
  });

  it('renders the 404 page for any other path', () => {
    const notFound = render('/pricing');
    expect(notFound.text).to.include('404 Page Not Found');
    expect(notFound.text).to.include('add the page to the router');
  });
});
