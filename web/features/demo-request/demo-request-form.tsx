import { useCallback, useId, useRef, useState, type FormEvent } from 'react';
import { styled } from 'styled-components';
import { timeSlotProblem, type CalendarDay } from '../../../domain/booking.js';
import { demoEvent, googleCalendarLink, outlookCalendarLink } from '../../../domain/calendar-links.js';
import {
  COMPANY_MAX_LENGTH,
  DEMO_REQUEST_FIELDS,
  REQUIRED_FIELDS,
  HONEYPOT_FIELD,
  MESSAGE_MAX_LENGTH,
  NAME_MAX_LENGTH,
  PHONE_MAX_LENGTH,
  requiredMessage,
  type DemoRequestCreated,
  type DemoRequestField,
} from '../../../domain/demo-request.js';
import { companyLinkProblem, nameLinkProblem } from '../../../domain/links-in-text.js';
import { useSubmitDemoRequestMutation, useValidateEmailMutation, type DemoRequestBody } from '../../app/api.js';
import { Button } from '../../components/button.js';
import { notifyError, notifySuccess } from '../../components/notify.js';
import { rememberedAttribution, visitStorage } from './attribution.js';
import { visitorTimeZone } from './booking-calendar.js';
import { PAGE_MIN_NOTICE, readBookingTimeZone } from './booking-zone.js';
import { DateTimePicker, focusTimeChoice } from './date-time-picker.js';
import { checkEmail, type EmailCheck } from './email-check.js';
import { EmailField } from './email-field.js';
import { TextField } from './form-parts.js';
import { mayRetryWithSameKey, nextAttempt, type SubmissionAttempt } from './idempotency-key.js';
import { isSlotConflict, serverFieldErrors, submitErrorMessage } from './submit-error.js';

export const SUCCESS_TITLE = 'Demo Request Submitted';
export const SUCCESS_TEXT = "Thank you! We'll contact you soon to schedule your demo.";

type TextFieldName = 'name' | 'email' | 'company' | 'phone' | 'message';
type Values = Record<TextFieldName, string>;
type Errors = Partial<Record<DemoRequestField, string>>;

const EMPTY: Values = { name: '', email: '', company: '', phone: '', message: '' };
// The server's booking zone, named in the page it served; read once, when the form's code first runs.
const BOOKING_ZONE = readBookingTimeZone();
// The visitor's own zone, for the local time beside each slot; it does not change while the page is open.
const VISITOR_ZONE = visitorTimeZone();

const Form = styled.form`
  display: grid;
  gap: ${({ theme }) => theme.space[5]};
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

interface DemoRequestFormProps {
  now: Date;
  onSubmitted: () => void;
}

export function DemoRequestForm({ now, onSubmitted }: DemoRequestFormProps) {
  const id = useId();
  const ids = Object.fromEntries(DEMO_REQUEST_FIELDS.map((field) => [field, `${id}-${field}`])) as Record<DemoRequestField, string>;
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<Values>(EMPTY);
  const [day, setDay] = useState<CalendarDay | null>(null);
  const [slotIso, setSlotIso] = useState<string | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [emailCheck, setEmailCheck] = useState<EmailCheck>({ state: 'idle' });
  const checkedEmail = useRef<string | null>(null);
  const [trap, setTrap] = useState('');
  // The attempt a failure left open: sending the same body again is its retry and carries its key.
  const openAttempt = useRef<SubmissionAttempt | null>(null);
  const [submitDemoRequest, { isLoading: isSubmitting }] = useSubmitDemoRequestMutation();
  const [validateEmail] = useValidateEmailMutation();
  const zone = BOOKING_ZONE;

  const setValue = (field: TextFieldName, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => (current[field] ? { ...current, [field]: undefined } : current));
  };

  const runEmailCheck = useCallback(
    async (email: string) => {
      checkedEmail.current = email;
      setEmailCheck({ state: 'checking' });
      const result = await checkEmail(email, (value) => validateEmail({ email: value }).unwrap());
      // A later edit or check wins over an answer that arrives late.
      if (checkedEmail.current === email) setEmailCheck(result);
    },
    [validateEmail],
  );

  /** Focuses a field; for the time, a slot that can be chosen (not `avoidSlot`, the one just refused), else the calendar. */
  const focusField = (field: DemoRequestField, avoidSlot?: string) => {
    const form = formRef.current;
    if (!form) return;
    if (field !== 'timeSlot') {
      form.querySelector<HTMLElement>(`#${CSS.escape(ids[field])}`)?.focus();
      return;
    }
    focusTimeChoice(form, avoidSlot);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isSubmitting) return;
    const problems: Errors = {};
    for (const field of REQUIRED_FIELDS) {
      if (field !== 'timeSlot' && values[field].trim() === '') problems[field] = requiredMessage(field);
    }
    // The link markers only: a domain-shaped word needs IANA's list, which the API holds (its answer names the field).
    const nameLink = nameLinkProblem(values.name);
    if (nameLink) problems.name = nameLink;
    const companyLink = companyLinkProblem(values.company);
    if (companyLink) problems.company = companyLink;
    if (!slotIso) problems.timeSlot = requiredMessage('timeSlot');
    else {
      // The domain's one check of a slot: the dialog may have stayed open past the chosen hour.
      const problem = timeSlotProblem(slotIso, new Date(), zone, PAGE_MIN_NOTICE);
      if (problem) problems.timeSlot = problem;
    }
    const firstProblem = DEMO_REQUEST_FIELDS.find((field) => problems[field]);
    if (firstProblem) {
      setErrors(problems);
      focusField(firstProblem);
      return;
    }
    const body: DemoRequestBody = {
      name: values.name.trim(),
      email: values.email.trim(),
      company: values.company.trim(),
      timeSlot: slotIso as string,
    };
    if (values.phone.trim()) body.phone = values.phone.trim();
    if (values.message.trim()) body.message = values.message.trim();
    const attribution = rememberedAttribution(visitStorage());
    if (attribution) body.attribution = attribution;
    if (trap !== '') body[HONEYPOT_FIELD] = trap;
    // The body is built in one fixed order, so its JSON text tells the same submission from a changed one.
    const attempt = nextAttempt(openAttempt.current, JSON.stringify(body));
    let created: DemoRequestCreated;
    try {
      created = await submitDemoRequest({ body, idempotencyKey: attempt.key }).unwrap();
    } catch (error) {
      openAttempt.current = mayRetryWithSameKey(error) ? attempt : null;
      const fieldErrors = serverFieldErrors(error);
      setErrors(fieldErrors);
      notifyError('Error', submitErrorMessage(error));
      if (isSlotConflict(error)) {
        // Only the time has to change: the rest of the form, the day included, stays as typed. The mutation has
        // already asked for the day's slots again, and the refused one will show as taken.
        setSlotIso(null);
        focusField('timeSlot', body.timeSlot);
        return;
      }
      const firstServerProblem = DEMO_REQUEST_FIELDS.find((field) => fieldErrors[field]);
      if (firstServerProblem) focusField(firstServerProblem);
      return;
    }
    openAttempt.current = null;
    const demo = demoEvent(body.company, new Date(created.timeSlot));
    notifySuccess(SUCCESS_TITLE, SUCCESS_TEXT, {
      label: 'Add to calendar:',
      items: [
        { label: 'Google', href: googleCalendarLink(demo) },
        { label: 'Outlook', href: outlookCalendarLink(demo) },
        // An answer kept for an Idempotency-Key from before the link existed has none.
        ...(created.invitePath ? [{ label: '.ics', href: created.invitePath, download: true }] : []),
      ],
    });
    setValues(EMPTY);
    setTrap('');
    setDay(null);
    setSlotIso(null);
    setErrors({});
    setEmailCheck({ state: 'idle' });
    checkedEmail.current = null;
    onSubmitted();
  };

  /** The props every text field of the form shares: its id, name, value, error and change handler. */
  const fieldProps = (field: TextFieldName) => ({
    id: ids[field],
    name: field,
    value: values[field],
    error: errors[field],
    onChange: (value: string) => setValue(field, value),
  });

  return (
    <Form ref={formRef} noValidate onSubmit={(event) => void onSubmit(event)} aria-busy={isSubmitting}>
      <TextField {...fieldProps('name')} label="Name" autoComplete="name" maxLength={NAME_MAX_LENGTH} />
      <EmailField
        id={ids.email}
        value={values.email}
        check={emailCheck}
        error={errors.email}
        onChange={(value) => {
          setValue('email', value);
          checkedEmail.current = null;
          setEmailCheck({ state: 'idle' });
        }}
        onBlur={() => {
          if (checkedEmail.current !== values.email) void runEmailCheck(values.email);
        }}
        onUseSuggestion={(suggestion) => {
          setValue('email', suggestion);
          void runEmailCheck(suggestion);
        }}
      />
      <TextField {...fieldProps('company')} label="Company" autoComplete="organization" maxLength={COMPANY_MAX_LENGTH} />
      <DateTimePicker
        now={now}
        zone={zone}
        visitorZone={VISITOR_ZONE}
        day={day}
        slotIso={slotIso}
        error={errors.timeSlot}
        onDayChange={(next) => {
          setDay(next);
          setSlotIso(null);
        }}
        onSlotChange={(iso) => {
          setSlotIso(iso);
          setErrors((current) => ({ ...current, timeSlot: undefined }));
        }}
      />
      <TextField
        {...fieldProps('phone')}
        label="Phone"
        optional
        type="tel"
        autoComplete="tel"
        placeholder="+1 (555) 123-4567"
        maxLength={PHONE_MAX_LENGTH}
      />
      <TextField
        {...fieldProps('message')}
        label="Message"
        optional
        rows={3}
        maxLength={MESSAGE_MAX_LENGTH}
        placeholder="What would you like to see in the demo?"
      />
      <Honeypot aria-hidden="true">
        <label htmlFor={`${id}-${HONEYPOT_FIELD}`}>Leave this field empty</label>
        <input
          id={`${id}-${HONEYPOT_FIELD}`}
          name={HONEYPOT_FIELD}
          type="text"
          tabIndex={-1}
          autoComplete="off"
          value={trap}
          onChange={(event) => setTrap(event.target.value)}
        />
      </Honeypot>
      <Submit type="submit" $size="lg" disabled={isSubmitting}>
        {isSubmitting ? 'Submitting...' : 'Request Demo'}
      </Submit>
    </Form>
  );
}
