import type { ReactNode, SVGProps } from 'react';

/**
 * Icons are inline SVG so nothing is fetched from another host. They are decorative (aria-hidden)
 * unless a caller gives them a title; the control around them carries the accessible name.
 */
type IconProps = SVGProps<SVGSVGElement> & { size?: number };

function stroke(paths: ReactNode) {
  return function StrokeIcon({ size = 24, ...rest }: IconProps) {
    return (
      <svg
        width={size}
        height={size}
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={1.8}
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"

        {...rest}
      >
        {paths}
      </svg>
    );
  };
}

function filled(paths: ReactNode) {
  return function FilledIcon({ size = 24, ...rest }: IconProps) {
    return (
      <svg
        width={size}
        height={size}
        viewBox="0 0 24 24"
        fill="currentColor"
        aria-hidden="true"

        {...rest}
      >
        {paths}
      </svg>
    );
  };
}

export const MessageIcon = stroke(<path d="M4 5h16v11H9l-5 4z" />);
export const ChatIcon = stroke(
  <>
    <path d="M12 3a9 9 0 0 0-7.8 13.5L3 21l4.6-1.2A9 9 0 1 0 12 3z" />
    <path d="M8.5 9.5c.5 2.5 2.5 4.5 5 5l1.5-1.5 2 1-.5 1.5c-4 .5-8-3.5-7.5-7.5l1.5-.5 1 2z" />
  </>,
);
export const RichCardIcon = stroke(
  <>
    <rect x="3" y="4" width="18" height="16" rx="2" />
    <path d="M3 10h18M7 14h6M7 17h4" />
  </>,
);
export const MailIcon = stroke(
  <>
    <rect x="3" y="5" width="18" height="14" rx="2" />
    <path d="m3 7 9 6 9-6" />
  </>,
);
export const PhoneIcon = stroke(
  <path d="M5 4h4l2 5-2.5 1.5a11 11 0 0 0 5 5L15 13l5 2v4a2 2 0 0 1-2 2A16 16 0 0 1 3 6a2 2 0 0 1 2-2z" />,
);
export const BotIcon = stroke(
  <>
    <rect x="4" y="8" width="16" height="12" rx="3" />
    <path d="M12 4v4M9 13h.01M15 13h.01M9 17h6" />
    <circle cx="12" cy="3" r="1" />
  </>,
);
export const ShieldIcon = stroke(
  <>
    <path d="M12 3 4 6v6c0 4.5 3.4 8.3 8 9 4.6-.7 8-4.5 8-9V6z" />
    <path d="m9 12 2 2 4-4" />
  </>,
);
export const FingerprintIcon = stroke(
  <>
    <path d="M12 11v3a8 8 0 0 1-1.5 4.5" />
    <path d="M8 20a12 12 0 0 0 1-6v-3a3 3 0 0 1 6 0v1" />
    <path d="M5 17a15 15 0 0 0 .5-3.5V11a6.5 6.5 0 0 1 13 0v2a18 18 0 0 1-.5 4" />
    <path d="M15.5 16.5c-.2 1.3-.6 2.6-1.1 3.5" />
  </>,
);
export const LayersIcon = stroke(
  <>
    <path d="m12 3 9 5-9 5-9-5z" />
    <path d="m3 13 9 5 9-5" />
  </>,
);
export const SplitIcon = stroke(
  <>
    <path d="M4 6h5l6 12h5M4 18h5l2-4M15 6h5" />
  </>,
);
export const UsersIcon = stroke(
  <>
    <circle cx="9" cy="8" r="3.5" />
    <path d="M2.5 20a6.5 6.5 0 0 1 13 0M16 4.5a3.5 3.5 0 0 1 0 7M18 14a6 6 0 0 1 3.5 6" />
  </>,
);
export const BellIcon = stroke(
  <>
    <path d="M6 16V11a6 6 0 0 1 12 0v5l2 2H4z" />
    <path d="M10 20a2 2 0 0 0 4 0" />
  </>,
);
export const BankIcon = stroke(
  <>
    <path d="m3 9 9-5 9 5M5 9v9M9.5 9v9M14.5 9v9M19 9v9M3 20h18" />
  </>,
);
export const CartIcon = stroke(
  <>
    <path d="M3 4h2l2.5 11h11L21 7H6.5" />
    <circle cx="9" cy="19" r="1.5" />
    <circle cx="17" cy="19" r="1.5" />
  </>,
);
export const HeartPulseIcon = stroke(
  <path d="M20.5 8.5A4.5 4.5 0 0 0 12 6a4.5 4.5 0 0 0-8.5 2.5C3.5 14 12 20 12 20s3.2-2.3 5.6-5H14l-1.5-3-2 5-1.5-3H6.5" />,
);
export const TruckIcon = stroke(
  <>
    <path d="M3 6h11v10H3zM14 10h4l3 3v3h-7" />
    <circle cx="7" cy="18" r="1.8" />
    <circle cx="17" cy="18" r="1.8" />
  </>,
);
export const PlaneIcon = stroke(
  <path d="M10.5 13.5 3 11l1.5-1.5 8 1 4.5-4.5a2 2 0 0 1 3 3L15.5 13.5l1 8L15 23l-2.5-7.5L9 19v2.5L7.5 23 6 19l-4-1.5L3.5 16H6z" />,
);
export const SignalIcon = stroke(
  <>
    <path d="M12 12v9M8 21h8" />
    <circle cx="12" cy="10" r="2" />
    <path d="M7.8 5.8a6 6 0 0 0 0 8.4M16.2 5.8a6 6 0 0 1 0 8.4M5 3a10 10 0 0 0 0 14M19 3a10 10 0 0 1 0 14" />
  </>,
);
export const ArrowRightIcon = stroke(<path d="M5 12h14M13 6l6 6-6 6" />);
export const CheckIcon = stroke(<path d="m5 12.5 4.5 4.5L19 7.5" />);
export const CrossIcon = stroke(<path d="M6 6l12 12M18 6 6 18" />);
export const MenuIcon = stroke(<path d="M4 7h16M4 12h16M4 17h16" />);
export const ChevronLeftIcon = stroke(<path d="m15 5-7 7 7 7" />);
export const ChevronRightIcon = stroke(<path d="m9 5 7 7-7 7" />);
export const CheckCircleIcon = stroke(
  <>
    <circle cx="12" cy="12" r="9" />
    <path d="m8 12.5 3 3 5-6" />
  </>,
);
export const CrossCircleIcon = stroke(
  <>
    <circle cx="12" cy="12" r="9" />
    <path d="m9 9 6 6M15 9l-6 6" />
  </>,
);
export const AlertIcon = stroke(
  <>
    <path d="M12 3 2 20h20z" />
    <path d="M12 10v4M12 17h.01" />
  </>,
);

export const LinkedInIcon = filled(
  <path d="M4.5 3A1.5 1.5 0 0 0 3 4.5v15A1.5 1.5 0 0 0 4.5 21h15a1.5 1.5 0 0 0 1.5-1.5v-15A1.5 1.5 0 0 0 19.5 3zm2.8 4.1a1.6 1.6 0 1 1 0 3.2 1.6 1.6 0 0 1 0-3.2zM6 11h2.7v7.5H6zm4.4 0H13v1.1c.4-.7 1.3-1.3 2.6-1.3 2.5 0 3 1.6 3 3.8v3.9h-2.7v-3.4c0-.9 0-2-1.3-2s-1.5.9-1.5 1.9v3.5h-2.7z" />,
);
export const XLogoIcon = filled(
  <path d="M17.8 3h3l-6.6 7.6L22 21h-6.1l-4.8-6.3L5.6 21h-3l7.1-8.1L2.2 3h6.2l4.3 5.7zm-1 16.2h1.7L7.3 4.7H5.5z" />,
);
export const YouTubeIcon = filled(
  <path d="M21.6 7.2a2.5 2.5 0 0 0-1.8-1.8C18.2 5 12 5 12 5s-6.2 0-7.8.4a2.5 2.5 0 0 0-1.8 1.8C2 8.8 2 12 2 12s0 3.2.4 4.8a2.5 2.5 0 0 0 1.8 1.8c1.6.4 7.8.4 7.8.4s6.2 0 7.8-.4a2.5 2.5 0 0 0 1.8-1.8c.4-1.6.4-4.8.4-4.8s0-3.2-.4-4.8zM10 15V9l5.2 3z" />,
);
export const GitHubIcon = filled(
  <path d="M12 2a10 10 0 0 0-3.2 19.5c.5.1.7-.2.7-.5v-1.7c-2.8.6-3.4-1.3-3.4-1.3-.5-1.2-1.1-1.5-1.1-1.5-.9-.6.1-.6.1-.6 1 .1 1.5 1 1.5 1 .9 1.6 2.4 1.1 3 .8.1-.7.4-1.1.6-1.4-2.2-.3-4.6-1.1-4.6-5 0-1.1.4-2 1-2.7-.1-.3-.4-1.3.1-2.7 0 0 .8-.3 2.8 1a9.6 9.6 0 0 1 5 0c1.9-1.3 2.8-1 2.8-1 .5 1.4.2 2.4.1 2.7.6.7 1 1.6 1 2.7 0 3.9-2.3 4.7-4.6 5 .4.3.7.9.7 1.9V21c0 .3.2.6.7.5A10 10 0 0 0 12 2z" />,
);
export const FacebookIcon = filled(
  <path d="M22 12a10 10 0 1 0-11.6 9.9v-7H7.9V12h2.5V9.8c0-2.5 1.5-3.9 3.8-3.9 1.1 0 2.2.2 2.2.2v2.5h-1.3c-1.2 0-1.6.8-1.6 1.6V12h2.8l-.4 2.9h-2.3v7A10 10 0 0 0 22 12z" />,
);

export function Spinner({ size = 20 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true">
      <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeOpacity="0.25" strokeWidth="3" />
      <path d="M21 12a9 9 0 0 0-9-9" fill="none" stroke="currentColor" strokeWidth="3" strokeLinecap="round">
        <animateTransform
          attributeName="transform"
          type="rotate"
          from="0 12 12"
          to="360 12 12"
          dur="0.8s"
          repeatCount="indefinite"
        />
      </path>
    </svg>
  );
}
