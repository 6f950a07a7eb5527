import { styled } from 'styled-components';
import {
  COMPANY_MAX_LENGTH,
  HONEYPOT_FIELD,
  MESSAGE_MAX_LENGTH,
  NAME_MAX_LENGTH,
  PHONE_MAX_LENGTH,
  SMS_CONSENT_TEXT,
} from '../../../domain/demo-request.js';
import { Button } from '../../components/button.js';
import { Consent, FieldError, Hint, TextField } from '../../components/form-parts.js';
import { Spinner } from '../../components/icons.js';
import { DEMO_CODE_STATUS_ATTRIBUTE } from '../../components/demo-trigger-attribute.js';
import { CALENDAR_LOAD_PROBLEM, LazyCalendar } from '../date-time-picker/lazy-calendar.js';
import { EmailField } from './email-field.js';
import { RoutingQuestions } from './routing-questions.js';
import { useDemoRequestForm } from './use-demo-request-form.js';
import { ASK_AGAIN } from './use-routing-step.js';

/**
 * On a dialog wide enough, its first two fields, Name and Email, share a row: the form is shorter by a field, so on a
 * laptop's screen the fields up to Phone show above the action bar before a day is chosen.
 */
const Form = styled.form`
  display: grid;
  gap: ${({ theme }) => theme.space[5]};
  ${({ theme }) => theme.media.sm} {
    grid-template-columns: repeat(2, minmax(0, 1fr));
    align-items: start;
    > * {
      grid-column: 1 / -1;
    }
    > :nth-child(-n + 2) {
      grid-column: auto;
    }
  }
`;

/** What the calendar's place says while its code is on its way, the prerendered form's included. */
export const AVAILABLE_TIMES_LOADING = 'Loading available times…';

/** Where the calendar will be, about its height, so the fields below do not move when it comes. */
const CalendarLoading = styled.p`
  display: flex;
  align-items: center;
  justify-content: center;
  gap: ${({ theme }) => theme.space[3]};
  min-height: 20rem;
  color: ${({ theme }) => theme.colors.inkSoft};
`;

// The date and time picker (react-calendar and the slots) is a chunk of its own: the form's first frame, and its
// first field, do not wait for it.
const loadDateTimePicker = () =>
  import(/* webpackChunkName: "date-time-picker" */ '../date-time-picker/date-time-picker.js').then((module) => ({
    default: module.DateTimePicker,
  }));

/** The action bar's height, which the dialog keeps clear when it scrolls a field into view. */
export const ACTION_BAR_HEIGHT = '4.75rem';

/**
 * The submit button's bar stays at the foot of the dialog while the fields scroll under it, since on a short window
 * the form is taller than the dialog. It spans the dialog's padding (--dialog-padding, set by the dialog) edge to edge.
 */
const ActionBar = styled.div`
  position: sticky;
  bottom: 0;
  z-index: 1;
  display: flex;
  align-items: center;
  height: ${ACTION_BAR_HEIGHT};
  margin-inline: calc(-1 * var(--dialog-padding));
  padding-inline: var(--dialog-padding);
  background: ${({ theme }) => theme.colors.surface};
  box-shadow: 0 -1px 0 ${({ theme }) => theme.colors.border};
`;

const Submit = styled(Button)`
  width: 100%;
`;

/**
 * The honeypot's box: off-screen rather than display:none, which a simple bot recognises and skips. aria-hidden
 * and tabindex=-1 on the input keep it away from screen readers and the keyboard.
 */
const Honeypot = styled.div`
  position: absolute;
  left: -10000px;
  top: auto;
  width: 1px;
  height: 1px;
  overflow: hidden;
`;

/** The routing step's place: where the focus goes once the route is known, so Tab goes on into the calendar. */
const RoutingArea = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space[3]};
  &:focus {
    outline: none;
  }
`;

const ShowTimes = styled(Button)`
  justify-self: start;
`;

/** The words of a route that offers no calendar, in the calendar's place. */
const Refusal = styled.div`
  padding: ${({ theme }) => theme.space[4]};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius.md};
  background: ${({ theme }) => theme.colors.surfaceAlt};
  &:focus-visible {
    outline: 3px solid ${({ theme }) => theme.colors.focus};
    outline-offset: 2px;
  }
`;

interface DemoRequestFormProps {
  now: Date;
  onSubmitted: () => void;
}

/** The Request Demo form's markup; its state and behaviour are useDemoRequestForm's. */
export function DemoRequestForm({ now, onSubmitted }: DemoRequestFormProps) {
  const form = useDemoRequestForm(onSubmitted);
  const { routing } = form;
  const calendarLoading = (
    <CalendarLoading role="status" {...{ [DEMO_CODE_STATUS_ATTRIBUTE]: '' }}>
      <Spinner />
      {AVAILABLE_TIMES_LOADING}
    </CalendarLoading>
  );
  /** The calendar, of the route's hosts when there is a route key. */
  const calendar = (route?: string) => (
    <LazyCalendar
      load={loadDateTimePicker}
      props={{
        now,
        zone: form.zone,
        visitorZone: form.visitorZone,
        day: form.day,
        slotIso: form.slotIso,
        error: form.errors.timeSlot,
        onDayChange: form.onDayChange,
        onSlotChange: form.onSlotChange,
        ...(route ? { route, onRouteRefused: routing.onRouteRefused } : {}),
      }}
      fallback={calendarLoading}
      problem={
        <div role="alert">
          <FieldError id={`${form.id}-calendar-problem`} message={CALENDAR_LOAD_PROBLEM} />
        </div>
      }
    />
  );

  return (
    <Form ref={form.formRef} noValidate onSubmit={(event) => void form.onSubmit(event)} aria-busy={form.isSubmitting}>
      <TextField {...form.fieldProps('name')} label="Name" autoComplete="name" maxLength={NAME_MAX_LENGTH} />
      <EmailField
        id={form.ids.email}
        value={form.values.email}
        check={form.emailCheck}
        error={form.errors.email}
        onChange={form.onEmailChange}
        onBlur={form.onEmailBlur}
        onUseSuggestion={form.onUseSuggestion}
      />
      <TextField
        {...form.fieldProps('company')}
        label="Company"
        autoComplete="organization"
        maxLength={COMPANY_MAX_LENGTH}
      />
      {routing.pending ? (
        calendarLoading
      ) : routing.routesFirst ? (
        <>
          {routing.asks && (
            <RoutingQuestions
              idPrefix={form.id}
              questions={routing.questions}
              answers={routing.answers}
              errors={routing.answerErrors}
              onAnswer={routing.onAnswer}
            />
          )}
          <RoutingArea ref={routing.routedRef} tabIndex={-1}>
            {routing.route ? (
              calendar(routing.route)
            ) : routing.refusal ? (
              <Refusal ref={routing.refusalRef} role="alert" tabIndex={-1}>
                {routing.refusal}
              </Refusal>
            ) : (
              <>
                <Hint id={`${form.showTimesId}-hint`} role="status">
                  {routing.askAgain
                    ? routing.byEmailAlone
                      ? 'The times shown were out of date: please show them again.'
                      : `${ASK_AGAIN}: the times shown were out of date.`
                    : routing.byEmailAlone
                      ? 'Enter your email above to see the times our team has for you.'
                      : 'Answer the questions above to see the times our team has for you.'}
                </Hint>
                <ShowTimes
                  id={form.showTimesId}
                  type="button"
                  $variant="secondary"
                  aria-describedby={`${form.showTimesId}-hint ${form.showTimesId}-error`}
                  disabled={routing.isRouting}
                  onClick={() => void form.onShowTimes()}
                >
                  {routing.isRouting ? 'Finding times…' : 'Show available times'}
                </ShowTimes>
                <FieldError id={`${form.showTimesId}-error`} message={form.errors.timeSlot} />
              </>
            )}
          </RoutingArea>
        </>
      ) : (
        calendar()
      )}
      <TextField
        {...form.fieldProps('phone')}
        label="Phone"
        optional
        type="tel"
        autoComplete="tel"
        placeholder="+1 (555) 123-4567"
        maxLength={PHONE_MAX_LENGTH}
      />
      {form.routing.texts && (
        <Consent>
          <input
            id={form.ids.smsConsent}
            name="smsConsent"
            type="checkbox"
            checked={form.smsConsent}
            aria-describedby={`${form.ids.smsConsent}-hint`}
            onChange={(event) => form.onSmsConsentChange(event.target.checked)}
          />
          <label htmlFor={form.ids.smsConsent}>{SMS_CONSENT_TEXT}</label>
          <Hint id={`${form.ids.smsConsent}-hint`}>To the phone above, with its country code.</Hint>
        </Consent>
      )}
      <TextField
        {...form.fieldProps('message')}
        label="Message"
        optional
        rows={3}
        maxLength={MESSAGE_MAX_LENGTH}
        placeholder="What would you like to see in the demo?"
      />
      <Honeypot aria-hidden="true">
        <label htmlFor={`${form.id}-${HONEYPOT_FIELD}`}>Leave this field empty</label>
        <input
          id={`${form.id}-${HONEYPOT_FIELD}`}
          name={HONEYPOT_FIELD}
          type="text"
          tabIndex={-1}
          autoComplete="off"
          value={form.trap}
          onChange={(event) => form.setTrap(event.target.value)}
        />
      </Honeypot>
      <ActionBar>
        <Submit type="submit" $size="lg" disabled={form.isSubmitting}>
          {form.isSubmitting ? 'Submitting...' : 'Request Demo'}
        </Submit>
      </ActionBar>
    </Form>
  );
}
