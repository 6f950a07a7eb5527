import { styled } from 'styled-components';
import { BotIcon, CheckIcon, FingerprintIcon, MessageIcon } from '../../components/icons.js';
import { CardGrid, IconCard, Section } from '../../components/layout.js';

const Points = styled.ul`
  display: grid;
  gap: ${({ theme }) => theme.space[2]};
  margin-top: ${({ theme }) => theme.space[4]};
  padding: 0;
  list-style: none;
  li {
    display: flex;
    gap: ${({ theme }) => theme.space[2]};
    color: ${({ theme }) => theme.colors.inkSoft};
  }
  svg {
    flex: none;
    margin-top: 3px;
    color: ${({ theme }) => theme.colors.accent};
  }
`;

const PILLARS = [
  {
    icon: MessageIcon,
    title: 'Unified messaging',
    text: 'One API and one console for every channel, with automatic fallback when a message cannot be delivered.',
    points: ['SMS, WhatsApp, RCS, email and voice', 'Smart routing and channel fallback', 'One delivery report across channels'],
  },
  {
    icon: BotIcon,
    title: 'AI agents',
    text: 'Agents that understand intent, call your systems and finish the task, with a human one step away.',
    points: ['Grounded in your knowledge and APIs', 'Hand-off with full context', 'Guardrails and audit trail'],
  },
  {
    icon: FingerprintIcon,
    title: 'Network APIs',
    text: 'Identity signals straight from the mobile network, so you trust the person, not just the passcode.',
    points: ['Silent number verification', 'SIM swap and device checks', 'Fraud scoring on every session'],
  },
];

export function Breakthrough() {
  return (
    <Section
      id="platform"
      tone="alt"
      eyebrow="The breakthrough"
      title="Channels, AI and the network, working as one"
      lead="Converge puts the three layers of customer communication on one platform, so a conversation can verify, decide and act in the same flow."
    >
      <CardGrid>
        {PILLARS.map(({ icon: Icon, title, text, points }) => (
          <IconCard key={title} icon={Icon} title={title} text={text} tone="accent">
            <Points>
              {points.map((point) => (
                <li key={point}>
                  <CheckIcon size={18} />
                  {point}
                </li>
              ))}
            </Points>
          </IconCard>
        ))}
      </CardGrid>
    </Section>
  );
}
