/**
 * The Request Demo form's state and behaviour, apart from its markup (demo-request-form.tsx): the values, the checks
 * before a submit (the same as the API's, in the domain's words), the e-mail check on leaving the field, the submit
 * with its Idempotency-Key, and what a success or a refusal does to the form.
 */
import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { timeSlotProblem, type CalendarDay } from '../../../domain/booking.js';
import { demoEvent, googleCalendarLink, outlookCalendarLink } from '../../../domain/calendar-links.js';
import {
  DEMO_REQUEST_FIELDS,
  REQUIRED_FIELDS,
  HONEYPOT_FIELD,
  requiredMessage,
  SMS_PHONE_REQUIRED,
  type BookingCreated,
  type DemoRequestField,
} from '../../../domain/demo-request.js';
import { companyLinkProblem, nameLinkProblem } from '../../../domain/links-in-text.js';
import { notifyError, notifySuccess, type ToastDetails } from '../../components/notify.js';
import { isSlotConflict, serverAnswerErrors, serverFieldErrors, submitErrorMessage } from '../../store/api-errors.js';
import { useSubmitDemoRequestMutation, useValidateEmailMutation, type DemoRequestBody } from '../../store/api.js';
import { visitorTimeZone } from '../date-time-picker/booking-calendar.js';
import { describeBookingTime } from '../date-time-picker/booking-time.js';
import { PAGE_MIN_NOTICE, readBookingTimeZone } from '../date-time-picker/booking-rules-meta.js';
import { focusTimeChoice } from '../date-time-picker/time-choice.js';
import { rememberedAttribution, visitStorage } from './attribution.js';
import { checkEmail, type EmailCheck } from './email-check.js';
import { countFunnelStep } from './funnel-beacon.js';
import { mayRetryWithSameKey, nextAttempt, type SubmissionAttempt } from './idempotency-key.js';
import { questionGroupId } from './routing-questions.js';
import { useRoutingStep } from './use-routing-step.js';

export const SUCCESS_TITLE = 'Demo Request Submitted';
export const SUCCESS_TEXT = "Thank you! We'll contact you soon to schedule your demo.";
/** Under the routing step's button, when the form is sent before the times were shown. */
export const SHOW_TIMES_FIRST = 'Please answer the questions and choose a time.';
/** The same, when the route follows the e-mail alone. */
export const EMAIL_BEFORE_TIMES = 'Please enter your email and choose a time.';

/** Whom the prospect will meet and where, when the answer says (a team's host; the video room). */
/** The success toast's lines beyond the specification's words: when the demo is, whom the prospect meets, the room. */
export function bookedDetails(
  created: Pick<BookingCreated, 'host' | 'meetingUrl' | 'timeSlot'>,
  zone: string,
  visitorZone: string,
): ToastDetails {
  const host = created.host;
  const time = describeBookingTime(created.timeSlot, zone, visitorZone);
  return {
    notes: [
      `Booked for ${time.text}${time.local ? ` (${time.local} your time)` : ''}.`,
      ...(host ? [`You will meet ${host.name}${host.title ? `, ${host.title}` : ''}.`] : []),
    ],
    // An answer kept for an Idempotency-Key from before rooms were given has none.
    ...(created.meetingUrl ? { link: { label: 'Join the video call', href: created.meetingUrl } } : {}),
  };
}

export type TextFieldName = 'name' | 'email' | 'company' | 'phone' | 'message';
type Values = Record<TextFieldName, string>;
const TEXT_FIELDS: readonly TextFieldName[] = ['name', 'email', 'company', 'phone', 'message'];
type Errors = Partial<Record<DemoRequestField, string>>;

const EMPTY: Values = { name: '', email: '', company: '', phone: '', message: '' };
// The server's booking zone, named in the page it served; read once, when the form's code first runs.
const BOOKING_ZONE = readBookingTimeZone();
// The visitor's own zone, for the local time beside each slot; it does not change while the page is open.
const VISITOR_ZONE = visitorTimeZone();

export function useDemoRequestForm(onSubmitted: () => void) {
  const id = useId();
  const ids = Object.fromEntries(DEMO_REQUEST_FIELDS.map((field) => [field, `${id}-${field}`])) as Record<
    DemoRequestField,
    string
  >;
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<Values>(EMPTY);
  const [day, setDay] = useState<CalendarDay | null>(null);
  const [slotIso, setSlotIso] = useState<string | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [emailCheck, setEmailCheck] = useState<EmailCheck>({ state: 'idle' });
  const checkedEmail = useRef<string | null>(null);
  const [trap, setTrap] = useState('');
  // Unticked until the visitor ticks it: no text is sent without it.
  const [smsConsent, setSmsConsent] = useState(false);
  // The attempt a failure left open: sending the same body again is its retry and carries its key.
  const openAttempt = useRef<SubmissionAttempt | null>(null);
  const [submitDemoRequest, { isLoading: isSubmitting }] = useSubmitDemoRequestMutation();
  const [validateEmail] = useValidateEmailMutation();
  const zone = BOOKING_ZONE;
  const routing = useRoutingStep();
  const showTimesId = `${id}-show-times`;

  // Another route may have other times: a time chosen for the one forgotten is chosen again.
  useEffect(() => {
    if (routing.route === null) setSlotIso(null);
  }, [routing.route]);

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
      if (checkedEmail.current !== email) return;
      setEmailCheck(result);
      if (result.state === 'valid') countFunnelStep('emailAccepted');
    },
    [validateEmail],
  );

  // The form is hydrated from the prerendered one, which takes typing before this code comes (dialog-opener.ts):
  // hydration keeps the fields as they are, caret and focus included, and what they hold becomes the form's state
  // here, before the browser can take another key. An address typed and left meanwhile is checked now.
  useLayoutEffect(() => {
    const form = formRef.current;
    if (!form) return;
    const typedIn = (name: string) => {
      const field = form.elements.namedItem(name);
      return field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement ? field.value : '';
    };
    const typed = Object.fromEntries(TEXT_FIELDS.map((field) => [field, typedIn(field)])) as Values;
    if (TEXT_FIELDS.some((field) => typed[field] !== '')) setValues(typed);
    setTrap(typedIn(HONEYPOT_FIELD));
    if (typed.email.trim() !== '' && document.activeElement !== form.elements.namedItem('email'))
      void runEmailCheck(typed.email);
    // Once, on hydration: later the fields hold the state's values.
  }, []);

  /**
   * Focuses a field; for the time, a slot that can be chosen (not `avoidSlot`, the one just refused), else the
   * calendar, else (no route yet) the routing step's button or the words shown instead of a calendar.
   */
  const focusField = (field: DemoRequestField, avoidSlot?: string) => {
    const form = formRef.current;
    if (!form) return;
    if (field !== 'timeSlot') {
      form.querySelector<HTMLElement>(`#${CSS.escape(ids[field])}`)?.focus();
      return;
    }
    if (routing.routesFirst && routing.route === null) {
      if (routing.refusal) routing.refusalRef.current?.focus();
      else form.querySelector<HTMLElement>(`#${CSS.escape(showTimesId)}`)?.focus();
      return;
    }
    focusTimeChoice(form, avoidSlot);
  };

  /** Focuses a question's chosen option, else its first. */
  const focusQuestion = (questionId: string) => {
    const group = formRef.current?.querySelector(`#${CSS.escape(questionGroupId(id, questionId))}`);
    (
      group?.querySelector<HTMLInputElement>('input:checked') ?? group?.querySelector<HTMLInputElement>('input')
    )?.focus();
  };
  /** The first question of `problems`, in the form's order. */
  const firstQuestionOf = (problems: Record<string, string>) =>
    routing.questions.find((question) => problems[question.id])?.id;

  /**
   * The routing step's button: the route of the address and answers, whose times the calendar then shows.
   * `byVisitor` false: asked on its own, the e-mail accepted, so the answer does not move the focus.
   */
  const onShowTimes = async (byVisitor = true) => {
    if (routing.isRouting) return;
    const email = values.email.trim();
    const answerProblems = routing.checkAnswers();
    setErrors((current) => ({
      ...current,
      timeSlot: undefined,
      ...(email === '' ? { email: requiredMessage('email') } : {}),
    }));
    if (email === '') {
      focusField('email');
      return;
    }
    const firstQuestion = firstQuestionOf(answerProblems);
    if (firstQuestion) {
      focusQuestion(firstQuestion);
      return;
    }
    const outcome = await routing.ask(email, byVisitor);
    if (outcome.kind !== 'invalid' || !byVisitor) return;
    const emailProblem = serverFieldErrors(outcome.error).email;
    if (emailProblem) {
      setErrors((current) => ({ ...current, email: emailProblem }));
      focusField('email');
      return;
    }
    const firstRefused = firstQuestionOf(serverAnswerErrors(outcome.error));
    if (firstRefused) focusQuestion(firstRefused);
    else notifyError('Error', submitErrorMessage(outcome.error));
  };

  // Without questions, the route follows the address alone: asked for once the e-mail check accepts it.
  useEffect(() => {
    if (routing.byEmailAlone && emailCheck.state === 'valid' && routing.route === null && !routing.refusal)
      void onShowTimes(false);
    // Once per accepted address: a change of address makes another check.
  }, [emailCheck, routing.byEmailAlone]);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isSubmitting) return;
    const problems: Errors = {};
    for (const field of REQUIRED_FIELDS) {
      if (field !== 'timeSlot' && field !== 'smsConsent' && values[field].trim() === '')
        problems[field] = requiredMessage(field);
    }
    // The link markers only: a domain-shaped word needs IANA's list, which the API holds (its answer names the field).
    const nameLink = nameLinkProblem(values.name);
    if (nameLink) problems.name = nameLink;
    const companyLink = companyLinkProblem(values.company);
    if (companyLink) problems.company = companyLink;
    const texting = routing.texts && smsConsent;
    if (texting && values.phone.trim() === '') problems.phone = SMS_PHONE_REQUIRED;
    const answerProblems = routing.asks ? routing.checkAnswers() : {};
    if (!slotIso)
      problems.timeSlot =
        routing.routesFirst && !routing.route
          ? routing.byEmailAlone
            ? EMAIL_BEFORE_TIMES
            : SHOW_TIMES_FIRST
          : requiredMessage('timeSlot');
    else {
      // The domain's one check of a slot: the dialog may have stayed open past the chosen hour.
      const problem = timeSlotProblem(slotIso, new Date(), zone, PAGE_MIN_NOTICE);
      if (problem) problems.timeSlot = problem;
    }
    const firstProblem = DEMO_REQUEST_FIELDS.find((field) => problems[field]);
    // The questions come after the company and before the time.
    const firstQuestion = firstQuestionOf(answerProblems);
    if (firstProblem || firstQuestion) {
      setErrors(problems);
      if (firstProblem && ['name', 'email', 'company'].includes(firstProblem)) focusField(firstProblem);
      else if (firstQuestion) focusQuestion(firstQuestion);
      else if (firstProblem) focusField(firstProblem);
      return;
    }
    const body: DemoRequestBody = {
      name: values.name.trim(),
      email: values.email.trim(),
      company: values.company.trim(),
      timeSlot: slotIso as string,
    };
    if (values.phone.trim()) body.phone = values.phone.trim();
    if (texting) body.smsConsent = true;
    if (values.message.trim()) body.message = values.message.trim();
    const attribution = rememberedAttribution(visitStorage());
    if (attribution) body.attribution = attribution;
    // The visitor's own zone, so the e-mails show the slot on their clock too (the server drops one it does not know).
    if (VISITOR_ZONE) body.visitorTimeZone = VISITOR_ZONE;
    if (routing.asks) body.answers = routing.answers;
    if (trap !== '') body[HONEYPOT_FIELD] = trap;
    // The body is built in one fixed order, so its JSON text tells the same submission from a changed one.
    const attempt = nextAttempt(openAttempt.current, JSON.stringify(body));
    let created: BookingCreated;
    try {
      created = await submitDemoRequest({ body, idempotencyKey: attempt.key }).unwrap();
    } catch (error) {
      openAttempt.current = mayRetryWithSameKey(error) ? attempt : null;
      // A 422: the route turns the request away, in words shown (and focused) instead of the calendar.
      if (routing.routesFirst && routing.refused(error)) return;
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
      const firstRefused = firstQuestionOf(serverAnswerErrors(error));
      if (firstServerProblem) focusField(firstServerProblem);
      else if (firstRefused) focusQuestion(firstRefused);
      return;
    }
    openAttempt.current = null;
    countFunnelStep('booked');
    const demo = demoEvent(body.company, new Date(created.timeSlot), created.meetingUrl);
    notifySuccess(
      SUCCESS_TITLE,
      SUCCESS_TEXT,
      {
        label: 'Add to calendar:',
        items: [
          { label: 'Google', href: googleCalendarLink(demo) },
          { label: 'Outlook', href: outlookCalendarLink(demo) },
          // An answer kept for an Idempotency-Key from before the link existed has none.
          ...(created.invitePath ? [{ label: '.ics', href: created.invitePath, download: true }] : []),
        ],
      },
      bookedDetails(created, BOOKING_ZONE, VISITOR_ZONE),
    );
    setValues(EMPTY);
    setTrap('');
    setSmsConsent(false);
    setDay(null);
    setSlotIso(null);
    setErrors({});
    setEmailCheck({ state: 'idle' });
    checkedEmail.current = null;
    routing.reset();
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

  const onEmailChange = (value: string) => {
    setValue('email', value);
    // The route follows the address (its domain, its account's owner).
    if (routing.routesFirst) routing.forget();
    checkedEmail.current = null;
    setEmailCheck({ state: 'idle' });
  };
  const onEmailBlur = () => {
    if (checkedEmail.current !== values.email) void runEmailCheck(values.email);
  };
  const onUseSuggestion = (suggestion: string) => {
    setValue('email', suggestion);
    void runEmailCheck(suggestion);
  };
  const onSmsConsentChange = (checked: boolean) => {
    setSmsConsent(checked);
    // The phone's problem may have been the consent's.
    setErrors((current) => (current.phone ? { ...current, phone: undefined } : current));
  };
  const onDayChange = (next: CalendarDay | null) => {
    setDay(next);
    setSlotIso(null);
  };
  const onSlotChange = (iso: string) => {
    setSlotIso(iso);
    setErrors((current) => ({ ...current, timeSlot: undefined }));
    countFunnelStep('slotChosen');
  };

  return {
    id,
    ids,
    formRef,
    values,
    day,
    slotIso,
    errors,
    emailCheck,
    trap,
    setTrap,
    isSubmitting,
    zone,
    visitorZone: VISITOR_ZONE,
    fieldProps,
    onSubmit,
    onEmailChange,
    onEmailBlur,
    smsConsent,
    onSmsConsentChange,
    onUseSuggestion,
    onDayChange,
    onSlotChange,
    routing,
    showTimesId,
    onShowTimes,
  };
}
