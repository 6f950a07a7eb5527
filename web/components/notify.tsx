// The unstyled build: the default one injects its CSS as a <style> element's text, which the site's
// Content-Security-Policy (no 'unsafe-inline' styles) refuses. The same CSS goes in through styled-components instead.
import { toast, ToastContainer } from 'react-toastify/unstyled';
import toastifyCss from 'react-toastify/dist/ReactToastify.css?raw';
import { createGlobalStyle, styled } from 'styled-components';

const TOAST_WIDTH_PX = 300;
/** Between a toast and the edges of the screen. */
const TOAST_GAP_PX = 16;
const TOAST_DURATION_MS = 5000;
/** react-toastify measures the swipe in percent of the toast's width; about 50 px is the threshold asked for. */
const SWIPE_THRESHOLD_PX = 50;

/** react-toastify's own stylesheet, unchanged, in styled-components' sheet (rules added through CSSOM, which CSP allows). */
const ToastifyStyles = createGlobalStyle`${toastifyCss}`;

const Title = styled.p`
  font-weight: 700;
  margin: 0;
`;

const Text = styled.p`
  margin: ${({ theme }) => theme.space[0.5]} 0 0;
  font-size: 0.9375rem;
`;

const Links = styled.p`
  margin: ${({ theme }) => theme.space[1]} 0 0;
  font-size: 0.9375rem;
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => `${theme.space[1]} ${theme.space[3]}`};

  a {
    color: ${({ theme }) => theme.colors.primary};
    font-weight: 600;
  }
`;

export interface ToastLink {
  label: string;
  href: string;
  /** Saved as a file rather than opened (an .ics). */
  download?: boolean;
}

/** What a toast may say beyond its title and text: lines of their own, and one link set apart (a meeting's room). */
export interface ToastDetails {
  notes?: string[];
  link?: ToastLink;
}

function ToastBody({
  title,
  text,
  links = [],
  linksLabel,
  details,
}: {
  title: string;
  text: string;
  links?: ToastLink[];
  linksLabel?: string;
  details?: ToastDetails;
}) {
  return (
    <div>
      <Title>{title}</Title>
      <Text>{text}</Text>
      {details?.notes?.map((note) => (
        <Text key={note}>{note}</Text>
      ))}
      {details?.link && (
        <Links>
          <a href={details.link.href} target="_blank" rel="noopener noreferrer">
            {details.link.label}
          </a>
        </Links>
      )}
      {links.length > 0 && (
        <Links>
          {linksLabel && <span>{linksLabel}</span>}
          {links.map((link) => (
            <a
              key={link.href}
              href={link.href}
              {...(link.download ? { download: '' } : { target: '_blank', rel: 'noopener noreferrer' })}
            >
              {link.label}
            </a>
          ))}
        </Links>
      )}
    </div>
  );
}

/** A success; one that holds links stays until the visitor dismisses it, so that there is time to use them. */
export function notifySuccess(
  title: string,
  text: string,
  links?: { label: string; items: ToastLink[] },
  details?: ToastDetails,
): void {
  const holdsLinks = (links?.items.length ?? 0) > 0 || details?.link !== undefined;
  toast.success(
    <ToastBody title={title} text={text} links={links?.items} linksLabel={links?.label} details={details} />,
    {
      role: 'status',
      ...(holdsLinks ? { autoClose: false } : {}),
    },
  );
}

/** The destructive toast. */
export function notifyError(title: string, text: string): void {
  toast.error(<ToastBody title={title} text={text} />, { role: 'alert' });
}

/**
 * The notifications' place, in a full-screen layer (see demo-runtime.tsx) whose other part is the dialog. Up to the
 * width where a toast fits beside the widest dialog (a phone, a tablet), it heads the layer's column, centred: a toast
 * takes its height from the dialog's room, so it covers none of the dialog's fields and buttons, and it keeps below
 * the top bar, so the bar's buttons and the hero's calls to action further down stay usable. From that width on, it
 * sits in the bottom right corner instead, out of the flow, and the dialog does not move.
 */
const Region = styled.div<{ $besideFrom: number }>`
  flex: none;
  order: -1;
  /* The strip lets clicks through to the page; only a toast takes them. */
  pointer-events: none;
  --toastify-toast-width: 100%;
  --toastify-font-family: ${({ theme }) => theme.font.family};
  --toastify-color-success: ${({ theme }) => theme.colors.success};
  --toastify-color-error: ${({ theme }) => theme.colors.danger};
  --toastify-text-color-light: ${({ theme }) => theme.colors.ink};
  .Toastify__toast-container {
    position: static;
    transform: none;
    width: min(${TOAST_WIDTH_PX}px, calc(100vw - ${2 * TOAST_GAP_PX}px));
    /* On the container, which is there only while a toast is: with none, the dialog has the whole height. */
    margin: calc(${({ theme }) => theme.layout.topBarHeight} + ${TOAST_GAP_PX / 2}px) auto 0;
    padding: 0;
  }
  .Toastify__toast {
    pointer-events: auto;
    margin: 0;
    border-radius: ${({ theme }) => theme.radius.md};
    box-shadow: ${({ theme }) => theme.shadow.raised};
  }
  @media (min-width: ${({ $besideFrom }) => $besideFrom}px) {
    position: absolute;
    right: ${TOAST_GAP_PX}px;
    bottom: 0;
    .Toastify__toast-container {
      margin: 0;
      padding-bottom: max(${TOAST_GAP_PX}px, env(safe-area-inset-bottom));
    }
  }
  .Toastify__toast--error {
    border-left: 6px solid ${({ theme }) => theme.colors.danger};
  }
  .Toastify__toast--success {
    border-left: 6px solid ${({ theme }) => theme.colors.success};
  }
  .Toastify__close-button {
    opacity: 0.8;
    color: ${({ theme }) => theme.colors.ink};
  }
  /* The page's reduced-motion rule cuts every animation to almost nothing, and a toast closes when its progress
     bar's animation ends: without this it would vanish at once. The bar is a clock, not an effect. */
  @media (prefers-reduced-motion: reduce) {
    .Toastify__progress-bar--animated {
      animation-duration: ${TOAST_DURATION_MS}ms !important;
    }
  }
`;

interface ToastsProps {
  /** The widest the dialog beside the toasts gets, for the width from which a toast fits beside it. */
  dialogMaxWidthPx: number;
}

/** One toast at a time, 5 s (or until dismissed when it holds links), swipe to dismiss, F8 moves focus to the notifications. */
export function Toasts({ dialogMaxWidthPx }: ToastsProps) {
  return (
    <Region $besideFrom={dialogMaxWidthPx + 2 * (TOAST_WIDTH_PX + 2 * TOAST_GAP_PX)}>
      <ToastifyStyles />
      <ToastContainer
        position="bottom-right"
        limit={1}
        autoClose={TOAST_DURATION_MS}
        draggable
        draggableDirection="x"
        draggablePercent={Math.round((SWIPE_THRESHOLD_PX / TOAST_WIDTH_PX) * 100)}
        closeOnClick={false}
        pauseOnFocusLoss
        aria-label="Notifications (F8)"
        hotKeys={(event) => event.key === 'F8'}
      />
    </Region>
  );
}
