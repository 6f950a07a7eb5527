import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useCancelBookingMutation } from '../../store/api.js';
import { Button } from '../../components/button.js';
import { changeProblem, type ChangeOutcome } from './change-outcome.js';
import { Buttons, DangerButton, PanelBox, PanelText, PanelTitle, Problem } from './parts.js';

const CANCELLED_MESSAGE = 'Your demo is cancelled, and its time is free for others.';

interface CancelConfirmationProps {
  token: string;
  /** When the demo is, as the page shows it. */
  when: string;
  onFinished: (outcome: ChangeOutcome) => void;
  onKeep: () => void;
}

/**
 * The step before a cancellation, inline under the buttons. Focus starts on "Keep it", the choice that loses
 * nothing; Escape keeps the demo too.
 */
export function CancelConfirmation({ token, when, onFinished, onKeep }: CancelConfirmationProps) {
  const titleId = useId();
  const textId = useId();
  const keep = useRef<HTMLButtonElement>(null);
  const [cancelBooking, { isLoading: cancelling }] = useCancelBookingMutation();
  const [problem, setProblem] = useState<string>();

  useEffect(() => keep.current?.focus(), []);

  const confirm = async () => {
    if (cancelling) return;
    setProblem(undefined);
    try {
      await cancelBooking({ token }).unwrap();
      onFinished({ tone: 'success', text: CANCELLED_MESSAGE });
    } catch (error) {
      const found = changeProblem(error);
      if (found.kind === 'stale') onFinished({ tone: 'problem', text: found.text });
      else setProblem(found.text);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === 'Escape' && !cancelling) onKeep();
  };

  return (
    <PanelBox role="group" aria-labelledby={titleId} aria-describedby={textId} onKeyDown={onKeyDown}>
      <PanelTitle id={titleId}>Cancel this demo?</PanelTitle>
      <PanelText id={textId}>
        Your demo on {when} will be cancelled and its time given up. You can book a new demo whenever it suits you.
      </PanelText>
      <Problem text={problem} />
      <Buttons>
        {/* aria-disabled rather than disabled while the answer is awaited: a disabled button would drop the focus. */}
        <DangerButton type="button" aria-disabled={cancelling || undefined} onClick={() => void confirm()}>
          {cancelling ? 'Cancelling...' : 'Yes, cancel'}
        </DangerButton>
        <Button ref={keep} type="button" $variant="secondary" onClick={onKeep}>
          Keep it
        </Button>
      </Buttons>
    </PanelBox>
  );
}
