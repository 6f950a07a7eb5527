import { styled } from 'styled-components';
import { brand } from '../../../domain/brand.js';
import { CrossIcon, MenuIcon } from '../../components/icons.js';
import { Container } from '../../components/layout.js';
import { Logo } from '../../components/logo.js';
import { DemoTrigger } from '../../components/demo-trigger.js';
import { MENU_ID } from './section-menu.js';

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
  gap: ${({ theme }) => theme.space[3]};
  height: ${({ theme }) => theme.layout.topBarHeight};
`;

const HomeLink = styled.a`
  text-decoration: none;
  color: ${({ theme }) => theme.colors.ink};
  border-radius: ${({ theme }) => theme.radius.sm};
`;

const SECTIONS = [
  { href: '#platform', label: 'Platform' },
  { href: '#architecture', label: 'Architecture' },
  { href: '#results', label: 'Results' },
  { href: '#industries', label: 'Industries' },
];

/** The menu's behaviour beyond the browser's own popover (aria-expanded, focus, closing on a chosen link): section-menu.ts. */
export function TopBar() {
  return (
    <Bar>
      <Inner>
        <HomeLink href="/" aria-label={`${brand.product} home`}>
          <Logo name={brand.product} />
        </HomeLink>
        {/* Styled by top-bar-css.ts, in the page's head. */}
        <nav id={MENU_ID} className="top-bar-menu" popover="auto" aria-label="Sections">
          <ul>
            {SECTIONS.map((section) => (
              <li key={section.href}>
                <a href={section.href}>{section.label}</a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="top-bar-actions">
          <DemoTrigger>Get Started</DemoTrigger>
          <button
            type="button"
            className="top-bar-menu-button"
            popoverTarget={MENU_ID}
            aria-controls={MENU_ID}
            aria-expanded={false}
            aria-label="Menu"
          >
            <MenuIcon size={22} />
            <CrossIcon size={22} />
          </button>
        </div>
      </Inner>
    </Bar>
  );
}
