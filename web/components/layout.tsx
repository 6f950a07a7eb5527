import type { ReactNode } from 'react';
import { styled, css } from 'styled-components';

export const Container = styled.div`
  width: 100%;
  max-width: ${({ theme }) => theme.layout.maxWidth};
  margin: 0 auto;
  padding: 0 ${({ theme }) => theme.layout.gutter};
`;

type Tone = 'plain' | 'alt' | 'night';

const SectionShell = styled.section<{ $tone: Tone; $split: boolean }>`
  padding: ${({ theme }) => `${theme.space[16]} 0`};
  ${({ theme }) => theme.media.md} {
    padding: ${({ theme }) => `${theme.space[24]} 0`};
  }
  ${({ $tone, theme }) =>
    $tone === 'alt'
      ? css`
          background: ${theme.colors.surfaceAlt};
        `
      : $tone === 'night'
        ? css`
            background: ${theme.colors.night};
            color: ${theme.colors.onNight};
          `
        : css`
            background: ${theme.colors.surface};
          `}
  ${({ $split, theme }) =>
    $split &&
    css`
      ${theme.media.md} {
        > div {
          display: grid;
          grid-template-columns: minmax(0, 5fr) minmax(0, 7fr);
          gap: ${theme.space[16]};
          align-items: start;
        }
        > div > header {
          position: sticky;
          top: calc(${theme.layout.topBarHeight} + ${theme.space[8]});
          margin-bottom: 0;
        }
      }
    `}
`;

const Header = styled.header<{ $center: boolean }>`
  max-width: 46rem;
  margin-bottom: ${({ theme }) => theme.space[10]};
  ${({ $center }) =>
    $center &&
    css`
      margin-left: auto;
      margin-right: auto;
      text-align: center;
    `}
`;

export const Eyebrow = styled.p<{ $onNight?: boolean }>`
  font-size: ${({ theme }) => theme.text.sm};
  font-weight: 700;
  letter-spacing: 0.08em;
  text-transform: uppercase;
  color: ${({ theme, $onNight }) => ($onNight ? '#a5b4fc' : theme.colors.primary)};
  margin-bottom: ${({ theme }) => theme.space[3]};
`;

export const SectionTitle = styled.h2`
  font-size: ${({ theme }) => theme.text['3xl']};
  font-weight: 800;
`;

export const Lead = styled.p<{ $onNight?: boolean }>`
  margin-top: ${({ theme }) => theme.space[4]};
  font-size: ${({ theme }) => theme.text.lg};
  color: ${({ theme, $onNight }) => ($onNight ? theme.colors.onNightMuted : theme.colors.inkSoft)};
`;

interface SectionProps {
  id: string;
  /** The shape of the section's content, as data-layout: neighbours never share one, so the page does not repeat itself. */
  layout: string;
  eyebrow: string;
  title: string;
  lead?: string;
  tone?: Tone;
  center?: boolean;
  /** On wide screens, the heading beside the content, where it stays while the content scrolls. */
  split?: boolean;
  children: ReactNode;
}

/** A page section whose heading names it for assistive technology (aria-labelledby). */
export function Section({
  id,
  layout,
  eyebrow,
  title,
  lead,
  tone = 'plain',
  center = false,
  split = false,
  children,
}: SectionProps) {
  const onNight = tone === 'night';
  return (
    <SectionShell id={id} aria-labelledby={`${id}-title`} data-layout={layout} $tone={tone} $split={split}>
      <Container>
        <Header $center={center}>
          <Eyebrow $onNight={onNight}>{eyebrow}</Eyebrow>
          <SectionTitle id={`${id}-title`}>{title}</SectionTitle>
          {lead ? <Lead $onNight={onNight}>{lead}</Lead> : null}
        </Header>
        {children}
      </Container>
    </SectionShell>
  );
}

export const IconBadge = styled.span`
  display: inline-grid;
  place-items: center;
  width: ${({ theme }) => theme.size.iconTile};
  height: ${({ theme }) => theme.size.iconTile};
  border-radius: ${({ theme }) => theme.radius.md};
  background: ${({ theme }) => theme.colors.primarySoft};
`;

/**
 * A list of items under a rule, each an icon beside its title and text: open rows rather than boxed cards. One column
 * on phones, two from 640 px, `$columns` from 1100 px.
 */
export const IconList = styled.ul<{ $columns?: number }>`
  display: grid;
  column-gap: ${({ theme }) => theme.space[10]};
  padding: 0;
  list-style: none;
  ${({ theme }) => theme.media.sm} {
    grid-template-columns: repeat(2, minmax(0, 1fr));
  }
  ${({ theme }) => theme.media.lg} {
    grid-template-columns: repeat(${({ $columns = 2 }) => $columns}, minmax(0, 1fr));
  }
  li {
    display: grid;
    grid-template-columns: auto minmax(0, 1fr);
    /* The icon spans both rows: any height it adds goes to the text's row, so every title sits at the same place. */
    grid-template-rows: auto 1fr;
    gap: ${({ theme }) => `${theme.space[1]} ${theme.space[4]}`};
    padding: ${({ theme }) => `${theme.space[6]} 0`};
    border-top: 1px solid ${({ theme }) => theme.colors.border};
  }
  li > :first-child {
    grid-row: span 2;
  }
  h3 {
    align-self: center;
    font-size: ${({ theme }) => theme.text.lg};
  }
  p {
    color: ${({ theme }) => theme.colors.inkSoft};
  }
`;
