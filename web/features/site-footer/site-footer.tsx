import { brand, telHref, type SocialNetwork } from '../../../domain/brand.js';
import { IconImage, iconFile, type IconFile } from '../../components/icon-image.js';
import { FacebookIcon, GitHubIcon, LinkedInIcon, XLogoIcon, YouTubeIcon } from '../../components/icons.js';
import { Container } from '../../components/layout.js';
import { Logo } from '../../components/logo.js';
import { theme } from '../../components/theme.js';

/** Drawn in the footer's link colour; a link's hover turns them white as its text (site-footer-css.ts). */
export const SOCIAL_ICONS: Record<SocialNetwork, IconFile> = {
  LinkedIn: iconFile('linkedin', LinkedInIcon, theme.colors.onNightMuted),
  X: iconFile('x', XLogoIcon, theme.colors.onNightMuted),
  YouTube: iconFile('youtube', YouTubeIcon, theme.colors.onNightMuted),
  GitHub: iconFile('github', GitHubIcon, theme.colors.onNightMuted),
  Facebook: iconFile('facebook', FacebookIcon, theme.colors.onNightMuted),
};

/** The footer's address, which the Company group links to on every page. */
const CONTACT_ID = 'contact';

interface FooterLink {
  label: string;
  href: string;
}

/**
 * The link groups. Product and Company lead to sections of the landing page (`#id`, prefixed with the landing
 * page's path elsewhere) or to the footer's own address; Legal to the legal pages.
 */
function linkGroups(landingPath: string): { title: string; links: readonly FooterLink[] }[] {
  const section = (label: string, id: string) => ({ label, href: `${landingPath}#${id}` });
  return [
    {
      title: 'Product',
      links: [
        section('Platform', 'platform'),
        section('Architecture', 'architecture'),
        section('Capabilities', 'capabilities'),
        section('Results', 'results'),
      ],
    },
    {
      title: 'Company',
      links: [
        section('Why Converge', 'challenge'),
        section('Customer story', 'case-study'),
        section('Industries', 'industries'),
        { label: 'Contact', href: `#${CONTACT_ID}` },
      ],
    },
    { title: 'Legal', links: brand.legalLinks },
  ];
}

// Both bundles get the build's year from webpack, so the prerendered and the hydrated footer agree even
// when a visitor's clock has already turned to the next year.
const COPYRIGHT_YEAR = process.env.BUILD_YEAR ?? String(new Date().getUTCFullYear());

interface SiteFooterProps {
  /** Where the landing page's sections are: "" on the landing page itself, "/" on every other page. */
  landingPath?: '' | '/';
}

/**
 * The footer of every page: the provider, the link groups, the social links, the address and the imprint. Styled
 * by site-footer-css.ts, in the page's head.
 */
export function SiteFooter({ landingPath = '' }: SiteFooterProps) {
  const { company } = brand;
  return (
    <footer className="site-footer">
      <Container>
        <div className="site-footer-top">
          <div className="site-footer-brand">
            <Logo name={brand.product} />
            <p>
              {brand.product} is provided by {brand.parentProvider}. {brand.tagline}: messaging, AI agents and network
              APIs in one place.
            </p>
            <nav aria-label="Social media">
              <ul className="site-footer-social">
                {brand.socialLinks.map(({ network, href }) => {
                  return (
                    <li key={network}>
                      <a
                        href={href}
                        aria-label={`${brand.product} on ${network}`}
                        rel="noopener noreferrer"
                        target="_blank"
                      >
                        <IconImage file={SOCIAL_ICONS[network]} size={20} />
                      </a>
                    </li>
                  );
                })}
              </ul>
            </nav>
          </div>
          {linkGroups(landingPath).map(({ title, links }) => {
            const headingId = `footer-${title.toLowerCase()}`;
            return (
              <nav key={title} className="site-footer-group" aria-labelledby={headingId}>
                <h2 id={headingId}>{title}</h2>
                <ul>
                  {links.map((link) => (
                    <li key={link.href}>
                      <a href={link.href}>{link.label}</a>
                    </li>
                  ))}
                </ul>
              </nav>
            );
          })}
        </div>
        <div className="site-footer-bottom">
          <address id={CONTACT_ID}>
            {[company.legalName, ...company.address].map((line) => (
              <span key={line}>{line}</span>
            ))}
            <span>
              <a href={`mailto:${company.contact.email}`}>{company.contact.email}</a>
            </span>
            <span>
              <a href={telHref(company.contact.phone)}>{company.contact.phone}</a>
            </span>
          </address>
          <div>
            <p>
              {company.legalName}, registered office: {company.registeredOffice}. Register court:{' '}
              {company.register.court}, {company.register.number}. Managing directors:{' '}
              {company.managingDirectors.join(', ')}.
            </p>
            <p>
              &copy; {COPYRIGHT_YEAR} {brand.parentProvider}. All rights reserved.
            </p>
          </div>
        </div>
      </Container>
    </footer>
  );
}
