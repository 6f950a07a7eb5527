import { skipToken } from '@reduxjs/toolkit/query/react';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import Calendar from 'react-calendar';
import { styled } from 'styled-components';
import { bookingZoneLabel, formatCalendarDay, type CalendarDay } from '../../../domain/booking.js';
import { useDaySlotsQuery } from '../../store/api.js';
import { ChevronLeftIcon, ChevronRightIcon } from '../../components/icons.js';
import { VisuallyHidden } from '../../components/visually-hidden.js';
import {
  calendarBounds,
  firstBookableDay,
  formatDayLong,
  isTileDisabled,
  sameDay,
  slotOptions,
  takenSlotTimes,
  tileDate,
  tileDay,
  zonePlaceName,
} from './booking-calendar.js';
import { CalendarFrame } from './calendar-styles.js';
import { DAY_TILE } from './time-choice.js';
import { FieldError, Hint } from '../../components/form-parts.js';

interface DateTimePickerProps {
  now: Date;
  zone: string;
  visitorZone: string;
  day: CalendarDay | null;
  slotIso: string | null;
  error?: string;
  /** The slot a booking being moved holds now: not offered, and named as its own rather than "Taken". */
  currentSlot?: string;
  onDayChange: (day: CalendarDay) => void;
  onSlotChange: (iso: string) => void;
  /** The prospect's route key (POST /api/routing): only its hosts' free slots are offered. */
  route?: string;
  /** The slot list refused the route key (altered, or stale): the questions are to be answered again. */
  onRouteRefused?: () => void;
}

/** Its width, the dialog's or the manage page's, decides whether the calendar and the times fit side by side. */
const Fieldset = styled.fieldset`
  container-type: inline-size;
  border: 0;
  margin: 0;
  padding: 0;
  min-width: 0;
`;

const Legend = styled.legend`
  padding: 0;
  font-weight: 600;
  font-size: ${({ theme }) => theme.text.sm};
`;

/**
 * The narrowest a slot may be: as wide as its longest second line, a visitor's time on another day ("00:00 Wed your
 * time"), so that line stays on one line; in a box narrower than that, a single column as wide as the box.
 */
const SLOT_MIN_REM = 8.125;

/**
 * The narrowest the calendar may be beside the times, and the times beside it: two slots to a row, with the gap
 * between them and their box's padding and border.
 */
const CALENDAR_MIN_REM = 16;
const TIMES_MIN_REM = 2 * SLOT_MIN_REM + 2.5;
const COLUMN_GAP_REM = 1;

const Columns = styled.div`
  display: grid;
  gap: ${COLUMN_GAP_REM}rem;
  margin-top: ${({ theme }) => theme.space[2]};
  @container (min-width: ${CALENDAR_MIN_REM + COLUMN_GAP_REM + TIMES_MIN_REM}rem) {
    grid-template-columns: minmax(${CALENDAR_MIN_REM}rem, 1.15fr) minmax(${TIMES_MIN_REM}rem, 1fr);
    align-items: start;
  }
`;

const SlotGroup = styled.fieldset`
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius.md};
  margin: 0;
  padding: ${({ theme }) => theme.space[3]};
  min-width: 0;
  /* Inside the box rather than on its border, so that a long day ("Times on Wednesday, 30 December 2026") wraps
     within it; it stays the group's legend for screen readers. */
  legend {
    float: left;
    width: 100%;
    padding: 0;
    margin-bottom: ${({ theme }) => theme.space[2]};
    font-size: ${({ theme }) => theme.text.sm};
    font-weight: 600;
  }
  > :not(legend) {
    clear: both;
  }
`;

const SlotGrid = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(min(100%, ${SLOT_MIN_REM}rem), 1fr));
  gap: ${({ theme }) => theme.space[2]};
  padding: 2px;
  /* Every slot shows: the dialog is the one thing that scrolls. */
`;

const SlotLabel = styled.label`
  position: relative;
  display: flex;
  flex-direction: column;
  align-items: center;
  justify-content: center;
  min-height: 44px;
  padding: ${({ theme }) => theme.space[1]};
  border: 1px solid ${({ theme }) => theme.colors.borderStrong};
  border-radius: ${({ theme }) => theme.radius.sm};
  cursor: pointer;
  font-weight: 600;
  line-height: 1.2;
  input {
    position: absolute;
    opacity: 0;
    inset: 0;
    margin: 0;
    cursor: pointer;
  }
  small {
    font-weight: 400;
    font-size: ${({ theme }) => theme.text.xs};
    color: ${({ theme }) => theme.colors.muted};
  }
  &:has(input:checked) {
    background: ${({ theme }) => theme.colors.primary};
    border-color: ${({ theme }) => theme.colors.primary};
    color: #fff;
    small {
      color: #e0e7ff;
    }
  }
  &:has(input:focus-visible) {
    outline: 3px solid ${({ theme }) => theme.colors.focus};
    outline-offset: 2px;
  }
  /* Taken: greyed, struck through and labelled, so colour is not the only sign. */
  &:has(input:disabled) {
    background: ${({ theme }) => theme.colors.surfaceAlt};
    border-style: dashed;
    border-color: ${({ theme }) => theme.colors.border};
    color: ${({ theme }) => theme.colors.muted};
    cursor: not-allowed;
    input {
      cursor: not-allowed;
    }
    span {
      text-decoration: line-through;
    }
  }
`;

const Summary = styled.p`
  margin-top: ${({ theme }) => theme.space[2]};
  font-size: ${({ theme }) => theme.text.sm};
  color: ${({ theme }) => theme.colors.inkSoft};
`;

const ARROW_STEPS: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 };

/**
 * react-calendar puts every day in the Tab order and has no arrow keys. Here the days behave like one
 * control: a single day is tabbable (the chosen one, else the first enabled); keys move between days.
 */
function rovingDays(frame: HTMLElement | null): void {
  if (!frame) return;
  const tiles = Array.from(frame.querySelectorAll<HTMLButtonElement>(DAY_TILE));
  const current =
    tiles.find((tile) => tile === document.activeElement) ??
    tiles.find((tile) => tile.classList.contains('react-calendar__tile--active') && !tile.disabled) ??
    tiles.find((tile) => !tile.disabled);
  for (const tile of tiles) tile.tabIndex = tile === current ? 0 : -1;
}

function focusDay(tiles: HTMLButtonElement[], tile: HTMLButtonElement | undefined): boolean {
  if (!tile || tile.disabled) return false;
  for (const other of tiles) other.tabIndex = other === tile ? 0 : -1;
  tile.focus();
  return true;
}

/**
 * Arrow keys move between enabled days (left/right a day, up/down a week), Home and End go to the first and
 * last enabled day of the month, Page Up and Page Down to the previous and next month.
 */
function moveBetweenDays(event: KeyboardEvent<HTMLDivElement>): void {
  const target = event.target as HTMLElement;
  if (!target.matches(DAY_TILE)) return;
  const frame = event.currentTarget;
  const tiles = Array.from(frame.querySelectorAll<HTMLButtonElement>(DAY_TILE));
  const enabled = tiles.filter((tile) => !tile.disabled);
  const step = ARROW_STEPS[event.key];
  if (step !== undefined) {
    let index = tiles.indexOf(target as HTMLButtonElement);
    for (index += step; index >= 0 && index < tiles.length; index += step) {
      if (focusDay(tiles, tiles[index])) {
        event.preventDefault();
        return;
      }
    }
  } else if (event.key === 'Home' || event.key === 'End') {
    event.preventDefault();
    focusDay(tiles, event.key === 'Home' ? enabled[0] : enabled[enabled.length - 1]);
  } else if (event.key === 'PageUp' || event.key === 'PageDown') {
    event.preventDefault();
    const nav = frame.querySelector<HTMLButtonElement>(
      event.key === 'PageUp' ? '.react-calendar__navigation__prev-button' : '.react-calendar__navigation__next-button',
    );
    if (!nav || nav.disabled) return;
    nav.click();
    // The new month's tiles exist after React has rendered them.
    requestAnimationFrame(() => {
      const next = Array.from(frame.querySelectorAll<HTMLButtonElement>(DAY_TILE));
      focusDay(
        next,
        next.find((tile) => !tile.disabled),
      );
    });
  }
}

/** What the visitor is told when no calendar of the team could be read, and what they are asked to do. */
const CALENDARS_UNREADABLE = "We cannot see our team's calendars right now, so we cannot show free times.";
const TRY_AGAIN_LATER = 'Please try again in a few minutes.';
const WRITE_TO = 'Please write to ';
const WE_WILL_FIND_A_TIME = ' and we will find a time with you.';

export function DateTimePicker({
  now,
  zone,
  visitorZone,
  day,
  slotIso,
  error,
  currentSlot,
  onDayChange,
  onSlotChange,
  route,
  onRouteRefused,
}: DateTimePickerProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const { minDate, maxDate } = useMemo(() => calendarBounds(now, zone), [now, zone]);
  const opening = useMemo(() => firstBookableDay(now, zone), [now, zone]);
  const slots = useMemo(() => (day ? slotOptions(day, now, zone, visitorZone) : []), [day, now, zone, visitorZone]);
  // The server's word on which slots are already full. Until it answers, or if it cannot, the domain rules alone
  // decide: booking never waits on this call, and the API checks the slot again anyway.
  const {
    currentData: daySlots,
    isFetching: checkingSlots,
    error: slotsError,
    startedTimeStamp,
  } = useDaySlotsQuery(day ? (route ? { date: formatCalendarDay(day), route } : formatCalendarDay(day)) : skipToken);
  // A refusal of the route key counts when asked since this picker came: one kept from an earlier one is asked again.
  const [mountedAt] = useState(() => Date.now());
  const routeRefused =
    route !== undefined &&
    !checkingSlots &&
    (startedTimeStamp ?? 0) >= mountedAt &&
    slotsError !== undefined &&
    'status' in slotsError &&
    slotsError.status === 400;
  useEffect(() => {
    if (routeRefused) onRouteRefused?.();
  }, [routeRefused]);
  const taken = useMemo(() => takenSlotTimes(daySlots), [daySlots]);
  // No team member's calendar could be read: the server offers nothing, and the visitor is told why and whom to
  // write to, instead of a day that looks fully booked.
  const unreadable = daySlots?.calendarsUnreadable === true;
  const isCurrent = (iso: string) => currentSlot !== undefined && Date.parse(iso) === Date.parse(currentSlot);
  const isTaken = (iso: string) => isCurrent(iso) || taken.has(Date.parse(iso));
  const openCount = slots.filter((slot) => !isTaken(slot.iso)).length;
  const chosen = slots.find((slot) => slot.iso === slotIso) ?? null;
  const dayText = day ? formatDayLong(day) : '';
  const frame = useRef<HTMLDivElement>(null);
  const [activeStartDate, setActiveStartDate] = useState<Date | undefined>(() =>
    opening ? tileDate({ ...opening, day: 1 }) : undefined,
  );

  // After every render: react-calendar re-creates the tiles when the month changes.
  useEffect(() => rovingDays(frame.current));

  let summary = 'No date chosen yet.';
  if (day && unreadable) {
    summary = `${CALENDARS_UNREADABLE} ${daySlots?.salesDesk ? `${WRITE_TO}${daySlots.salesDesk}${WE_WILL_FIND_A_TIME}` : TRY_AGAIN_LATER}`;
  } else if (day && chosen) {
    summary = `Selected ${dayText} at ${chosen.label} ${bookingZoneLabel(zone)}${chosen.localLabel ? ` (${chosen.localLabel} your time)` : ''}.`;
  } else if (day) {
    summary = `Selected ${dayText}. ${openCount} ${openCount === 1 ? 'time' : 'times'} available; choose one.`;
  }

  return (
    <Fieldset aria-describedby={error ? `${hintId} ${errorId}` : hintId} aria-invalid={error ? true : undefined}>
      <Legend>Select Date &amp; Time ({bookingZoneLabel(zone)})</Legend>
      <Hint id={hintId}>
        Monday to Friday within the next month, hourly from 07:00 to 23:00 {zonePlaceName(zone)} time.
        <VisuallyHidden>
          {' '}
          In the calendar, arrow keys move between available days and Page Up and Page Down change the month.
        </VisuallyHidden>
      </Hint>
      <Columns>
        <CalendarFrame ref={frame} onKeyDown={moveBetweenDays}>
          <Calendar
            locale="en-GB"
            calendarType="iso8601"
            minDetail="month"
            minDate={minDate}
            maxDate={maxDate}
            activeStartDate={activeStartDate}
            onActiveStartDateChange={({ activeStartDate: next }) => setActiveStartDate(next ?? undefined)}
            value={day ? tileDate(day) : null}
            onClickDay={(date) => onDayChange(tileDay(date))}
            tileDisabled={({ date, view }) => view === 'month' && isTileDisabled(date, now, zone)}
            tileContent={({ date, view }) =>
              view === 'month' && day && sameDay(tileDay(date), day) ? (
                <VisuallyHidden>(selected)</VisuallyHidden>
              ) : null
            }
            showNeighboringMonth={false}
            prev2Label={null}
            next2Label={null}
            prevLabel={<ChevronLeftIcon size={20} />}
            nextLabel={<ChevronRightIcon size={20} />}
            prevAriaLabel="Previous month"
            nextAriaLabel="Next month"
          />
        </CalendarFrame>
        <SlotGroup aria-busy={checkingSlots ? true : undefined}>
          <legend>{day ? `Times on ${dayText}` : 'Times'}</legend>
          {day && unreadable ? (
            <Hint>
              {CALENDARS_UNREADABLE}{' '}
              {daySlots?.salesDesk ? (
                <>
                  {WRITE_TO}
                  <a href={`mailto:${daySlots.salesDesk}`}>{daySlots.salesDesk}</a>
                  {WE_WILL_FIND_A_TIME}
                </>
              ) : (
                TRY_AGAIN_LATER
              )}
            </Hint>
          ) : day ? (
            <SlotGrid>
              {slots.map((slot) => {
                const gone = isTaken(slot.iso);
                return (
                  <SlotLabel key={slot.iso}>
                    <input
                      type="radio"
                      name="timeSlot"
                      value={slot.iso}
                      checked={slot.iso === slotIso}
                      disabled={gone}
                      onChange={() => onSlotChange(slot.iso)}
                    />
                    <span>{slot.label}</span>
                    {slot.localLabel ? <small>{slot.localLabel} your time</small> : null}
                    {gone ? <small>{isCurrent(slot.iso) ? 'Your current time' : 'Taken'}</small> : null}
                  </SlotLabel>
                );
              })}
            </SlotGrid>
          ) : (
            <Hint>Choose a day to see the available times.</Hint>
          )}
        </SlotGroup>
      </Columns>
      <Summary role="status">{summary}</Summary>
      <FieldError id={errorId} message={error} />
    </Fieldset>
  );
}
