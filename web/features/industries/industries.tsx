import { BankIcon, CartIcon, HeartPulseIcon, PlaneIcon, SignalIcon, TruckIcon } from '../../components/icons.js';
import { CardGrid, IconCard, Section } from '../../components/layout.js';

const INDUSTRIES = [
  { icon: BankIcon, title: 'Banking & financial services', text: 'Passcode-free logins, SIM swap checks on payments and fraud alerts customers act on.' },
  { icon: CartIcon, title: 'Retail & e-commerce', text: 'Order updates, conversational commerce and returns handled end to end by AI agents.' },
  { icon: HeartPulseIcon, title: 'Healthcare', text: 'Appointment reminders and secure patient verification that cut no-shows.' },
  { icon: TruckIcon, title: 'Logistics', text: 'Proactive delivery notices, rescheduling in the chat and proof-of-delivery messages.' },
  { icon: PlaneIcon, title: 'Travel & hospitality', text: 'Gate changes, rebooking and check-in across WhatsApp, RCS and voice.' },
  { icon: SignalIcon, title: 'Telecom & media', text: 'Onboarding, plan changes and outage communication at national scale.' },
];

export function Industries() {
  return (
    <Section
      id="industries"
      tone="alt"
      eyebrow="Industries"
      title="Trusted where every message matters"
      lead="Regulated and high-volume industries run their customer communication on Converge."
    >
      <CardGrid>
        {INDUSTRIES.map(({ icon: Icon, title, text }) => (
          <IconCard key={title} icon={Icon} title={title} text={text} tone="accent" />
        ))}
      </CardGrid>
    </Section>
  );
}
