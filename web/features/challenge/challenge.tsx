import { styled } from 'styled-components';
import { Section } from '../../components/layout.js';

/** Numbered by a CSS counter; the number is left out of what screen readers hear (the list is ordered already). */
const Problems = styled.ol`
  padding: 0;
  list-style: none;
  counter-reset: problem;
  li {
    counter-increment: problem;
    display: grid;
    grid-template-columns: 3.5rem minmax(0, 1fr);
    padding: ${({ theme }) => `${theme.space[8]} 0`};
    border-top: 1px solid ${({ theme }) => theme.colors.border};
  }
  li:first-child {
    padding-top: 0;
    border-top: 0;
  }
  li::before {
    content: counter(problem, decimal-leading-zero);
    content: counter(problem, decimal-leading-zero) / '';
    grid-row: span 2;
    font-size: ${({ theme }) => theme.text['2xl']};
    font-weight: 800;
    line-height: 1.2;
    color: ${({ theme }) => theme.colors.primary};
  }
  h3 {
    font-size: ${({ theme }) => theme.text.xl};
  }
  p {
    margin-top: ${({ theme }) => theme.space[2]};
    color: ${({ theme }) => theme.colors.inkSoft};
  }
`;

const PROBLEMS = [
  {
    title: 'Channels in silos',
    text: 'SMS, WhatsApp, RCS, email and voice each come with their own vendor, contract, API and report. Every new journey is five integration projects.',
  },
  {
    title: 'Bots that cannot act',
    text: 'Scripted chatbots answer FAQs, then hand off. Customers repeat themselves to a human, and the cost of each contact stays where it was.',
  },
  {
    title: 'Fraud at the front door',
    text: 'One-time passcodes get phished, intercepted or pumped by SMS fraud. SIM swaps turn a trusted number into an account takeover.',
  },
];

export function Challenge() {
  return (
    <Section
      id="challenge"
      layout="numbered-list"
      split
      tone="alt"
      eyebrow="The challenge"
      title="Customer communication has outgrown the point-solution stack"
      lead="Enterprises run a dozen vendors to talk to customers, and still can't tell who is on the other end."
    >
      <Problems>
        {PROBLEMS.map(({ title, text }) => (
          <li key={title}>
            <h3>{title}</h3>
            <p>{text}</p>
          </li>
        ))}
      </Problems>
    </Section>
  );
}
