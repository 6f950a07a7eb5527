import { AlertIcon, BotIcon, LayersIcon } from '../../components/icons.js';
import { CardGrid, IconCard, Section } from '../../components/layout.js';

const PROBLEMS = [
  {
    icon: LayersIcon,
    title: 'Channels in silos',
    text: 'SMS, WhatsApp, RCS, email and voice each come with their own vendor, contract, API and report. Every new journey is five integration projects.',
  },
  {
    icon: BotIcon,
    title: 'Bots that cannot act',
    text: 'Scripted chatbots answer FAQs, then hand off. Customers repeat themselves to a human, and the cost of each contact stays where it was.',
  },
  {
    icon: AlertIcon,
    title: 'Fraud at the front door',
    text: 'One-time passcodes get phished, intercepted or pumped by SMS fraud. SIM swaps turn a trusted number into an account takeover.',
  },
];

export function Challenge() {
  return (
    <Section
      id="challenge"
      eyebrow="The challenge"
      title="Customer communication has outgrown the point-solution stack"
      lead="Enterprises run a dozen vendors to talk to customers, and still can't tell who is on the other end."
    >
      <CardGrid>
        {PROBLEMS.map(({ icon: Icon, title, text }) => (
          <IconCard key={title} icon={Icon} title={title} text={text} />
        ))}
      </CardGrid>
    </Section>
  );
}
