import { useState, type FormEvent } from 'react';
import { Button } from '../../components/button.js';
import { serverMessage } from '../../store/api-errors.js';
import { LIST_STATUSES, type ListStatus } from '../../../domain/sales.js';
import { filterQuery, useBookingListInfiniteQuery, type BookingListQuery } from '../../store/sales-api.js';
import {
  Alert,
  ColumnHeads,
  Field,
  formatInstant,
  LinkButton,
  Panel,
  STATUS_LABELS,
  statusOf,
  SubHeading,
  Table,
  Toolbar,
  useSessionEnd,
} from './parts.js';
import { styled } from 'styled-components';

const Filters = styled.form`
  display: grid;
  gap: ${({ theme }) => theme.space[3]};
  grid-template-columns: repeat(auto-fill, minmax(min(11rem, 100%), 1fr));
  align-items: end;
`;

/** The form's buttons, on a row of their own under the fields at every width. */
const FilterActions = styled(Toolbar)`
  grid-column: 1 / -1;
`;

const ExportLink = styled.a`
  font-weight: 700;
  color: ${({ theme }) => theme.colors.primary};
  &:focus-visible {
    outline: 3px solid ${({ theme }) => theme.colors.focus};
    outline-offset: 2px;
  }
`;

const EMPTY: BookingListQuery = {};

interface BookingListProps {
  timeZone: string;
  onOpen: (id: string) => void;
  onSessionEnded: () => void;
}

/** The filters' form: applied together on submit, so each change is not a request. */
function FilterForm({ onApply }: { onApply: (filters: BookingListQuery) => void }) {
  const [draft, setDraft] = useState<BookingListQuery>(EMPTY);
  const set = (name: keyof BookingListQuery) => (event: { target: { value: string } }) =>
    setDraft({ ...draft, [name]: event.target.value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(draft);
  };
  const reset = () => {
    setDraft(EMPTY);
    onApply(EMPTY);
  };
  return (
    <Filters role="search" aria-label="Bookings" onSubmit={submit}>
      <Field>
        <label htmlFor="filter-q">Name, company or e-mail starts with</label>
        <input id="filter-q" type="search" value={draft.q ?? ''} onChange={set('q')} />
      </Field>
      <Field>
        <label htmlFor="filter-status">Status</label>
        <select
          id="filter-status"
          value={draft.status ?? ''}
          onChange={(event) =>
            setDraft({ ...draft, status: (event.target.value || undefined) as ListStatus | undefined })
          }
        >
          <option value="">Any</option>
          {LIST_STATUSES.map((status) => (
            <option key={status} value={status}>
              {STATUS_LABELS[status]}
            </option>
          ))}
        </select>
      </Field>
      <Field>
        <label htmlFor="filter-from">Slot from</label>
        <input id="filter-from" type="date" value={draft.from ?? ''} onChange={set('from')} />
      </Field>
      <Field>
        <label htmlFor="filter-to">Slot to</label>
        <input id="filter-to" type="date" value={draft.to ?? ''} onChange={set('to')} />
      </Field>
      <Field>
        <label htmlFor="filter-host">Host e-mail</label>
        <input id="filter-host" type="text" value={draft.host ?? ''} onChange={set('host')} />
      </Field>
      <Field>
        <label htmlFor="filter-source">Source (utm_source)</label>
        <input id="filter-source" type="text" value={draft.source ?? ''} onChange={set('source')} />
      </Field>
      <FilterActions>
        <Button type="submit">Apply filters</Button>
        <Button type="button" $variant="secondary" onClick={reset}>
          Clear
        </Button>
      </FilterActions>
    </Filters>
  );
}

/** The bookings the filters select, newest first, a page at a time, with their export. */
export function BookingList({ timeZone, onOpen, onSessionEnded }: BookingListProps) {
  const [filters, setFilters] = useState<BookingListQuery>(EMPTY);
  const { data, error, isFetching, isLoading, hasNextPage, fetchNextPage, isFetchingNextPage } =
    useBookingListInfiniteQuery(filters);
  useSessionEnd(error, onSessionEnded);
  const bookings = data?.pages.flatMap((page) => page.demoRequests) ?? [];
  const count = `${bookings.length} ${bookings.length === 1 ? 'booking' : 'bookings'} shown${hasNextPage ? ', more available' : ''}.`;
  const query = filterQuery(filters);
  return (
    <Panel aria-labelledby="bookings-title">
      <SubHeading id="bookings-title">Bookings</SubHeading>
      <FilterForm onApply={setFilters} />
      <Toolbar>
        <p role="status" aria-live="polite">
          {isLoading || (isFetching && !isFetchingNextPage) ? 'Loading bookings…' : error ? '' : count}
        </p>
        <ExportLink href={`/api/admin/bookings.csv${query ? `?${query}` : ''}`} download>
          Export these bookings as CSV
        </ExportLink>
      </Toolbar>
      {error ? (
        <Alert role="alert">{serverMessage(error) ?? 'The bookings could not be read. Please try again.'}</Alert>
      ) : null}
      <Table title={`Bookings, newest first (times in ${timeZone})`}>
        <ColumnHeads names={['Name', 'Company', 'E-mail', 'Slot', 'Status', 'Host', 'Source', 'Booked']} />
        <tbody>
          {bookings.map((booking) => (
            <tr key={booking.id}>
              <th scope="row">
                <LinkButton type="button" onClick={() => onOpen(booking.id)}>
                  {booking.name || '(removed)'}
                </LinkButton>
              </th>
              <td>{booking.company}</td>
              <td>{booking.email}</td>
              <td>{formatInstant(booking.timeSlot, timeZone)}</td>
              <td>{statusOf(booking)}</td>
              <td>{booking.host?.name ?? ''}</td>
              <td>{booking.attribution?.utm_source ?? ''}</td>
              <td>{formatInstant(booking.createdAt, timeZone)}</td>
            </tr>
          ))}
        </tbody>
      </Table>
      {hasNextPage ? (
        <p>
          <Button type="button" $variant="secondary" onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
            {isFetchingNextPage ? 'Loading more…' : 'Show more bookings'}
          </Button>
        </p>
      ) : null}
    </Panel>
  );
}
