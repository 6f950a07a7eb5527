import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { styled } from 'styled-components';
import { SLOT_DURATION_MINUTES } from '../../../domain/booking.js';
import { CrossIcon } from '../../components/icons.js';
import { ACTION_BAR_HEIGHT, DemoRequestForm } from './demo-request-form.js';

/** The dialog's width on a wide screen; the toasts sit beside it where there is room for them. */
export const DIALOG_MAX_WIDTH_PX = 760;

/** The room the toasts leave in the layer the dialog shares with them (demo-runtime.tsx); the panel is centred in it. */
const Backdrop = styled.div`
  flex: 1 1 auto;
  min-height: 0;
  display: grid;
  grid-template-rows: minmax(0, 1fr);
  place-items: center;
  padding: ${({ theme }) => theme.space[3]};
  &[hidden] {
    display: none;
  }
`;

/**
 * The form's action bar is its foot, flush with the bottom edge. A field scrolled into view (by focus, or to show an
 * error) stops above the bar, with room for its focus ring, rather than under it.
 */
const Panel = styled.div`
  --dialog-padding: ${({ theme }) => theme.space[5]};
  position: relative;
  width: min(${DIALOG_MAX_WIDTH_PX}px, 100%);
  max-height: 100%;
  overflow-y: auto;
  overscroll-behavior: contain;
  scroll-padding-bottom: calc(${ACTION_BAR_HEIGHT} + ${({ theme }) => theme.space[2]});
  background: ${({ theme }) => theme.colors.surface};
  border-radius: ${({ theme }) => theme.radius.lg};
  box-shadow: ${({ theme }) => theme.shadow.raised};
  padding: var(--dialog-padding) var(--dialog-padding) 0;
  ${({ theme }) => theme.media.sm} {
    --dialog-padding: ${({ theme }) => theme.space[8]};
  }
`;

const Header = styled.div`
  display: flex;
  align-items: flex-start;
  justify-content: space-between;
  gap: ${({ theme }) => theme.space[4]};
  margin-bottom: ${({ theme }) => theme.space[6]};
`;

const Title = styled.h2`
  font-size: ${({ theme }) => theme.text['2xl']};
  font-weight: 800;
`;

const Intro = styled.p`
  margin-top: ${({ theme }) => theme.space[1]};
  color: ${({ theme }) => theme.colors.inkSoft};
`;

const CloseButton = styled.button`
  flex: none;
  display: inline-grid;
  place-items: center;
  width: 44px;
  height: 44px;
  border: 0;
  border-radius: ${({ theme }) => theme.radius.pill};
  background: ${({ theme }) => theme.colors.surfaceAlt};
  cursor: pointer;
  &:hover {
    background: ${({ theme }) => theme.colors.border};
  }
`;

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="radio"]), input[type="radio"]:checked, textarea:not([disabled]), select:not([disabled]), [tabindex]';

/** What Tab reaches, in order; tabindex=-1 (the honeypot, the calendar's other days) is out of the Tab order. */
function tabbables(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (element) => element.tabIndex >= 0 && element.getClientRects().length > 0,
  );
}

/** Stops the page behind from scrolling, keeping its width so nothing jumps when the scroll bar goes. */
function lockScroll(): () => void {
  const { body, documentElement } = document;
  const scrollBar = window.innerWidth - documentElement.clientWidth;
  const previous = { overflow: body.style.overflow, paddingRight: body.style.paddingRight };
  body.style.overflow = 'hidden';
  if (scrollBar > 0) body.style.paddingRight = `${scrollBar}px`;
  return () => {
    body.style.overflow = previous.overflow;
    body.style.paddingRight = previous.paddingRight;
  };
}

/** How often the closed dialog's form takes the time again (the slots it offers depend on it), and the lateness allowed. */
const CLOCK_REFRESH_MS = 60_000;
const CLOCK_SLACK_MS = 5_000;

interface DemoRequestDialogProps {
  isOpen: boolean;
  onClose: () => void;
}

/**
 * The Request Demo dialog. It stays mounted while closed, so a half-filled form survives closing it;
 * the page behind is made inert by the host while it is open.
 */
export function DemoRequestDialog({ isOpen, onClose }: DemoRequestDialogProps) {
  const id = useId();
  const titleId = `${id}-title`;
  const introId = `${id}-intro`;
  const panel = useRef<HTMLDivElement>(null);
  const [now, setNow] = useState(() => new Date());

  // The form's clock is kept fresh while the dialog is closed (its hidden render needs no layout), so that opening
  // it shows the form as it is, without a second render of the whole form in the click's task.
  useEffect(() => {
    if (isOpen) return;
    const timer = setInterval(() => setNow(new Date()), CLOCK_REFRESH_MS);
    return () => clearInterval(timer);
  }, [isOpen]);

  useEffect(() => {
    if (!isOpen) return;
    // A background tab's timers may have been held back (or the computer's clock set): a clock further off than its
    // refresh allows is renewed now.
    setNow((shown) =>
      Math.abs(Date.now() - shown.getTime()) > CLOCK_REFRESH_MS + CLOCK_SLACK_MS ? new Date() : shown,
    );
    const unlock = lockScroll();
    const first = panel.current?.querySelector<HTMLElement>('input, textarea');
    first?.focus();
    // Focus that lands outside (a click on the backdrop, say) is brought back, except into the notifications.
    const keepFocusInside = (event: FocusEvent) => {
      const target = event.target as Node | null;
      const root = panel.current;
      if (!root || !target || root.contains(target)) return;
      if (target instanceof Element && target.closest('.Toastify')) return;
      tabbables(root)[0]?.focus();
    };
    document.addEventListener('focusin', keepFocusInside);
    return () => {
      document.removeEventListener('focusin', keepFocusInside);
      unlock();
    };
  }, [isOpen]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
      return;
    }
    if (event.key !== 'Tab' || !panel.current) return;
    const items = tabbables(panel.current);
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) return;
    const active = document.activeElement;
    if (event.shiftKey && (active === first || !panel.current.contains(active))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <Backdrop hidden={!isOpen}>
      <Panel
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={introId}
        onKeyDown={onKeyDown}
      >
        <Header>
          <div>
            <Title id={titleId}>Request Demo</Title>
            <Intro id={introId}>
              Pick a time that suits you: a {SLOT_DURATION_MINUTES}-minute walkthrough of Converge on your own use case,
              with a solutions engineer.
            </Intro>
          </div>
          <CloseButton type="button" aria-label="Close" onClick={onClose}>
            <CrossIcon size={20} />
          </CloseButton>
        </Header>
        <DemoRequestForm now={now} onSubmitted={onClose} />
      </Panel>
    </Backdrop>
  );
}
