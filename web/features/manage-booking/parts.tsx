import type { ReactNode } from 'react';
import { styled } from 'styled-components';
import { Button } from '../../components/button.js';
import { AlertIcon } from '../../components/icons.js';
import { VisuallyHidden } from '../../components/visually-hidden.js';

/** The parts the booking's page and panels share: their box, title, buttons, a line that waits, and why a change failed. */

export const LoadingLine = styled.p`
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space[3]};
  margin-top: ${({ theme }) => theme.space[6]};
  color: ${({ theme }) => theme.colors.inkSoft};
`;

export const PanelBox = styled.section`
  margin-top: ${({ theme }) => theme.space[6]};
  padding-top: ${({ theme }) => theme.space[6]};
  border-top: 1px solid ${({ theme }) => theme.colors.border};
`;

export const PanelTitle = styled.h2`
  font-size: ${({ theme }) => theme.text.xl};
  font-weight: 700;
`;

export const PanelText = styled.p`
  margin: ${({ theme }) => `${theme.space[2]} 0 ${theme.space[4]}`};
  color: ${({ theme }) => theme.colors.inkSoft};
`;

export const Buttons = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space[3]};
  margin-top: ${({ theme }) => theme.space[4]};
`;

export const DangerButton = styled(Button)`
  background: ${({ theme }) => theme.colors.danger};
  color: #fff;
  &:hover:not(:disabled) {
    background: #991b1b;
  }
`;

const ProblemText = styled.p`
  display: flex;
  align-items: flex-start;
  gap: ${({ theme }) => theme.space[2]};
  margin-top: ${({ theme }) => theme.space[4]};
  padding: ${({ theme }) => `${theme.space[3]} ${theme.space[4]}`};
  border-left: 4px solid ${({ theme }) => theme.colors.danger};
  border-radius: ${({ theme }) => theme.radius.sm};
  background: #fef2f2;
  color: ${({ theme }) => theme.colors.danger};
  svg {
    flex: none;
    margin-top: 3px;
  }
`;

/**
 * Why the last change failed. The alert region is always there, so a screen reader hears each new message; a message
 * already shown under the time field (`shownElsewhere`) is only spoken, not shown twice.
 */
export function Problem({
  text,
  shownElsewhere = false,
}: {
  text: string | undefined;
  shownElsewhere?: boolean;
}): ReactNode {
  let message: ReactNode = null;
  if (text && shownElsewhere) message = <VisuallyHidden>{text}</VisuallyHidden>;
  else if (text) {
    message = (
      <ProblemText>
        <AlertIcon size={18} />
        {text}
      </ProblemText>
    );
  }
  return <div role="alert">{message}</div>;
}
