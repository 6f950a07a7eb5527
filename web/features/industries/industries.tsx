import { styled } from 'styled-components';
import { BankIcon, CartIcon, HeartPulseIcon, PlaneIcon, SignalIcon, TruckIcon } from '../../components/icons.js';
import { IconList, Section } from '../../components/layout.js';

/** Round icons set the industries apart from the use cases' square badges. */
const Industry = styled.li`
  svg {
    box-sizing: content-box;
    /* The icon (24 px) on a tile as large as the use cases' badges. */
    padding: calc((${({ theme }) => theme.size.iconTile} - 24px) / 2);
    border-radius: 50%;
    background: ${({ theme }) => theme.colors.surface};
    color: ${({ theme }) => theme.colors.accent};
    box-shadow: ${({ theme }) => theme.shadow.card};
  }
`;

const INDUSTRIES = [
  {
    icon: BankIcon,
    title: 'Banking & finance',
    text: 'Passcode-free logins, SIM swap checks on payments and fraud alerts customers act on.',
  },
  {
    icon: CartIcon,
    title: 'Retail & e-commerce',
    text: 'Order updates, conversational commerce and returns handled end to end by AI agents.',
  },
  {
    icon: HeartPulseIcon,
    title: 'Healthcare',
    text: 'Appointment reminders and secure patient verification that cut no-shows.',
  },
  {
    icon: TruckIcon,
    title: 'Logistics',
    text: 'Proactive delivery notices, rescheduling in the chat and proof-of-delivery messages.',
  },
  {
    icon: PlaneIcon,
    title: 'Travel & hospitality',
    text: 'Gate changes, rebooking and check-in across WhatsApp, RCS and voice.',
  },
  {
    icon: SignalIcon,
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
        {INDUSTRIES.map(({ icon: Icon, title, text }) => (
          <Industry key={title}>
            <Icon />
            <h3>{title}</h3>
            <p>{text}</p>
          </Industry>
        ))}
      </IconList>
    </Section>
  );
}
