import { useEffect, useId, type ReactNode } from 'react';
import { styled } from 'styled-components';

export const Panel = styled.section`
  background: ${({ theme }) => theme.colors.surface};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius.md};
  padding: ${({ theme }) => theme.space[6]};
  display: grid;
  /* One column that its content cannot widen: a wide table scrolls in its own box. */
  grid-template-columns: minmax(0, 1fr);
  min-width: 0;
  gap: ${({ theme }) => theme.space[4]};
`;

export const Heading = styled.h1`
  font-size: ${({ theme }) => theme.text['2xl']};
  &:focus {
    outline: none;
  }
  &:focus-visible {
    outline: 3px solid ${({ theme }) => theme.colors.focus};
  }
`;

export const SubHeading = styled.h2`
  font-size: ${({ theme }) => theme.text.xl};
  &:focus {
    outline: none;
  }
  &:focus-visible {
    outline: 3px solid ${({ theme }) => theme.colors.focus};
  }
`;

export const Field = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space[1]};
  min-width: 0;
  label {
    font-weight: 600;
    font-size: ${({ theme }) => theme.text.sm};
  }
  input,
  select {
    width: 100%;
    min-width: 0;
    box-sizing: border-box;
    min-height: 40px;
    border: 1px solid ${({ theme }) => theme.colors.borderStrong};
    border-radius: ${({ theme }) => theme.radius.sm};
    background: #fff;
    padding: 0 ${({ theme }) => theme.space[3]};
    font-size: ${({ theme }) => theme.text.md};
    color: ${({ theme }) => theme.colors.ink};
  }
  input:focus-visible,
  select:focus-visible {
    outline: 3px solid ${({ theme }) => theme.colors.focus};
    outline-offset: 1px;
  }
`;

/** Facts about a booking: each name beside its value. */
export const Facts = styled.dl`
  display: grid;
  grid-template-columns: max-content 1fr;
  gap: ${({ theme }) => `${theme.space[1]} ${theme.space[4]}`};
  dt {
    font-weight: 700;
  }
`;

export const Alert = styled.p`
  color: ${({ theme }) => theme.colors.danger};
  font-weight: 600;
`;

export const Muted = styled.p`
  color: ${({ theme }) => theme.colors.inkSoft};
  font-size: ${({ theme }) => theme.text.sm};
`;

/**
 * A table wider than a phone scrolls inside its own box rather than widening the page. The box is a named region a
 * keyboard can reach (its arrow keys then scroll it), as a scrollable area must be.
 */
const TableScroll = styled.div`
  overflow-x: auto;
  &:focus-visible {
    outline: 3px solid ${({ theme }) => theme.colors.focus};
    outline-offset: 2px;
  }
`;

const StyledTable = styled.table`
  width: 100%;
  border-collapse: collapse;
  font-size: ${({ theme }) => theme.text.sm};
  th,
  td {
    text-align: left;
    vertical-align: top;
    padding: ${({ theme }) => `${theme.space[2]} ${theme.space[3]}`};
    border-bottom: 1px solid ${({ theme }) => theme.colors.border};
  }
  thead th {
    color: ${({ theme }) => theme.colors.inkSoft};
    font-weight: 700;
  }
`;

/** A table's title, above its scrolling box so that it stays whole on a phone; it names the table and the box. */
const TableTitle = styled.p`
  font-weight: 700;
  font-size: ${({ theme }) => theme.text.sm};
  margin-bottom: -${({ theme }) => theme.space[2]};
`;

export function Table({ title, children }: { title: ReactNode; children: ReactNode }) {
  const titleId = useId();
  return (
    <>
      <TableTitle id={titleId}>{title}</TableTitle>
      <TableScroll role="region" aria-labelledby={titleId} tabIndex={0}>
        <StyledTable aria-labelledby={titleId}>{children}</StyledTable>
      </TableScroll>
    </>
  );
}

/** A button that looks like a link: a row's way into its booking. */
export const LinkButton = styled.button`
  background: none;
  border: 0;
  padding: 0;
  font: inherit;
  font-weight: 700;
  color: ${({ theme }) => theme.colors.primary};
  text-decoration: underline;
  cursor: pointer;
  text-align: left;
  &:focus-visible {
    outline: 3px solid ${({ theme }) => theme.colors.focus};
    outline-offset: 2px;
  }
`;

export const Toolbar = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space[3]};
  align-items: center;
`;

/** Dates and times in the booking zone, as sales plans them. */
export function formatInstant(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

export const STATUS_LABELS = {
  booked: 'Booked',
  cancelled: 'Cancelled',
  attended: 'Attended',
  no_show: 'No-show',
} as const;

/** What a booking's status reads as: cancelled, else its mark, else booked. */
/** The words a booking that needs a new time shows in the list and in its view. */
export const NEEDS_NEW_TIME_LABEL = 'Needs a new time';

export function statusOf(booking: {
  status: 'booked' | 'cancelled';
  attendance: 'attended' | 'no_show' | null;
  needsNewTime?: { reason: 'host-deleted' | 'host-declined' } | null;
}): string {
  // Its host withdrew and nobody was free: never shown as an ordinary booking.
  if (booking.status === 'booked' && booking.needsNewTime) return NEEDS_NEW_TIME_LABEL;
  return STATUS_LABELS[booking.status === 'cancelled' ? 'cancelled' : (booking.attendance ?? 'booked')];
}

/** Asks for the session again when a read says it has ended (401), so the page shows the sign-in form. */
export function useSessionEnd(error: unknown, onSessionEnded: () => void): void {
  const ended = typeof error === 'object' && error !== null && 'status' in error && error.status === 401;
  useEffect(() => {
    if (ended) onSessionEnded();
  }, [ended, onSessionEnded]);
}

/** A table's head: one column header per name. */
export function ColumnHeads({ names }: { names: readonly string[] }) {
  return (
    <thead>
      <tr>
        {names.map((name) => (
          <th key={name} scope="col">
            {name}
          </th>
        ))}
      </tr>
    </thead>
  );
}
