import { styled } from 'styled-components';
import { brand } from '../../../domain/brand.js';
import { Container } from '../../components/layout.js';
import { Logo } from '../../components/logo.js';
import { DemoTrigger } from '../demo-request/demo-trigger.js';

const Bar = styled.header`
  position: sticky;
  top: 0;
  z-index: 20;
  background: #fff;
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};
`;

const Inner = styled(Container)`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: ${({ theme }) => theme.space[6]};
  height: ${({ theme }) => theme.layout.topBarHeight};
`;

const HomeLink = styled.a`
  text-decoration: none;
  color: ${({ theme }) => theme.colors.ink};
  border-radius: ${({ theme }) => theme.radius.sm};
`;

const Nav = styled.nav`
  display: none;
  ${({ theme }) => theme.media.md} {
    display: block;
  }
  ul {
    display: flex;
    gap: ${({ theme }) => theme.space[6]};
    list-style: none;
    padding: 0;
  }
  a {
    color: ${({ theme }) => theme.colors.inkSoft};
    font-weight: 600;
    text-decoration: none;
    &:hover {
      color: ${({ theme }) => theme.colors.primary};
    }
  }
`;

const SECTIONS = [
  { href: '#platform', label: 'Platform' },
  { href: '#architecture', label: 'Architecture' },
  { href: '#results', label: 'Results' },
  { href: '#industries', label: 'Industries' },
];

export function TopBar() {
  return (
    <Bar>
      <Inner>
        <HomeLink href="/" aria-label={`${brand.product} home`}>
          <Logo name={brand.product} />
        </HomeLink>
        <Nav aria-label="Sections">
          <ul>
            {SECTIONS.map((section) => (
              <li key={section.href}>
                <a href={section.href}>{section.label}</a>
              </li>
            ))}
          </ul>
        </Nav>
        <DemoTrigger>Get Started</DemoTrigger>
      </Inner>
    </Bar>
  );
}
