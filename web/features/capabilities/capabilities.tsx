import { BellIcon, BotIcon, FingerprintIcon, ShieldIcon, SplitIcon, UsersIcon } from '../../components/icons.js';
import { styled } from 'styled-components';
import { IconImage, iconFile } from '../../components/icon-image.js';
import { IconBadge, IconList, Section } from '../../components/layout.js';
import { PRODUCT_CONSOLE } from '../../components/product-console.js';
import { theme } from '../../components/theme.js';

/** The console, far below the fold: a file of its own, fetched once it comes near, its room kept by its size. */
const Console = styled.figure`
  max-width: 40rem;
  margin: 0 auto ${({ theme }) => theme.space[10]};
  border-radius: ${({ theme }) => theme.radius.lg};
  box-shadow: ${({ theme }) => theme.shadow.raised};
  img {
    width: 100%;
    height: auto;
  }
`;

/** The icons are files (icon-image.tsx), drawn in the badge's colour: the section is far below the first screen. */
export const USE_CASES = [
  {
    icon: iconFile('bot', BotIcon, theme.colors.primary),
    title: 'Automate customer service',
    text: 'AI agents resolve orders, bookings and account changes on WhatsApp, RCS and voice, around the clock.',
  },
  {
    icon: iconFile('fingerprint', FingerprintIcon, theme.colors.primary),
    title: 'Verify without passcodes',
    text: 'Confirm that the phone number belongs to the device in the session, silently, before the customer types anything.',
  },
  {
    icon: iconFile('shield', ShieldIcon, theme.colors.primary),
    title: 'Stop fraud before it lands',
    text: 'Check for recent SIM swaps and risky devices at login and payment, and block SMS pumping at the source.',
  },
  {
    icon: iconFile('bell', BellIcon, theme.colors.primary),
    title: 'Send alerts that arrive',
    text: 'Deliver one-time codes, delivery updates and outage notices with fallback from RCS to SMS to voice.',
  },
  {
    icon: iconFile('split', SplitIcon, theme.colors.primary),
    title: 'Run two-way campaigns',
    text: 'Turn promotions into conversations with rich cards, quick replies and payments inside the chat.',
  },
  {
    icon: iconFile('users', UsersIcon, theme.colors.primary),
    title: 'Route to the right human',
    text: 'When a case needs a person, hand it over with the full history, verified identity and suggested reply.',
  },
];

export function Capabilities() {
  return (
    <Section
      id="capabilities"
      layout="feature-list"
      center
      eyebrow="What you can do"
      title="Build the journeys your customers expect"
      lead="Start with one use case and add the next on the same platform, with the same data and the same API."
    >
      <Console>
        <img
          src={PRODUCT_CONSOLE.path}
          width={PRODUCT_CONSOLE.width}
          height={PRODUCT_CONSOLE.height}
          alt="The Converge console: one customer's journey runs from SMS to WhatsApp and email, each step delivered, with a voice call next; beside it the delivery report, a bar per channel and 94% delivered."
          loading="lazy"
          decoding="async"
        />
      </Console>
      <IconList $columns={3}>
        {USE_CASES.map(({ icon, title, text }) => (
          <li key={title}>
            <IconBadge>
              <IconImage file={icon} size={24} />
            </IconBadge>
            <h3>{title}</h3>
            <p>{text}</p>
          </li>
        ))}
      </IconList>
    </Section>
  );
}
