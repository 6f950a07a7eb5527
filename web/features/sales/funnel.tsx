import { useState, type FormEvent } from 'react';
import { styled } from 'styled-components';
import { Button } from '../../components/button.js';
import { serverMessage } from '../../store/api-errors.js';
import { useFunnelQuery } from '../../store/sales-api.js';
import { calendarDayOf, formatCalendarDay } from '../../../domain/booking.js';
import { FUNNEL_STEPS, type FunnelDay, type FunnelStep, type StepCounts } from '../../../domain/funnel.js';
import { Alert, ColumnHeads, Field, Muted, Panel, SubHeading, Table, Toolbar, useSessionEnd } from './parts.js';

const Range = styled.form`
  display: grid;
  gap: ${({ theme }) => theme.space[3]};
  grid-template-columns: repeat(auto-fill, minmax(11rem, 1fr));
  align-items: end;
`;

const STEP_LABELS: Record<FunnelStep, string> = {
  dialogOpened: 'Dialog opened',
  emailAccepted: 'E-mail accepted',
  slotChosen: 'Slot chosen',
  booked: 'Booked',
};
const STEP_NAMES = FUNNEL_STEPS.map((step) => STEP_LABELS[step]);
const NO_SOURCE = '(none)';
const DAYS_SHOWN = 30;

const sourceName = (source: string | null) => source ?? NO_SOURCE;
const percent = (part: number, whole: number) => (whole > 0 ? `${Math.round((part / whole) * 100)}%` : '—');

/** The last DAYS_SHOWN days up to today, in the booking zone. */
function lastDays(timeZone: string): { from: string; to: string } {
  const today = calendarDayOf(new Date(), timeZone);
  const first = new Date(Date.UTC(today.year, today.month - 1, today.day - (DAYS_SHOWN - 1)));
  return {
    from: formatCalendarDay({ year: first.getUTCFullYear(), month: first.getUTCMonth() + 1, day: first.getUTCDate() }),
    to: formatCalendarDay(today),
  };
}

/** The range's counts summed per source, the largest first. */
function bySource(days: readonly FunnelDay[]): [string | null, StepCounts][] {
  const totals = new Map<string | null, StepCounts>();
  for (const { source, counts } of days) {
    const sum = totals.get(source) ?? (Object.fromEntries(FUNNEL_STEPS.map((step) => [step, 0])) as StepCounts);
    for (const step of FUNNEL_STEPS) sum[step] += counts[step];
    totals.set(source, sum);
  }
  return [...totals].sort(
    ([a, x], [b, y]) => y.dialogOpened - x.dialogOpened || sourceName(a).localeCompare(sourceName(b)),
  );
}

function StepCells({ counts }: { counts: StepCounts }) {
  return (
    <>
      {FUNNEL_STEPS.map((step) => (
        <td key={step}>{counts[step]}</td>
      ))}
    </>
  );
}

/**
 * The funnel (GET /api/admin/funnel): the anonymous counts of the dialog's steps per source and per day, and per
 * source how many of the range's demos sales marked attended or no-show.
 */
export function FunnelPanel({ timeZone, onSessionEnded }: { timeZone: string; onSessionEnded: () => void }) {
  const [range, setRange] = useState(() => lastDays(timeZone));
  const [draft, setDraft] = useState(range);
  const { data, error, isFetching } = useFunnelQuery(range);
  useSessionEnd(error, onSessionEnded);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setRange(draft);
  };
  const sources = data ? bySource(data.days) : [];
  return (
    <Panel aria-labelledby="funnel-title">
      <SubHeading id="funnel-title">Funnel</SubHeading>
      <Muted>
        How far visits get in the Request Demo dialog, counted per day and campaign source (utm_source), with nothing
        that tells one visitor from another.
      </Muted>
      <Range aria-label="Funnel days" onSubmit={submit}>
        <Field>
          <label htmlFor="funnel-from">From</label>
          <input
            id="funnel-from"
            type="date"
            required
            value={draft.from}
            onChange={(event) => setDraft({ ...draft, from: event.target.value })}
          />
        </Field>
        <Field>
          <label htmlFor="funnel-to">To</label>
          <input
            id="funnel-to"
            type="date"
            required
            value={draft.to}
            onChange={(event) => setDraft({ ...draft, to: event.target.value })}
          />
        </Field>
        <Toolbar>
          <Button type="submit">Show the funnel</Button>
        </Toolbar>
      </Range>
      <p role="status" aria-live="polite">
        {isFetching ? 'Loading the funnel…' : data ? `The funnel from ${data.from} to ${data.to}.` : ''}
      </p>
      {error ? (
        <Alert role="alert">{serverMessage(error) ?? 'The funnel could not be read. Please try again.'}</Alert>
      ) : null}
      {data ? (
        <>
          <Table title="Steps per source">
            <ColumnHeads names={['Source', ...STEP_NAMES, 'Opened to booked']} />
            <tbody>
              {sources.map(([source, counts]) => (
                <tr key={sourceName(source)}>
                  <th scope="row">{sourceName(source)}</th>
                  <StepCells counts={counts} />
                  <td>{percent(counts.booked, counts.dialogOpened)}</td>
                </tr>
              ))}
              {sources.length === 0 ? (
                <tr>
                  <td colSpan={STEP_NAMES.length + 2}>No steps counted on these days.</td>
                </tr>
              ) : null}
            </tbody>
          </Table>
          <Table title="Steps per day">
            <ColumnHeads names={['Day', 'Source', ...STEP_NAMES]} />
            <tbody>
              {data.days.map((day) => (
                <tr key={`${day.day} ${sourceName(day.source)}`}>
                  <th scope="row">{day.day}</th>
                  <td>{sourceName(day.source)}</td>
                  <StepCells counts={day.counts} />
                </tr>
              ))}
            </tbody>
          </Table>
          <Table title="Demos in these days per source: booked, and marked after the demo">
            <ColumnHeads names={['Source', 'Booked', 'Attended', 'No-show', 'Attended of those marked']} />
            <tbody>
              {data.attendance.map((row) => (
                <tr key={sourceName(row.source)}>
                  <th scope="row">{sourceName(row.source)}</th>
                  <td>{row.booked}</td>
                  <td>{row.attended}</td>
                  <td>{row.noShow}</td>
                  <td>{row.attendedRate === null ? '—' : `${Math.round(row.attendedRate * 100)}%`}</td>
                </tr>
              ))}
              {data.attendance.length === 0 ? (
                <tr>
                  <td colSpan={5}>No demos on these days.</td>
                </tr>
              ) : null}
            </tbody>
          </Table>
        </>
      ) : null}
    </Panel>
  );
}
