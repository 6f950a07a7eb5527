import type { ComponentType, ReactNode } from 'react';
import { styled, css } from 'styled-components';

export const Container = styled.div`
  width: 100%;
  max-width: ${({ theme }) => theme.layout.maxWidth};
  margin: 0 auto;
  padding: 0 ${({ theme }) => theme.layout.gutter};
`;

type Tone = 'plain' | 'alt' | 'night';

const SectionShell = styled.section<{ $tone: Tone }>`
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
  eyebrow: string;
  title: string;
  lead?: string;
  tone?: Tone;
  center?: boolean;
  children: ReactNode;
}

/** A page section whose heading names it for assistive technology (aria-labelledby). */
export function Section({ id, eyebrow, title, lead, tone = 'plain', center = false, children }: SectionProps) {
  const onNight = tone === 'night';
  return (
    <SectionShell id={id} aria-labelledby={`${id}-title`} $tone={tone}>
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

export const CardGrid = styled.ul<{ $columns?: number }>`
  list-style: none;
  padding: 0;
  display: grid;
  gap: ${({ theme }) => theme.space[6]};
  grid-template-columns: 1fr;
  ${({ theme }) => theme.media.sm} {
    grid-template-columns: repeat(2, minmax(0, 1fr));
  }
  ${({ theme }) => theme.media.lg} {
    grid-template-columns: repeat(${({ $columns = 3 }) => $columns}, minmax(0, 1fr));
  }
`;

export const Card = styled.li`
  background: ${({ theme }) => theme.colors.surface};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius.lg};
  padding: ${({ theme }) => theme.space[6]};
  box-shadow: ${({ theme }) => theme.shadow.card};
`;

export const CardTitle = styled.h3`
  font-size: ${({ theme }) => theme.text.xl};
  font-weight: 700;
  margin-top: ${({ theme }) => theme.space[4]};
`;

export const CardText = styled.p`
  margin-top: ${({ theme }) => theme.space[2]};
  color: ${({ theme }) => theme.colors.inkSoft};
`;

export const IconBadge = styled.span<{ $tone?: 'primary' | 'accent' }>`
  display: inline-grid;
  place-items: center;
  width: 44px;
  height: 44px;
  border-radius: ${({ theme }) => theme.radius.md};
  background: ${({ theme, $tone }) => ($tone === 'accent' ? theme.colors.accentSoft : theme.colors.primarySoft)};
  color: ${({ theme, $tone }) => ($tone === 'accent' ? theme.colors.accent : theme.colors.primary)};
`;

export interface IconCardProps {
  icon: ComponentType;
  title: string;
  text: string;
  tone?: 'primary' | 'accent';
  children?: ReactNode;
}

/** The card every section's grid is made of: an icon, a title, a line of text, and whatever follows. */
export function IconCard({ icon: Icon, title, text, tone, children }: IconCardProps) {
  return (
    <Card>
      <IconBadge $tone={tone}>
        <Icon />
      </IconBadge>
      <CardTitle>{title}</CardTitle>
      <CardText>{text}</CardText>
      {children}
    </Card>
  );
}
