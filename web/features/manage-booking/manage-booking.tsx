import { skipToken } from '@reduxjs/toolkit/query/react';
import { useEffect, useId, useRef, useState, type ReactNode, type RefObject } from 'react';
import { styled } from 'styled-components';
import { brand } from '../../../domain/brand.js';
import type { BookingView } from '../../../domain/demo-request.js';
import { BOOKING_STEP_PARAMETER } from '../../../domain/no-script-pages.js';
import { useBookingQuery } from '../../store/api.js';
import { Button } from '../../components/button.js';
import { AlertIcon, CheckCircleIcon, Spinner } from '../../components/icons.js';
import { Container } from '../../components/layout.js';
import { serverMessage } from '../../store/api-errors.js';
import { BOOKING_ACTION_ATTRIBUTE, LOCAL_TIME_ATTRIBUTE, type BookingAction } from './booking-page-data.js';
import { describeBookingTime } from '../date-time-picker/booking-time.js';
import { CancelConfirmation } from './cancel-confirmation.js';
import type { ChangeOutcome } from './change-outcome.js';
import { LazyReschedulePanel } from './lazy-reschedule-panel.js';
import { LoadingLine } from './parts.js';
import { BookingCard, BookingFacts, BookingPageColumn, BookingPageMain } from '../../components/booking-page.js';

export const NOT_FOUND_TITLE = 'This link does not open a booking';
export const LOADING_TEXT = 'Loading your booking…';
export const UNAVAILABLE_TITLE = 'Please try again shortly';

const Title = styled.h1`
  font-size: ${({ theme }) => theme.text['3xl']};
  font-weight: 800;
`;

const Lead = styled.p`
  margin: ${({ theme }) => `${theme.space[3]} 0 ${theme.space[6]}`};
  color: ${({ theme }) => theme.colors.inkSoft};
`;

const When = styled.span`
  font-weight: 700;
`;

const LocalTime = styled.span`
  display: block;
  &:empty {
    display: none;
  }
  font-size: ${({ theme }) => theme.text.sm};
  color: ${({ theme }) => theme.colors.inkSoft};
`;

const Status = styled.span<{ $cancelled: boolean }>`
  display: inline-block;
  padding: 0 ${({ theme }) => theme.space[3]};
  border: 1px solid currentColor;
  border-radius: ${({ theme }) => theme.radius.pill};
  font-size: ${({ theme }) => theme.text.sm};
  font-weight: 700;
  color: ${({ theme, $cancelled }) => ($cancelled ? theme.colors.danger : theme.colors.success)};
`;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space[3]};
  margin-top: ${({ theme }) => theme.space[6]};
`;

const Aside = styled.p`
  margin: ${({ theme }) => `${theme.space[6]} 0 ${theme.space[4]}`};
  color: ${({ theme }) => theme.colors.inkSoft};
`;

const NoticeBox = styled.p<{ $tone: ChangeOutcome['tone'] }>`
  display: flex;
  align-items: flex-start;
  gap: ${({ theme }) => theme.space[2]};
  margin-bottom: ${({ theme }) => theme.space[4]};
  padding: ${({ theme }) => `${theme.space[3]} ${theme.space[4]}`};
  border-left: 6px solid ${({ theme, $tone }) => ($tone === 'success' ? theme.colors.success : theme.colors.danger)};
  border-radius: ${({ theme }) => theme.radius.md};
  background: ${({ theme }) => theme.colors.surface};
  box-shadow: ${({ theme }) => theme.shadow.card};
  font-weight: 600;
  svg {
    flex: none;
    margin-top: 2px;
    color: ${({ theme, $tone }) => ($tone === 'success' ? theme.colors.success : theme.colors.danger)};
  }
`;

/** The status of the request for the booking as RTK Query reports it: an HTTP status, or none. */
function statusOf(error: unknown): number | undefined {
  const status = typeof error === 'object' && error !== null && 'status' in error ? error.status : undefined;
  return typeof status === 'number' ? status : undefined;
}

function NotFound() {
  return (
    <>
      <Title>{NOT_FOUND_TITLE}</Title>
      <Lead>
        The link may be incomplete, or it was changed on the way. Open it again from your confirmation e-mail, or book a
        new demo on our home page.
      </Lead>
      <Button as="a" href="/">
        Back to the home page
      </Button>
    </>
  );
}

/**
 * What the server sends, with status 503, when it cannot read the booking (its database out of reach): a page that
 * reads without a script, whose one action is loading it again.
 */
function Unavailable() {
  return (
    <>
      <Title>{UNAVAILABLE_TITLE}</Title>
      <Lead role="alert">
        Your booking cannot be shown right now: our records are out of reach for a moment. Nothing about your demo has
        changed. Please try again shortly.
      </Lead>
      {/* An empty address is this very page, its token included, which the page itself never carries. */}
      <Button as="a" href="">
        Try again
      </Button>
    </>
  );
}

function LoadFailed({ error, retrying, onRetry }: { error: unknown; retrying: boolean; onRetry: () => void }) {
  const why =
    serverMessage(error) ??
    (statusOf(error) === undefined
      ? 'The server did not answer. Please check your connection and try again.'
      : 'Please try again.');
  return (
    <>
      <Title>Your {brand.product} demo</Title>
      <Lead role="alert">Your booking could not be loaded. {why}</Lead>
      <Button type="button" aria-disabled={retrying || undefined} onClick={() => !retrying && onRetry()}>
        {retrying ? 'Loading...' : 'Try again'}
      </Button>
    </>
  );
}

type OpenPanel = BookingAction | null;

interface BookingDetailsProps {
  token: string;
  booking: BookingView;
  zone: string;
  visitorZone: string;
  title: RefObject<HTMLHeadingElement | null>;
  onFinished: (outcome: ChangeOutcome) => void;
  onOpen: () => void;
  /** A button pressed before this code ran (see booking-main.ts): its panel opens once the page is hydrated. */
  pressed?: BookingAction;
}

function BookingDetails({
  token,
  booking,
  zone,
  visitorZone,
  title,
  onFinished,
  onOpen,
  pressed,
}: BookingDetailsProps) {
  const panelId = useId();
  const [open, setOpen] = useState<OpenPanel>(null);
  const rescheduleButton = useRef<HTMLButtonElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const time = describeBookingTime(booking.timeSlot, zone, visitorZone);
  const cancelled = booking.status === 'cancelled';

  const toggle = (panel: Exclude<OpenPanel, null>) => {
    if (open === panel) return setOpen(null);
    onOpen();
    setOpen(panel);
  };
  // Closing a panel takes focus back to the button that opened it.
  const close = () => {
    (open === 'cancel' ? cancelButton : rescheduleButton).current?.focus();
    setOpen(null);
  };
  const finish = (outcome: ChangeOutcome) => {
    setOpen(null);
    onFinished(outcome);
  };
  // Once, after hydration: the markup must first match what the server sent, with every panel closed.
  const pressedFirst = useRef(pressed);
  useEffect(() => {
    if (pressedFirst.current && !cancelled) setOpen(pressedFirst.current);
  }, [cancelled]);

  return (
    <>
      <Title ref={title} tabIndex={-1}>
        Your {brand.product} demo
      </Title>
      <BookingFacts>
        <dt>Status</dt>
        <dd>
          <Status $cancelled={cancelled}>{cancelled ? 'Cancelled' : 'Booked'}</Status>
        </dd>
        <dt>When</dt>
        <dd>
          {/* The server writes the time as its Intl reads it, and its clock is not the visitor's: the first script fills
              the local time in before React runs (booking-main.ts), and React keeps what is there. */}
          <When suppressHydrationWarning>{time.text}</When>
          <LocalTime {...{ [LOCAL_TIME_ATTRIBUTE]: '' }} suppressHydrationWarning>
            {time.local ? `${time.local} your time` : ''}
          </LocalTime>
        </dd>
        <dt>Name</dt>
        <dd>{booking.name}</dd>
        <dt>Company</dt>
        <dd>{booking.company}</dd>
        {booking.host ? (
          <>
            <dt>You will meet</dt>
            <dd>
              {booking.host.name}
              {booking.host.title ? `, ${booking.host.title}` : ''}
            </dd>
          </>
        ) : null}
        {booking.meetingUrl && !cancelled ? (
          <>
            <dt>Video call</dt>
            <dd>
              <a href={booking.meetingUrl} target="_blank" rel="noopener noreferrer">
                Join the video call
              </a>
            </dd>
          </>
        ) : null}
      </BookingFacts>
      {cancelled ? (
        <>
          <Aside>This demo is cancelled. If another time suits you, book a new demo and choose it.</Aside>
          <Button as="a" href="/">
            Book a new demo
          </Button>
        </>
      ) : (
        <>
          {/* Each button submits a form that asks this page for its step (?step=move), which the server answers with
              the step's own page, working without script; with script, the press opens its panel here instead. */}
          <Actions>
            <form method="get">
              <Button
                ref={rescheduleButton}
                type="submit"
                name={BOOKING_STEP_PARAMETER}
                value="move"
                {...{ [BOOKING_ACTION_ATTRIBUTE]: 'reschedule' }}
                aria-expanded={open === 'reschedule'}
                aria-controls={panelId}
                onClick={(event) => {
                  event.preventDefault();
                  toggle('reschedule');
                }}
              >
                Reschedule
              </Button>
            </form>
            <form method="get">
              <Button
                ref={cancelButton}
                type="submit"
                name={BOOKING_STEP_PARAMETER}
                value="cancel"
                {...{ [BOOKING_ACTION_ATTRIBUTE]: 'cancel' }}
                $variant="secondary"
                aria-expanded={open === 'cancel'}
                aria-controls={panelId}
                onClick={(event) => {
                  event.preventDefault();
                  toggle('cancel');
                }}
              >
                Cancel demo
              </Button>
            </form>
          </Actions>
          {/* Always there, so the buttons' aria-controls name an element even while their panel is closed. */}
          <div id={panelId}>
            {open === 'reschedule' ? (
              <LazyReschedulePanel
                token={token}
                when={time.text}
                currentSlot={booking.timeSlot}
                zone={zone}
                visitorZone={visitorZone}
                onFinished={finish}
                onClose={close}
              />
            ) : null}
            {open === 'cancel' ? (
              <CancelConfirmation token={token} when={time.text} onFinished={finish} onKeep={close} />
            ) : null}
          </div>
        </>
      )}
    </>
  );
}

export interface ManageBookingProps {
  /** The link's token; null when prerendering, which cannot know the booking and shows the loading state. */
  token: string | null;
  zone: string;
  visitorZone: string;
  /** The server found no booking behind the link: the page says so without asking the API. */
  opensNothing?: boolean;
  /** The server could not read the booking (its database out of reach): the page says to try again shortly. */
  unavailable?: boolean;
  /** A button pressed before the page's React code ran, whose panel opens once it has. */
  pressed?: BookingAction;
}

/**
 * The booking behind a link: who, which company and when, with a reschedule and a cancellation. Each outcome is said
 * in a polite live region above the card (which stays whatever the card shows next), and focus goes to the card's title.
 */
export function ManageBooking({
  token,
  zone,
  visitorZone,
  opensNothing = false,
  unavailable = false,
  pressed,
}: ManageBookingProps) {
  const {
    data: booking,
    error,
    isFetching,
    refetch,
  } = useBookingQuery(token === null || opensNothing || unavailable ? skipToken : token);
  const [notice, setNotice] = useState<ChangeOutcome | null>(null);
  const title = useRef<HTMLHeadingElement>(null);

  const onFinished = (outcome: ChangeOutcome) => {
    setNotice(outcome);
    title.current?.focus();
  };

  let content: ReactNode;
  if (unavailable) content = <Unavailable />;
  else if (opensNothing || statusOf(error) === 404) content = <NotFound />;
  else if (booking && token !== null) {
    content = (
      <BookingDetails
        token={token}
        booking={booking}
        zone={zone}
        visitorZone={visitorZone}
        title={title}
        onFinished={onFinished}
        // A message is said again only if it leaves the live region first.
        onOpen={() => setNotice(null)}
        pressed={pressed}
      />
    );
  } else if (error) content = <LoadFailed error={error} retrying={isFetching} onRetry={() => void refetch()} />;
  else {
    content = (
      <>
        <Title>Your {brand.product} demo</Title>
        <LoadingLine role="status">
          <Spinner />
          {LOADING_TEXT}
        </LoadingLine>
      </>
    );
  }

  return (
    <BookingPageMain id="main">
      <Container>
        <BookingPageColumn>
          <div role="status">
            {notice ? (
              <NoticeBox $tone={notice.tone}>
                {notice.tone === 'success' ? <CheckCircleIcon size={20} /> : <AlertIcon size={20} />}
                {notice.text}
              </NoticeBox>
            ) : null}
          </div>
          <BookingCard aria-busy={!booking && !error && !opensNothing && !unavailable}>{content}</BookingCard>
        </BookingPageColumn>
      </Container>
    </BookingPageMain>
  );
}
