import { styled } from 'styled-components';
import { BotIcon, CheckIcon, CrossIcon, FingerprintIcon, MessageIcon } from '../../components/icons.js';
import { Section } from '../../components/layout.js';
import { VisuallyHidden } from '../../components/visually-hidden.js';

/**
 * A real table (caption, column and row-group headers), so a screen reader can say which side a cell is on. Two equal
 * columns keep it readable at 375 px; the Converge column is tinted from top to bottom, row-group rows included.
 */
const Table = styled.table`
  width: 100%;
  max-width: 60rem;
  margin: 0 auto;
  table-layout: fixed;
  border-collapse: collapse;
  font-size: ${({ theme }) => theme.text.sm};
  th,
  td {
    padding: ${({ theme }) => theme.space[3]};
    text-align: left;
    vertical-align: top;
  }
  ${({ theme }) => theme.media.sm} {
    font-size: ${({ theme }) => theme.text.md};
    th,
    td {
      padding: ${({ theme }) => `${theme.space[4]} ${theme.space[5]}`};
    }
  }
  thead th + th {
    border-radius: ${({ theme }) => `${theme.radius.lg} ${theme.radius.lg} 0 0`};
    background: ${({ theme }) => theme.colors.primary};
    color: #fff;
  }
  tbody th {
    padding-top: ${({ theme }) => theme.space[8]};
    font-size: ${({ theme }) => theme.text.sm};
    letter-spacing: 0.08em;
    text-transform: uppercase;
    color: ${({ theme }) => theme.colors.primary};
    background: linear-gradient(to right, transparent 50%, ${({ theme }) => theme.colors.primarySoft} 50%);
  }
  td {
    border-top: 1px solid ${({ theme }) => theme.colors.border};
    color: ${({ theme }) => theme.colors.inkSoft};
  }
  td + td {
    background: ${({ theme }) => theme.colors.primarySoft};
    color: ${({ theme }) => theme.colors.ink};
    font-weight: 600;
  }
  svg {
    display: inline;
    margin-right: ${({ theme }) => theme.space[2]};
    vertical-align: -4px;
  }
  td + td svg {
    color: ${({ theme }) => theme.colors.accent};
  }
`;

const LAYERS = [
  {
    name: 'Unified messaging',
    icon: MessageIcon,
    rows: [
      ['A vendor, a contract and an API for each channel', 'SMS, WhatsApp, RCS, email and voice on one API'],
      ['Fallback you build, and a report per vendor', 'Smart routing, automatic fallback, one delivery report'],
    ],
  },
  {
    name: 'AI agents',
    icon: BotIcon,
    rows: [
      ['Scripted bots answer FAQs, then hand off', 'Agents grounded in your knowledge and APIs finish the task'],
      ['The customer starts again with a person', 'Hand-off with full context, guardrails and an audit trail'],
    ],
  },
  {
    name: 'Network APIs',
    icon: FingerprintIcon,
    rows: [
      ['Passcodes that get phished or intercepted', 'Silent number verification from the mobile network'],
      ['SIM swaps found after the loss', 'SIM swap and device checks, fraud scoring on every session'],
    ],
  },
];

export function Breakthrough() {
  return (
    <Section
      id="platform"
      layout="comparison"
      center
      eyebrow="The breakthrough"
      title="Channels, AI and the network, working as one"
      lead="Converge puts the three layers of customer communication on one platform, so a conversation can verify, decide and act in the same flow."
    >
      <Table>
        <VisuallyHidden as="caption">The point-solution stack compared with Converge, layer by layer</VisuallyHidden>
        <thead>
          <tr>
            <th scope="col">Point-solution stack</th>
            <th scope="col">Converge</th>
          </tr>
        </thead>
        {LAYERS.map(({ name, icon: Icon, rows }) => (
          <tbody key={name}>
            <tr>
              <th colSpan={2} scope="rowgroup">
                <Icon size={20} />
                {name}
              </th>
            </tr>
            {rows.map(([before, after]) => (
              <tr key={after}>
                <td>
                  <CrossIcon size={18} />
                  {before}
                </td>
                <td>
                  <CheckIcon size={18} />
                  {after}
                </td>
              </tr>
            ))}
          </tbody>
        ))}
      </Table>
    </Section>
  );
}
