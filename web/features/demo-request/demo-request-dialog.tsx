import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';
import { styled } from 'styled-components';
import { SLOT_DURATION_MINUTES } from '../../../domain/booking.js';
import { DEMO_DIALOG_ID } from '../../components/demo-trigger-attribute.js';
import { CrossIcon } from '../../components/icons.js';
import { Toasts } from '../../components/notify.js';
import { useHydrated } from '../../components/use-hydrated.js';
import { ACTION_BAR_HEIGHT, DemoRequestForm } from './demo-request-form.js';

/** The dialog's width on a wide screen; the toasts sit beside it where there is room for them. */
export const DIALOG_MAX_WIDTH_PX = 760;

/**
 * The native dialog, shown modal (dialog-opener.ts) in the browser's top layer: the page behind it is inert and
 * Escape closes it. It is a full-screen column: while it is open the toasts are moved into it and head it (notify.tsx
 * places them), and the panel is centred in the room they leave.
 */
const Layer = styled.dialog`
  position: fixed;
  inset: 0;
  width: 100%;
  height: 100%;
  max-width: none;
  max-height: none;
  margin: 0;
  padding: 0;
  border: 0;
  background: transparent;
  color: inherit;
  overflow: hidden;
  &[open] {
    display: flex;
    flex-direction: column;
    justify-content: flex-start;
  }
  &::backdrop {
    background: rgba(11, 21, 48, 0.6);
  }
`;

/** The room the toasts leave in the dialog; the panel is centred in it. */
const Backdrop = styled.div`
  flex: 1 1 auto;
  min-height: 0;
  display: grid;
  grid-template-rows: minmax(0, 1fr);
  place-items: center;
  padding: ${({ theme }) => theme.space[3]};
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

/** How often the closed dialog's form takes the time again (the slots it offers depend on it). */
const CLOCK_REFRESH_MS = 60_000;

interface DemoRequestDialogProps {
  /** The toasts' element, none on the server: on the page while the dialog is closed, in it while it is open. */
  toasts?: HTMLElement | undefined;
}

/**
 * The Request Demo dialog. The landing page holds it prerendered, closed, and its opener (dialog-opener.ts) shows it
 * before this code has come; this code hydrates it, so what was typed, the focus and the caret stay as they are
 * (use-demo-request-form.ts takes the typed values in). It stays in the page while closed, so a half-filled form
 * survives closing it.
 */
export function DemoRequestDialog({ toasts }: DemoRequestDialogProps) {
  const id = useId();
  const titleId = `${id}-title`;
  const introId = `${id}-intro`;
  const dialog = useRef<HTMLDialogElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const [now, setNow] = useState(() => new Date());
  const hydrated = useHydrated();

  // The form's clock is kept fresh while the dialog is closed; while it is open the slots shown stay as they are
  // (a slot gone stale meanwhile is refused when the form is sent).
  useEffect(() => {
    const timer = setInterval(() => {
      if (!dialog.current?.open) setNow(new Date());
    }, CLOCK_REFRESH_MS);
    return () => clearInterval(timer);
  }, []);

  // Around a modal dialog the page is inert: its toasts would be out of reach and unheard. So they go into the
  // dialog when it opens (its opener is the page's head script) and back when it closes, the same element, so a toast
  // stays up through both. An observer's callback runs before the next frame is drawn.
  useEffect(() => {
    const element = dialog.current;
    if (!element || !toasts) return;
    const place = () => {
      if (element.open) element.prepend(toasts);
      else document.body.append(toasts);
    };
    place();
    const observer = new MutationObserver(place);
    observer.observe(element, { attributes: true, attributeFilter: ['open'] });
    return () => observer.disconnect();
  }, [toasts]);

  const close = () => dialog.current?.close();

  // The modal dialog keeps the page out of reach, but Tab from its last control would leave for the browser's own.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
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
    <Layer ref={dialog} id={DEMO_DIALOG_ID} aria-labelledby={titleId} aria-describedby={introId}>
      {hydrated && toasts && createPortal(<ToastsPlace />, toasts)}
      <Backdrop>
        <Panel ref={panel} onKeyDown={onKeyDown}>
          <Header>
            <div>
              <Title id={titleId}>Request Demo</Title>
              <Intro id={introId}>
                Pick a time that suits you: a {SLOT_DURATION_MINUTES}-minute walkthrough of Converge on your own use
                case, with a solutions engineer.
              </Intro>
            </div>
            {/* A form of the dialog's own closes it without script. */}
            <form method="dialog">
              <CloseButton type="submit" aria-label="Close">
                <CrossIcon size={20} />
              </CloseButton>
            </form>
          </Header>
          <DemoRequestForm now={now} onSubmitted={close} />
        </Panel>
      </Backdrop>
    </Layer>
  );
}

/**
 * The toasts' place. On the page, a full-screen layer letting every click through; in the open dialog, nothing of
 * its own, so the toasts head the dialog's column. Its element (the island's) lays out no box of its own either.
 */
const ToastsLayer = styled.div`
  position: fixed;
  inset: 0;
  z-index: 50;
  display: flex;
  flex-direction: column;
  justify-content: flex-start;
  pointer-events: none;
  dialog & {
    display: contents;
  }
`;

function ToastsPlace() {
  return (
    <ToastsLayer>
      <Toasts dialogMaxWidthPx={DIALOG_MAX_WIDTH_PX} />
    </ToastsLayer>
  );
}
