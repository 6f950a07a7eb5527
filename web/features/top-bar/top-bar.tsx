import { useRef, useState, type KeyboardEvent, type MouseEvent, type ToggleEvent } from 'react';
import { styled } from 'styled-components';
import { brand } from '../../../domain/brand.js';
import { CrossIcon, MenuIcon } from '../../components/icons.js';
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
  gap: ${({ theme }) => theme.space[3]};
  height: ${({ theme }) => theme.layout.topBarHeight};
`;

const HomeLink = styled.a`
  text-decoration: none;
  color: ${({ theme }) => theme.colors.ink};
  border-radius: ${({ theme }) => theme.radius.sm};
`;

const MENU_ID = 'section-menu';

const SECTIONS = [
  { href: '#platform', label: 'Platform' },
  { href: '#architecture', label: 'Architecture' },
  { href: '#results', label: 'Results' },
  { href: '#industries', label: 'Industries' },
];

export function TopBar() {
  const [expanded, setExpanded] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);

  const onToggle = (event: ToggleEvent<HTMLElement>) => setExpanded(event.newState === 'open');

  // Escape closes the popover by itself; focus goes to the button first, which the browser would not do where
  // a click on the button did not focus it (Safari).
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === 'Escape' && expanded) menuButton.current?.focus();
  };

  const onClick = (event: MouseEvent<HTMLElement>) => {
    const link = (event.target as Element).closest('a');
    if (!link || !expanded) return;
    // Blurred before closing, so focus does not jump back to the button: the browser's move to the section
    // then sets where Tab goes next.
    link.blur();
    event.currentTarget.hidePopover();
  };

  return (
    <Bar>
      <Inner>
        <HomeLink href="/" aria-label={`${brand.product} home`}>
          <Logo name={brand.product} />
        </HomeLink>
        {/* Styled by top-bar-css.ts, in the page's head. */}
        <nav
          id={MENU_ID}
          className="top-bar-menu"
          popover="auto"
          aria-label="Sections"
          onToggle={onToggle}
          onKeyDown={onKeyDown}
          onClick={onClick}
        >
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
            ref={menuButton}
            type="button"
            className="top-bar-menu-button"
            popoverTarget={MENU_ID}
            aria-controls={MENU_ID}
            aria-expanded={expanded}
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
