import { styled } from 'styled-components';
import { Wordmark } from '../../components/customer-wordmarks.js';
import { Section } from '../../components/layout.js';

const Layout = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space[10]};
  ${({ theme }) => theme.media.md} {
    grid-template-columns: minmax(0, 1.4fr) minmax(0, 1fr);
    gap: ${({ theme }) => theme.space[16]};
  }
`;

/** The quote leads: a person's words, named and placed, weigh more than the numbers beside them. */
const Quote = styled.figure`
  margin-top: ${({ theme }) => theme.space[6]};
  blockquote {
    font-size: ${({ theme }) => theme.text['2xl']};
    font-weight: 600;
    line-height: 1.35;
  }
  figcaption {
    display: flex;
    align-items: center;
    gap: ${({ theme }) => theme.space[3]};
    margin-top: ${({ theme }) => theme.space[6]};
    color: ${({ theme }) => theme.colors.inkSoft};
  }
  figcaption::before {
    content: 'EM';
    content: 'EM' / '';
    display: grid;
    place-items: center;
    flex: none;
    width: 48px;
    height: 48px;
    border-radius: 50%;
    background: ${({ theme }) => theme.colors.primary};
    color: #fff;
    font-weight: 700;
  }
  strong {
    display: block;
    color: ${({ theme }) => theme.colors.ink};
  }
`;

const Story = styled.div`
  margin-top: ${({ theme }) => theme.space[8]};
  color: ${({ theme }) => theme.colors.inkSoft};
  p + p {
    margin-top: ${({ theme }) => theme.space[4]};
  }
`;

/** Light tiles, so the dark results band just above is not repeated here. */
const Stats = styled.dl`
  display: grid;
  grid-template-columns: repeat(2, minmax(0, 1fr));
  align-self: start;
  gap: ${({ theme }) => theme.space[4]};
  margin: 0;
  div {
    display: flex;
    flex-direction: column-reverse;
    /* The figure first, at the tile's top in every tile, whatever its label's lines below it. */
    justify-content: flex-end;
    padding: ${({ theme }) => theme.space[6]};
    border-radius: ${({ theme }) => theme.radius.lg};
    background: ${({ theme }) => theme.colors.primarySoft};
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
    <Section
      id="case-study"
      layout="story"
      eyebrow="Customer story"
      title="How a global payments provider rebuilt customer messaging"
    >
      <Layout>
        <div>
          <h3>
            <Wordmark name="Valmora Pay" />
          </h3>
          <Quote>
            <blockquote>
              <p>
                &ldquo;We replaced four vendors with one platform and stopped treating fraud as a cost of doing
                business.&rdquo;
              </p>
            </blockquote>
            <figcaption>
              <span>
                <strong>Elena Marquardt</strong>
                Head of Customer Operations, Valmora Pay
              </span>
            </figcaption>
          </Quote>
          <Story>
            <p>
              Valmora Pay served merchants and cardholders through four messaging vendors and an in-house passcode
              service. Delivery varied by country, costs were hard to trace and passcode fraud kept rising.
            </p>
            <p>
              In one quarter the team moved alerts, support and authentication onto Converge: RCS and WhatsApp first
              with SMS fallback, an AI agent for card and dispute questions, and network verification in place of SMS
              codes.
            </p>
          </Story>
        </div>
        <Stats aria-label="Valmora Pay results">
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
