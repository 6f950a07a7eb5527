import type { ReactNode } from 'react';
import { styled } from 'styled-components';
import { bookingZoneLabel, parseCalendarDay, SLOT_DURATION_MINUTES } from '../../../domain/booking.js';
import { fieldLabels } from '../../../domain/demo-request.js';
import type { SlotChoices } from '../../../domain/no-script-pages.js';
import { FieldError, Hint } from '../../components/form-parts.js';
import { clockLabel, formatDayLong, visitorClockLabel } from '../date-time-picker/booking-calendar.js';

const Group = styled.fieldset`
  border: 0;
  padding: 0;
  margin: 0;
  min-width: 0;
  display: grid;
  gap: ${({ theme }) => theme.space[2]};
  > legend {
    padding: 0;
    font-weight: 600;
    font-size: ${({ theme }) => theme.text.sm};
  }
`;

const Day = styled.fieldset`
  border: 0;
  padding: 0;
  margin: ${({ theme }) => `${theme.space[3]} 0 0`};
  min-width: 0;
  > legend {
    padding: 0;
    margin-bottom: ${({ theme }) => theme.space[2]};
    font-weight: 700;
  }
`;

const Times = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(9.5rem, 1fr));
  gap: ${({ theme }) => theme.space[2]};
`;

/** A choice: the native radio and its label in one box, so the whole box takes the click. */
const Choice = styled.div<{ $invalid: boolean }>`
  position: relative;
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space[2]};
  min-height: 44px;
  padding: ${({ theme }) => `${theme.space[1]} ${theme.space[3]}`};
  border: 1px solid ${({ theme, $invalid }) => ($invalid ? theme.colors.danger : theme.colors.borderStrong)};
  border-radius: ${({ theme }) => theme.radius.sm};
  background: #fff;
  input {
    position: relative;
    z-index: 1;
    flex: none;
    width: 1.125rem;
    height: 1.125rem;
    margin: 0;
    accent-color: ${({ theme }) => theme.colors.primary};
  }
  input:focus-visible {
    outline: 3px solid ${({ theme }) => theme.colors.focus};
    outline-offset: 2px;
  }
  label {
    font-weight: 600;
    cursor: pointer;
  }
  /* The label covers the box (under the radio itself), so a press anywhere in it chooses the time. */
  label::after {
    content: '';
    position: absolute;
    inset: 0;
  }
  &:has(input:checked) {
    border-color: ${({ theme }) => theme.colors.primary};
    box-shadow: inset 0 0 0 1px ${({ theme }) => theme.colors.primary};
  }
`;

const Host = styled.span`
  display: block;
  font-weight: 400;
  font-size: ${({ theme }) => theme.text.sm};
  color: ${({ theme }) => theme.colors.inkSoft};
`;

/** "Ana Lee", "Ana Lee or Ben Ode", "Ana Lee, Ben Ode or Cy Ray". */
function anyOf(names: readonly string[]): string {
  return names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} or ${names.at(-1) ?? ''}`;
}

/** The id of the first choice (what an error's link goes to), or of the group when there is none. */
export function slotChoicesTarget(idPrefix: string, choices: SlotChoices): string {
  return choices.days.some((day) => day.slots.length > 0) ? `${idPrefix}-0` : `${idPrefix}-group`;
}

/**
 * The free slots of the next working days as radio buttons, a fieldset per day: the times on the booking zone's clock,
 * the zone named above them, each with the visitor's own time beside it where their zone's clock reads otherwise (as
 * the dialog shows them), with a team the hosts free then. Arrow keys move between the times, as in any radio group.
 * `children` go above the days (the booking form's choice of zone and week).
 */
export function SlotChoiceField({
  idPrefix,
  name,
  choices,
  zone,
  visitorZone = zone,
  chosen,
  error,
  children,
}: {
  idPrefix: string;
  name: string;
  choices: SlotChoices;
  zone: string;
  visitorZone?: string;
  chosen?: string | undefined;
  error?: string | undefined;
  children?: ReactNode;
}) {
  const hintId = `${idPrefix}-hint`;
  const errorId = `${idPrefix}-error`;
  let index = 0;
  const none = choices.days.every((day) => day.slots.length === 0);
  return (
    <Group id={`${idPrefix}-group`} aria-describedby={`${hintId} ${errorId}`}>
      <legend>{fieldLabels.timeSlot}</legend>
      <Hint id={hintId}>
        Times are in {bookingZoneLabel(zone)} ({zone})
        {visitorZone === zone ? '' : `, with yours (${visitorZone}) beside them where they differ`}. A demo takes{' '}
        {SLOT_DURATION_MINUTES} minutes.
      </Hint>
      {children}
      <FieldError id={errorId} message={error} />
      {none ? (
        <p>
          {choices.calendarsUnreadable
            ? `Our team's calendars cannot be read right now, so no time can be offered. Please try again shortly${choices.salesDesk ? `, or write to ${choices.salesDesk}` : ''}.`
            : 'No time is free in the next working days. Please try again later.'}
        </p>
      ) : null}
      {choices.days.map((day) => {
        const calendarDay = parseCalendarDay(day.date);
        if (!calendarDay || day.slots.length === 0) return null;
        return (
          <Day key={day.date}>
            <legend>{formatDayLong(calendarDay)}</legend>
            <Times>
              {day.slots.map((slot) => {
                const id = `${idPrefix}-${index}`;
                index += 1;
                const label = clockLabel(new Date(slot.start), zone);
                const local = visitorClockLabel(new Date(slot.start), calendarDay, label, visitorZone);
                return (
                  <Choice key={slot.start} $invalid={Boolean(error)}>
                    <input
                      type="radio"
                      id={id}
                      name={name}
                      value={slot.start}
                      defaultChecked={slot.start === chosen}
                      aria-invalid={error ? true : undefined}
                    />
                    <label htmlFor={id}>
                      {label}
                      {local ? <Host>{local} your time</Host> : null}
                      {slot.hosts?.length ? <Host>with {anyOf(slot.hosts)}</Host> : null}
                    </label>
                  </Choice>
                );
              })}
            </Times>
          </Day>
        );
      })}
    </Group>
  );
}
