import { styled } from 'styled-components';
import { IconImage, iconFile } from '../../components/icon-image.js';
import { BankIcon, CartIcon, HeartPulseIcon, PlaneIcon, SignalIcon, TruckIcon } from '../../components/icons.js';
import { IconList, Section } from '../../components/layout.js';
import { theme } from '../../components/theme.js';

/** Round icons set the industries apart from the use cases' square badges. */
const Industry = styled.li`
  img {
    box-sizing: content-box;
    /* The icon (24 px) on a tile as large as the use cases' badges. */
    padding: calc((${({ theme }) => theme.size.iconTile} - 24px) / 2);
    border-radius: 50%;
    background: ${({ theme }) => theme.colors.surface};
    box-shadow: ${({ theme }) => theme.shadow.card};
  }
`;

/** The icons are files (icon-image.tsx): the section is far below the first screen. */
export const INDUSTRIES = [
  {
    icon: iconFile('bank', BankIcon, theme.colors.accent),
    title: 'Banking & finance',
    text: 'Passcode-free logins, SIM swap checks on payments and fraud alerts customers act on.',
  },
  {
    icon: iconFile('cart', CartIcon, theme.colors.accent),
    title: 'Retail & e-commerce',
    text: 'Order updates, conversational commerce and returns handled end to end by AI agents.',
  },
  {
    icon: iconFile('heart-pulse', HeartPulseIcon, theme.colors.accent),
    title: 'Healthcare',
    text: 'Appointment reminders and secure patient verification that cut no-shows.',
  },
  {
    icon: iconFile('truck', TruckIcon, theme.colors.accent),
    title: 'Logistics',
    text: 'Proactive delivery notices, rescheduling in the chat and proof-of-delivery messages.',
  },
  {
    icon: iconFile('plane', PlaneIcon, theme.colors.accent),
    title: 'Travel & hospitality',
    text: 'Gate changes, rebooking and check-in across WhatsApp, RCS and voice.',
  },
  {
    icon: iconFile('signal', SignalIcon, theme.colors.accent),
    title: 'Telecom & media',
    text: 'Onboarding, plan changes and outage communication at national scale.',
  },
];

export function Industries() {
  return (
    <Section
      id="industries"
      layout="index"
      split
      tone="alt"
      eyebrow="Industries"
      title="Trusted where every message matters"
      lead="Regulated and high-volume industries run their customer communication on Converge."
    >
      <IconList>
        {INDUSTRIES.map(({ icon, title, text }) => (
          <Industry key={title}>
            <IconImage file={icon} size={24} />
            <h3>{title}</h3>
            <p>{text}</p>
          </Industry>
        ))}
      </IconList>
    </Section>
  );
}
