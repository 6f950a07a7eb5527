import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { timeSlotProblem, type CalendarDay } from '../../../domain/booking.js';
import { requiredMessage } from '../../../domain/demo-request.js';
import { useRescheduleBookingMutation } from '../../store/api.js';
import { Button } from '../../components/button.js';
import { PAGE_MIN_NOTICE } from '../date-time-picker/booking-rules-meta.js';
import { DateTimePicker } from '../date-time-picker/date-time-picker.js';
import { focusTimeChoice } from '../date-time-picker/time-choice.js';
import { describeBookingTime } from '../date-time-picker/booking-time.js';
import { changeProblem, type ChangeOutcome, type ChangeProblem } from './change-outcome.js';
import { Buttons, PanelBox, PanelText, PanelTitle, Problem } from './parts.js';

const rescheduledMessage = (when: string): string => `Your demo is moved to ${when}.`;

export interface ReschedulePanelProps {
  token: string;
  /** When the demo is now, as the page shows it. */
  when: string;
  /** The slot the booking holds now (ISO). */
  currentSlot: string;
  zone: string;
  visitorZone: string;
  onFinished: (outcome: ChangeOutcome) => void;
  onClose: () => void;
}

/**
 * The demo dialog's calendar and slots, for a new time. The booking keeps its time until the server confirms the
 * new one; a time taken meanwhile keeps the panel open, with that day's slots asked for again.
 */
export default function ReschedulePanel({
  token,
  when,
  currentSlot,
  zone,
  visitorZone,
  onFinished,
  onClose,
}: ReschedulePanelProps) {
  const titleId = useId();
  const title = useRef<HTMLHeadingElement>(null);
  const form = useRef<HTMLFormElement>(null);
  // The calendar's "today", from when the panel opened, as the demo dialog takes it when it opens.
  const [now] = useState(() => new Date());
  const [day, setDay] = useState<CalendarDay | null>(null);
  const [slotIso, setSlotIso] = useState<string | null>(null);
  const [problem, setProblem] = useState<ChangeProblem>();
  const [reschedule, { isLoading: moving }] = useRescheduleBookingMutation();

  // Focus moves to the panel's title, so a screen reader says where the visitor is; Tab goes on into the calendar.
  useEffect(() => title.current?.focus(), []);

  const refuse = (found: ChangeProblem, refusedSlot?: string) => {
    setProblem(found);
    if (found.kind !== 'time') return;
    setSlotIso(null);
    if (form.current) focusTimeChoice(form.current, refusedSlot);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (moving) return;
    if (slotIso === null) return refuse({ kind: 'time', text: requiredMessage('timeSlot') });
    // The panel may have stayed open past the chosen hour: the domain's one check of a slot, before the server's.
    const invalid = timeSlotProblem(slotIso, new Date(), zone, PAGE_MIN_NOTICE);
    if (invalid) return refuse({ kind: 'time', text: invalid });
    setProblem(undefined);
    try {
      const booking = await reschedule({ token, timeSlot: slotIso }).unwrap();
      onFinished({
        tone: 'success',
        text: rescheduledMessage(describeBookingTime(booking.timeSlot, zone, visitorZone).text),
      });
    } catch (error) {
      const found = changeProblem(error);
      if (found.kind === 'stale') onFinished({ tone: 'problem', text: found.text });
      else refuse(found, slotIso);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === 'Escape' && !moving) onClose();
  };

  return (
    <PanelBox aria-labelledby={titleId} onKeyDown={onKeyDown}>
      <PanelTitle id={titleId} ref={title} tabIndex={-1}>
        Choose a new time
      </PanelTitle>
      <PanelText>Your demo stays on {when} until you confirm a new time.</PanelText>
      <form ref={form} noValidate aria-busy={moving} onSubmit={(event) => void onSubmit(event)}>
        <DateTimePicker
          now={now}
          zone={zone}
          visitorZone={visitorZone}
          day={day}
          slotIso={slotIso}
          currentSlot={currentSlot}
          error={problem?.kind === 'time' ? problem.text : undefined}
          onDayChange={(next) => {
            setDay(next);
            setSlotIso(null);
          }}
          onSlotChange={(iso) => {
            setSlotIso(iso);
            setProblem(undefined);
          }}
        />
        <Problem text={problem?.text} shownElsewhere={problem?.kind === 'time'} />
        <Buttons>
          {/* aria-disabled rather than disabled while the answer is awaited: a disabled button would drop the focus. */}
          <Button type="submit" aria-disabled={moving || undefined}>
            {moving ? 'Rescheduling...' : 'Confirm new time'}
          </Button>
          <Button type="button" $variant="secondary" onClick={onClose}>
            Keep current time
          </Button>
        </Buttons>
      </form>
    </PanelBox>
  );
}
