import { styled } from 'styled-components';
import { Section } from '../../components/layout.js';

const Layout = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space[10]};
  ${({ theme }) => theme.media.md} {
    grid-template-columns: minmax(0, 1.2fr) minmax(0, 1fr);
    align-items: center;
  }
`;

const Story = styled.div`
  p + p {
    margin-top: ${({ theme }) => theme.space[4]};
  }
  p {
    color: ${({ theme }) => theme.colors.inkSoft};
  }
`;

const Customer = styled.h3`
  font-size: ${({ theme }) => theme.text['2xl']};
  margin-bottom: ${({ theme }) => theme.space[4]};
`;

const Quote = styled.blockquote`
  margin-top: ${({ theme }) => theme.space[6]};
  padding-left: ${({ theme }) => theme.space[5]};
  border-left: 4px solid ${({ theme }) => theme.colors.primary};
  font-size: ${({ theme }) => theme.text.lg};
  p {
    color: ${({ theme }) => theme.colors.ink};
  }
  footer {
    margin-top: ${({ theme }) => theme.space[2]};
    font-size: ${({ theme }) => theme.text.sm};
    color: ${({ theme }) => theme.colors.muted};
  }
`;

const Stats = styled.dl`
  display: grid;
  grid-template-columns: repeat(2, minmax(0, 1fr));
  gap: ${({ theme }) => theme.space[4]};
  margin: 0;
  div {
    border-radius: ${({ theme }) => theme.radius.lg};
    background: ${({ theme }) => theme.colors.primarySoft};
    padding: ${({ theme }) => theme.space[5]};
  }
  dt {
    font-size: ${({ theme }) => theme.text.sm};
    color: ${({ theme }) => theme.colors.inkSoft};
  }
  dd {
    margin: 0;
    font-size: ${({ theme }) => theme.text['3xl']};
    font-weight: 800;
    color: ${({ theme }) => theme.colors.primary};
  }
`;

const STATS = [
  { value: '200+', label: 'countries reached' },
  { value: '40%', label: 'cost reduction' },
  { value: '30%', label: 'better delivery' },
  { value: '0', label: 'fraud incidents' },
];

export function CaseStudy() {
  return (
    <Section id="case-study" eyebrow="Customer story" title="How a global payments provider rebuilt customer messaging">
      <Layout>
        <Story>
          <Customer>Atlas Pay</Customer>
          <p>
            Atlas Pay served merchants and cardholders through four messaging vendors and an in-house passcode service.
            Delivery varied by country, costs were hard to trace and passcode fraud kept rising.
          </p>
          <p>
            In one quarter the team moved alerts, support and authentication onto Converge: RCS and WhatsApp first with
            SMS fallback, an AI agent for card and dispute questions, and network verification in place of SMS codes.
          </p>
          <Quote>
            <p>&ldquo;We replaced four vendors with one platform and stopped treating fraud as a cost of doing business.&rdquo;</p>
            <footer>Head of Customer Operations, Atlas Pay</footer>
          </Quote>
        </Story>
        <Stats aria-label="Atlas Pay results">
          {STATS.map((stat) => (
            <div key={stat.label}>
              <dt>{stat.label}</dt>
              <dd>{stat.value}</dd>
            </div>
          ))}
        </Stats>
      </Layout>
    </Section>
  );
}
