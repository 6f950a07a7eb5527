import { styled } from 'styled-components';
import { Section } from '../../components/layout.js';
import { VisuallyHidden } from '../../components/visually-hidden.js';
import { COUNT_UP_ATTRIBUTE } from './counters.js';

interface Metric {
  value: number;
  suffix: string;
  label: string;
  detail: string;
}

const METRICS: readonly Metric[] = [
  {
    value: 40,
    suffix: '%',
    label: 'Cost optimization',
    detail: 'from consolidating channel vendors and automating routine contacts',
  },
  {
    value: 2,
    suffix: 'x',
    label: 'Faster automation',
    detail: 'from idea to live journey with reusable flows and one API',
  },
  {
    value: 100,
    suffix: '%',
    label: 'Fraud-free authentication',
    detail: 'with network-based verification instead of interceptable codes',
  },
  {
    value: 30,
    suffix: '%',
    label: 'Higher delivery',
    detail: 'through intelligent routing and automatic channel fallback',
  },
  {
    value: 1,
    suffix: ' platform',
    label: 'Every channel',
    detail: 'messaging, AI agents and network APIs under one contract and one API',
  },
];

/**
 * Each card spans three rows of the list's grid (value, label, detail) and lays its parts on them (subgrid), so in a
 * row of cards every label and every detail starts at the same height, whatever the lines of its neighbours.
 */
const List = styled.ul`
  display: grid;
  gap: ${({ theme }) => theme.space[3]};
  padding: 0;
  list-style: none;
  grid-template-columns: repeat(auto-fit, minmax(11rem, 1fr));
`;

const Item = styled.li`
  display: grid;
  grid-row: span 3;
  grid-template-rows: subgrid;
  row-gap: ${({ theme }) => theme.space[2]};
  border: 1px solid rgba(165, 180, 252, 0.25);
  border-radius: ${({ theme }) => theme.radius.lg};
  background: ${({ theme }) => theme.colors.nightSoft};
  padding: ${({ theme }) => theme.space[4]};
`;

/** On paper the final value (the screen readers' copy) is what shows, whatever the count had reached. */
const Value = styled.p`
  font-size: clamp(2.25rem, 1.9rem + 1vw, 2.75rem);
  font-weight: 800;
  line-height: 1.1;
  font-variant-numeric: tabular-nums;
  color: #fff;
  white-space: nowrap;
  @media print {
    > [aria-hidden] {
      display: none;
    }
    > :last-child {
      position: static !important;
      width: auto;
      height: auto;
      margin: 0;
      clip: auto;
    }
  }
`;

/** A word after the number ("platform") is set smaller so the card stays one line wide. */
const Unit = styled.span<{ $word: boolean }>`
  font-size: ${({ $word }) => ($word ? '0.55em' : '1em')};
`;

/** Balanced: a label too long for one line breaks between its halves, never leaving one word on a line of its own. */
const Label = styled.h3`
  font-size: ${({ theme }) => theme.text.md};
  line-height: 1.3;
  text-wrap: balance;
  color: #c7d2fe;
`;

const Detail = styled.p`
  font-size: ${({ theme }) => theme.text.sm};
  color: ${({ theme }) => theme.colors.onNightMuted};
`;

/**
 * The cards are rendered with their final values; counters.ts counts them up from 0 once the list scrolls into view.
 */
export function Metrics() {
  return (
    <Section
      id="results"
      layout="stats"
      tone="night"
      eyebrow="Results"
      title="Measured across enterprise deployments"
      lead="What customers report after moving their customer communication onto Converge."
    >
      <List {...{ [COUNT_UP_ATTRIBUTE]: '' }}>
        {METRICS.map((metric) => (
          <Item key={metric.label}>
            <Value>
              <span aria-hidden="true">
                {metric.value}
                <Unit $word={metric.suffix.trim().length > 1}>{metric.suffix}</Unit>
              </span>
              <VisuallyHidden>
                {metric.value}
                {metric.suffix}
              </VisuallyHidden>
            </Value>
            <Label>{metric.label}</Label>
            <Detail>{metric.detail}</Detail>
          </Item>
        ))}
      </List>
    </Section>
  );
}
