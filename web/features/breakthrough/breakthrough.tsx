import { styled } from 'styled-components';
import { BotIcon, CheckIcon, CrossIcon, FingerprintIcon, MessageIcon } from '../../components/icons.js';
import { Section } from '../../components/layout.js';
import { VisuallyHidden } from '../../components/visually-hidden.js';

/**
 * A real table (caption, column and row-group headers), so a screen reader can say which side a cell is on. From 640 px
 * two columns, the Converge column tinted from top to bottom; on a phone each row is a card of its own, its two cells
 * one above the other and each labelled with its column's header, the layer's name a full-width heading above them.
 * Changing a table part's display makes some browsers drop its table role, so the parts carry their roles explicitly.
 */
const Table = styled.table`
  width: 100%;
  max-width: 60rem;
  margin: 0 auto;
  border-collapse: collapse;
  font-size: ${({ theme }) => theme.text.sm};
  th,
  td {
    text-align: left;
    vertical-align: top;
  }
  svg {
    display: inline;
    margin-right: ${({ theme }) => theme.space[2]};
    vertical-align: -4px;
  }
  td + td svg {
    color: ${({ theme }) => theme.colors.accent};
  }
  tbody th {
    font-size: ${({ theme }) => theme.text.sm};
    letter-spacing: 0.08em;
    text-transform: uppercase;
    color: ${({ theme }) => theme.colors.primary};
  }
  td {
    color: ${({ theme }) => theme.colors.inkSoft};
  }
  td + td {
    color: ${({ theme }) => theme.colors.ink};
    font-weight: 600;
  }

  @media (max-width: 639.98px) {
    &,
    tbody,
    tr,
    th,
    td {
      display: block;
    }
    /* The column headers name each cell instead (its label below); they stay in the table for screen readers. */
    thead {
      position: absolute;
      width: 1px;
      height: 1px;
      overflow: hidden;
      clip: rect(0 0 0 0);
      white-space: nowrap;
    }
    tbody + tbody {
      margin-top: ${({ theme }) => theme.space[6]};
    }
    tbody th {
      padding: ${({ theme }) => `${theme.space[2]} 0`};
    }
    tbody tr + tr {
      margin-top: ${({ theme }) => theme.space[3]};
    }
    tbody tr:has(td) {
      overflow: hidden;
      border: 1px solid ${({ theme }) => theme.colors.border};
      border-radius: ${({ theme }) => theme.radius.md};
    }
    td {
      padding: ${({ theme }) => theme.space[3]};
    }
    td + td {
      background: ${({ theme }) => theme.colors.primarySoft};
    }
    /* The column's header above the cell's text; read once, by the table's own headers, not twice. */
    td::before {
      display: block;
      margin-bottom: ${({ theme }) => theme.space[1]};
      font-size: ${({ theme }) => theme.text.xs};
      font-weight: 700;
      letter-spacing: 0.06em;
      text-transform: uppercase;
      color: ${({ theme }) => theme.colors.muted};
      content: attr(data-label);
      content: attr(data-label) / '';
    }
    td + td::before {
      color: ${({ theme }) => theme.colors.primary};
    }
  }

  ${({ theme }) => theme.media.sm} {
    table-layout: fixed;
    font-size: ${({ theme }) => theme.text.md};
    th,
    td {
      padding: ${({ theme }) => `${theme.space[4]} ${theme.space[5]}`};
    }
    thead th + th {
      border-radius: ${({ theme }) => `${theme.radius.lg} ${theme.radius.lg} 0 0`};
      background: ${({ theme }) => theme.colors.primary};
      color: #fff;
    }
    tbody th {
      padding-top: ${({ theme }) => theme.space[8]};
      background: linear-gradient(to right, transparent 50%, ${({ theme }) => theme.colors.primarySoft} 50%);
    }
    td {
      border-top: 1px solid ${({ theme }) => theme.colors.border};
    }
    td + td {
      background: ${({ theme }) => theme.colors.primarySoft};
    }
  }
`;

const COLUMNS = ['Point-solution stack', 'Converge'] as const;

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
      <Table role="table">
        <VisuallyHidden as="caption">The point-solution stack compared with Converge, layer by layer</VisuallyHidden>
        <thead role="rowgroup">
          <tr role="row">
            {COLUMNS.map((column) => (
              <th key={column} scope="col" role="columnheader">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        {LAYERS.map(({ name, icon: Icon, rows }) => (
          <tbody key={name} role="rowgroup">
            <tr role="row">
              <th colSpan={2} scope="rowgroup" role="rowheader">
                <Icon size={20} />
                {name}
              </th>
            </tr>
            {rows.map(([before, after]) => (
              <tr key={after} role="row">
                <td role="cell" data-label={COLUMNS[0]}>
                  <CrossIcon size={18} />
                  {before}
                </td>
                <td role="cell" data-label={COLUMNS[1]}>
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
