import { styled } from 'styled-components';
import { Architecture } from '../features/architecture/architecture.js';
import { Breakthrough } from '../features/breakthrough/breakthrough.js';
import { Capabilities } from '../features/capabilities/capabilities.js';
import { CaseStudy } from '../features/case-study/case-study.js';
import { Challenge } from '../features/challenge/challenge.js';
import { Customers } from '../features/customers/customers.js';
import { FinalCta } from '../features/final-cta/final-cta.js';
import { Hero } from '../features/hero/hero.js';
import { Industries } from '../features/industries/industries.js';
import { Metrics } from '../features/metrics/metrics.js';
import { SiteFooter } from '../features/site-footer/site-footer.js';
import { TopBar } from '../features/top-bar/top-bar.js';

const SkipLink = styled.a`
  position: absolute;
  left: ${({ theme }) => theme.space[3]};
  top: -100px;
  z-index: 100;
  padding: ${({ theme }) => `${theme.space[2]} ${theme.space[4]}`};
  border-radius: ${({ theme }) => theme.radius.sm};
  background: ${({ theme }) => theme.colors.ink};
  color: #fff;
  font-weight: 700;
  &:focus {
    top: ${({ theme }) => theme.space[3]};
  }
`;

/** The sections of the landing page, in the order the specification gives, with the customers' strip under the hero. */
export function LandingPage() {
  return (
    <>
      <SkipLink href="#main">Skip to content</SkipLink>
      <TopBar />
      <main id="main" tabIndex={-1}>
        <Hero />
        <Customers />
        <Challenge />
        <Breakthrough />
        <Architecture />
        <Capabilities />
        <Metrics />
        <CaseStudy />
        <Industries />
        <FinalCta />
      </main>
      <SiteFooter />
    </>
  );
}
