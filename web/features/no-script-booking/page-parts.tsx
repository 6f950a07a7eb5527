import type { ReactNode } from 'react';
import { styled } from 'styled-components';
import type { FormProblems } from '../../../domain/no-script-pages.js';
import { Button } from '../../components/button.js';
import { Container } from '../../components/layout.js';
import { BookingCard, BookingPageColumn, BookingPageMain } from '../../components/booking-page.js';

/** The box, title and buttons of the booking pages without script, in the manage page's look. */

export function PageCard({ children }: { children: ReactNode }) {
  return (
    <BookingPageMain id="main">
      <Container>
        <BookingPageColumn>
          <BookingCard>{children}</BookingCard>
        </BookingPageColumn>
      </Container>
    </BookingPageMain>
  );
}

export const Title = styled.h1`
  font-size: ${({ theme }) => theme.text['3xl']};
  font-weight: 800;
`;

export const Lead = styled.p`
  margin: ${({ theme }) => `${theme.space[3]} 0 ${theme.space[6]}`};
  color: ${({ theme }) => theme.colors.inkSoft};
`;

export const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${({ theme }) => theme.space[3]};
  margin-top: ${({ theme }) => theme.space[6]};
`;

export const DangerButton = styled(Button)`
  background: ${({ theme }) => theme.colors.danger};
  color: #fff;
  &:hover:not(:disabled) {
    background: #991b1b;
  }
`;

const Summary = styled.div`
  margin-bottom: ${({ theme }) => theme.space[6]};
  padding: ${({ theme }) => `${theme.space[4]} ${theme.space[5]}`};
  border: 3px solid ${({ theme }) => theme.colors.danger};
  border-radius: ${({ theme }) => theme.radius.md};
  &:focus-visible {
    outline: 3px solid ${({ theme }) => theme.colors.focus};
    outline-offset: 2px;
  }
  h2 {
    font-size: ${({ theme }) => theme.text.lg};
    font-weight: 700;
  }
  p,
  ul {
    margin-top: ${({ theme }) => theme.space[2]};
  }
  ul {
    padding-left: ${({ theme }) => theme.space[5]};
  }
  a {
    color: ${({ theme }) => theme.colors.danger};
    font-weight: 600;
  }
`;

export const ERROR_SUMMARY_TITLE = 'There is a problem';

/**
 * What the server refused, at the top of the form: the page's first focus (autofocus, no script needed), each field's
 * message a link to its field, where the same message is shown beside it.
 */
export function ErrorSummary({
  problems,
  targets,
}: {
  problems: FormProblems;
  /** The element each field's link goes to, by field. */
  targets: Partial<Record<string, string>>;
}) {
  const fields = Object.entries(problems.fields).filter((entry): entry is [string, string] => Boolean(entry[1]));
  if (!problems.summary && fields.length === 0) return null;
  return (
    <Summary tabIndex={-1} autoFocus aria-labelledby="error-summary-title">
      <h2 id="error-summary-title">{ERROR_SUMMARY_TITLE}</h2>
      {problems.summary ? <p>{problems.summary}</p> : null}
      {fields.length > 0 ? (
        <ul>
          {fields.map(([field, message]) => {
            const target = targets[field];
            return <li key={field}>{target ? <a href={`#${target}`}>{message}</a> : message}</li>;
          })}
        </ul>
      ) : null}
    </Summary>
  );
}
