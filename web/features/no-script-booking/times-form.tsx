import { styled } from 'styled-components';
import { ATTRIBUTION_KEYS, type Attribution } from '../../../domain/attribution.js';
import { parseCalendarDay } from '../../../domain/booking.js';
import { BOOK_PATH, FROM_PARAMETER, ZONE_PARAMETER, type SlotChoices } from '../../../domain/no-script-pages.js';
import { Button } from '../../components/button.js';
import { Hint } from '../../components/form-parts.js';
import { Field, Select } from './question-fields.js';

/**
 * Which times a form without script shows: the visitor's time zone (the booking form's) and the week, sent by "Show
 * times" as a GET of the page (a form of its own, TIMES_FORM_ID, which these controls name by their form attribute:
 * they sit among the other form's fields but post none of them, and Enter in a field still sends that form). The
 * visit's attribution rides along as hidden fields, so the page shown next carries it too.
 */
export const TIMES_FORM_ID = 'times';

const Row = styled.div<{ $zone: boolean }>`
  display: grid;
  gap: ${({ theme }) => theme.space[3]};
  align-items: end;
  ${({ theme }) => theme.media.sm} {
    grid-template-columns: ${({ $zone }) => ($zone ? 'minmax(0, 3fr) minmax(0, 2fr) auto' : 'minmax(0, 1fr) auto')};
  }
`;

/** Every zone this server knows, by its IANA name (as a browser names its own zone); the chosen one among them. */
function zoneChoices(chosen: string): string[] {
  const zones = Intl.supportedValuesOf('timeZone');
  return zones.includes(chosen) ? zones : [chosen, ...zones];
}

/** "America/New_York" as "America/New York": the IANA name, readable. */
const zoneName = (zone: string) => zone.replace(/_/g, ' ');

/** "Mon 7 Dec": a week's first day, short enough for its select. */
const weekDay = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });

/** The form the times controls belong to (a GET of `action`): empty, its controls are in the other form's markup. */
export function TimesForm({ action = BOOK_PATH }: { action?: string }) {
  return <form id={TIMES_FORM_ID} method="get" action={action} aria-label="Times shown" />;
}

/**
 * The zone (`visitorZone`; none on a move's form, whose booking keeps the zone it was booked with) and the week, and
 * the attribution to carry (the booking form's).
 */
export function TimesChooser({
  idPrefix,
  choices,
  visitorZone,
  attribution = {},
}: {
  idPrefix: string;
  choices: SlotChoices;
  visitorZone?: string;
  attribution?: Attribution;
}) {
  const weeks = choices.weeks ?? [];
  const hintId = `${idPrefix}-times-hint`;
  return (
    <>
      <Row $zone={visitorZone !== undefined}>
        {visitorZone === undefined ? null : (
          <Field>
            <label htmlFor={`${idPrefix}-zone`}>Your time zone</label>
            <Select
              id={`${idPrefix}-zone`}
              form={TIMES_FORM_ID}
              name={ZONE_PARAMETER}
              defaultValue={visitorZone}
              $invalid={false}
              aria-describedby={hintId}
            >
              {zoneChoices(visitorZone).map((zone) => (
                <option key={zone} value={zone}>
                  {zoneName(zone)}
                </option>
              ))}
            </Select>
          </Field>
        )}
        <Field>
          <label htmlFor={`${idPrefix}-week`}>Week</label>
          <Select
            id={`${idPrefix}-week`}
            form={TIMES_FORM_ID}
            name={FROM_PARAMETER}
            defaultValue={choices.from}
            $invalid={false}
            aria-describedby={hintId}
          >
            {weeks.map((date, index) => {
              const day = parseCalendarDay(date);
              return (
                <option key={date} value={date}>
                  {index === 0 ? 'From ' : 'Week of '}
                  {day ? weekDay.format(new Date(Date.UTC(day.year, day.month - 1, day.day))) : date}
                </option>
              );
            })}
          </Select>
        </Field>
        <div>
          <Button type="submit" form={TIMES_FORM_ID} $variant="secondary">
            Show times
          </Button>
        </div>
      </Row>
      {ATTRIBUTION_KEYS.filter((key) => attribution[key]).map((key) => (
        <input key={key} type="hidden" form={TIMES_FORM_ID} name={key} value={attribution[key]} />
      ))}
      <Hint id={hintId}>
        {visitorZone === undefined
          ? 'A week at a time, up to a month ahead.'
          : 'A week at a time, up to a month ahead. Choose these first: showing other times opens the form again, without what you typed.'}
      </Hint>
    </>
  );
}
