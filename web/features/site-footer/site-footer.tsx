import type { ComponentType } from 'react';
import { styled } from 'styled-components';
import { brand, type SocialNetwork } from '../../../domain/brand.js';
import { FacebookIcon, GitHubIcon, LinkedInIcon, XLogoIcon, YouTubeIcon } from '../../components/icons.js';
import { Container } from '../../components/layout.js';
import { Logo } from '../../components/logo.js';

const SOCIAL_ICONS: Record<SocialNetwork, ComponentType<{ size?: number }>> = {
  LinkedIn: LinkedInIcon,
  X: XLogoIcon,
  YouTube: YouTubeIcon,
  GitHub: GitHubIcon,
  Facebook: FacebookIcon,
};

const Shell = styled.footer`
  background: ${({ theme }) => theme.colors.night};
  color: ${({ theme }) => theme.colors.onNightMuted};
  padding: ${({ theme }) => `${theme.space[12]} 0 ${theme.space[8]}`};
  a {
    color: ${({ theme }) => theme.colors.onNightMuted};
    &:hover {
      color: #fff;
    }
  }
`;

const Top = styled.div`
  display: flex;
  flex-wrap: wrap;
  justify-content: space-between;
  gap: ${({ theme }) => theme.space[8]};
  padding-bottom: ${({ theme }) => theme.space[8]};
  border-bottom: 1px solid rgba(195, 203, 224, 0.2);
`;

const Brand = styled.div`
  max-width: 26rem;
  color: #fff;
  p {
    margin-top: ${({ theme }) => theme.space[3]};
    color: ${({ theme }) => theme.colors.onNightMuted};
  }
`;

const Social = styled.ul`
  display: flex;
  gap: ${({ theme }) => theme.space[2]};
  padding: 0;
  list-style: none;
  a {
    display: inline-grid;
    place-items: center;
    width: 44px;
    height: 44px;
    border-radius: ${({ theme }) => theme.radius.pill};
    border: 1px solid rgba(195, 203, 224, 0.35);
  }
`;

const Bottom = styled.div`
  display: flex;
  flex-wrap: wrap;
  justify-content: space-between;
  gap: ${({ theme }) => theme.space[4]};
  padding-top: ${({ theme }) => theme.space[6]};
  font-size: ${({ theme }) => theme.text.sm};
  ul {
    display: flex;
    flex-wrap: wrap;
    gap: ${({ theme }) => `${theme.space[2]} ${theme.space[6]}`};
    padding: 0;
    list-style: none;
  }
  a {
    display: inline-block;
    padding: ${({ theme }) => theme.space[1]} 0;
  }
`;

// Both bundles get the build's year from webpack, so the prerendered and the hydrated footer agree even
// when a visitor's clock has already turned to the next year.
const COPYRIGHT_YEAR = process.env.BUILD_YEAR ?? String(new Date().getUTCFullYear());

export function SiteFooter() {
  const year = COPYRIGHT_YEAR;
  return (
    <Shell>
      <Container>
        <Top>
          <Brand>
            <Logo name={brand.product} />
            <p>
              {brand.product} is provided by {brand.parentProvider}. {brand.tagline}: messaging, AI agents and network APIs
              in one place.
            </p>
          </Brand>
          <nav aria-label="Social media">
            <Social>
              {brand.socialLinks.map(({ network, href }) => {
                const Icon = SOCIAL_ICONS[network];
                return (
                  <li key={network}>
                    <a href={href} aria-label={`${brand.product} on ${network}`} rel="noopener noreferrer" target="_blank">
                      <Icon size={20} />
                    </a>
                  </li>
                );
              })}
            </Social>
          </nav>
        </Top>
        <Bottom>
          <p>
            &copy; {year} {brand.parentProvider}. All rights reserved.
          </p>
          <nav aria-label="Legal">
            <ul>
              {brand.legalLinks.map((link) => (
                <li key={link.href}>
                  <a href={link.href}>{link.label}</a>
                </li>
              ))}
            </ul>
          </nav>
        </Bottom>
      </Container>
    </Shell>
  );
}
