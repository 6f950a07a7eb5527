import type { ReactNode } from 'react';
import { styled } from 'styled-components';
import { brand } from '../../../domain/brand.js';
import {
  COMPANY_MAX_LENGTH,
  HONEYPOT_FIELD,
  MESSAGE_MAX_LENGTH,
  NAME_MAX_LENGTH,
  PHONE_MAX_LENGTH,
  SMS_CONSENT_TEXT,
  type BookingView,
  type DemoRequestField,
} from '../../../domain/demo-request.js';
import { EMAIL_MAX_LENGTH } from '../../../domain/email-messages.js';
import {
  BOOK_PATH,
  bookingPaths,
  FORM_KEY_FIELD,
  attributionField,
  type BookFormPage,
  type BookingOutcomePage,
  type CancelFormPage,
  type MoveFormPage,
  type NoScriptPage,
} from '../../../domain/no-script-pages.js';
import { Button } from '../../components/button.js';
import { BookingFacts } from '../../components/booking-page.js';
import { Consent, Hint, TextField } from '../../components/form-parts.js';
import { ATTRIBUTION_KEYS } from '../../../domain/attribution.js';
import { describeBookingTime } from '../date-time-picker/booking-time.js';
import { Actions, DangerButton, ErrorSummary, Lead, PageCard, Title } from './page-parts.js';
import { TimesChooser, TimesForm } from './times-form.js';
import { SlotChoiceField, slotChoicesTarget } from './slot-choices.js';
import { QuestionFields, questionFieldId } from './question-fields.js';
import { answerField } from '../../../domain/routing.js';

/**
 * The booking pages a visitor without script uses: the booking form (GET /book), and what its post and a booking's
 * move and cancel answer. Rendered by the server only (web/app/no-script-prerender.tsx): plain forms that post, links,
 * no handler to run.
 */

const Form = styled.form`
  display: grid;
  gap: ${({ theme }) => theme.space[5]};
`;

/** The dialog's honeypot box, as it has it: off-screen rather than display:none, which a simple bot skips. */
const Honeypot = styled.div`
  position: absolute;
  left: -10000px;
  top: auto;
  width: 1px;
  height: 1px;
  overflow: hidden;
`;

const TextLink = styled.a`
  font-weight: 600;
  color: ${({ theme }) => theme.colors.primary};
`;

/** Nothing to do on change: the page has no script, the browser keeps what is typed. */
const unchanged = () => undefined;

const FIELD_ID_PREFIX = 'book';
const fieldId = (field: DemoRequestField) => `${FIELD_ID_PREFIX}-${field}`;
const SLOT_ID_PREFIX = 'slot';

function BookForm({ page, zone }: { page: BookFormPage; zone: string }) {
  const { values, problems } = page;
  const field = (name: Exclude<DemoRequestField, 'timeSlot'>) => ({
    id: fieldId(name),
    name,
    value: values[name] ?? '',
    error: problems.fields[name],
    onChange: unchanged,
  });
  const targets: Partial<Record<string, string>> = {
    name: fieldId('name'),
    email: fieldId('email'),
    company: fieldId('company'),
    phone: fieldId('phone'),
    smsConsent: fieldId('smsConsent'),
    message: fieldId('message'),
    timeSlot: slotChoicesTarget(SLOT_ID_PREFIX, page.choices),
    ...Object.fromEntries(
      page.questions.map((question) => [answerField(question.id), questionFieldId(FIELD_ID_PREFIX, question)]),
    ),
  };
  return (
    <>
      <Title>Book your {brand.product} demo</Title>
      <Lead>
        Choose a time that suits you and tell us who you are: we e-mail your confirmation with a calendar invitation.
      </Lead>
      <ErrorSummary problems={problems} targets={targets} />
      <Form method="post" action={BOOK_PATH} noValidate>
        <input type="hidden" name={FORM_KEY_FIELD} value={page.idempotencyKey} />
        {ATTRIBUTION_KEYS.filter((key) => page.attribution[key]).map((key) => (
          <input key={key} type="hidden" name={attributionField(key)} value={page.attribution[key]} />
        ))}
        <input type="hidden" name="visitorTimeZone" value={page.visitorZone} />
        <SlotChoiceField
          idPrefix={SLOT_ID_PREFIX}
          name="timeSlot"
          choices={page.choices}
          zone={zone}
          visitorZone={page.visitorZone}
          chosen={values.timeSlot}
          error={problems.fields.timeSlot}
        >
          <TimesChooser
            idPrefix={SLOT_ID_PREFIX}
            choices={page.choices}
            visitorZone={page.visitorZone}
            attribution={page.attribution}
          />
        </SlotChoiceField>
        <TextField {...field('name')} label="Name" autoComplete="name" maxLength={NAME_MAX_LENGTH} />
        <TextField
          {...field('email')}
          label="Email"
          type="email"
          autoComplete="email"
          inputMode="email"
          spellCheck={false}
          placeholder="you@company.com"
          maxLength={EMAIL_MAX_LENGTH}
        />
        <TextField {...field('company')} label="Company" autoComplete="organization" maxLength={COMPANY_MAX_LENGTH} />
        <QuestionFields
          idPrefix={FIELD_ID_PREFIX}
          questions={page.questions}
          answers={page.answers}
          errors={problems.fields}
        />
        <TextField
          {...field('phone')}
          label="Phone"
          optional
          type="tel"
          autoComplete="tel"
          placeholder="+1 (555) 123-4567"
          maxLength={PHONE_MAX_LENGTH}
        />
        {page.texts ? (
          <Consent>
            <input
              id={fieldId('smsConsent')}
              name="smsConsent"
              type="checkbox"
              value="true"
              defaultChecked={values.smsConsent === 'true'}
              aria-describedby={`${fieldId('smsConsent')}-hint`}
            />
            <label htmlFor={fieldId('smsConsent')}>{SMS_CONSENT_TEXT}</label>
            <Hint id={`${fieldId('smsConsent')}-hint`}>To the phone above, with its country code.</Hint>
          </Consent>
        ) : null}
        <TextField
          {...field('message')}
          label="Message"
          optional
          rows={3}
          maxLength={MESSAGE_MAX_LENGTH}
          placeholder="What would you like to see in the demo?"
        />
        <Honeypot aria-hidden="true">
          <label htmlFor={`${FIELD_ID_PREFIX}-${HONEYPOT_FIELD}`}>Leave this field empty</label>
          <input
            id={`${FIELD_ID_PREFIX}-${HONEYPOT_FIELD}`}
            name={HONEYPOT_FIELD}
            type="text"
            tabIndex={-1}
            autoComplete="off"
            defaultValue=""
          />
        </Honeypot>
        <div>
          <Button type="submit" $size="lg">
            Request Demo
          </Button>
        </div>
      </Form>
      <TimesForm />
    </>
  );
}

/** Who, when, with whom and where: the booking's details, as the manage page lists them. */
function BookingDetails({ booking, zone }: { booking: BookingView; zone: string }) {
  const cancelled = booking.status === 'cancelled';
  return (
    <BookingFacts>
      <dt>When</dt>
      <dd>{describeBookingTime(booking.timeSlot, zone, zone).text}</dd>
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
  );
}

const OUTCOME_TITLES: Record<BookingOutcomePage['kind'], string> = {
  booked: 'Your demo is booked',
  moved: 'Your demo is moved',
  cancelled: 'Your demo is cancelled',
};

function BookingOutcome({ page, zone }: { page: BookingOutcomePage; zone: string }) {
  const paths = bookingPaths(page.token);
  const cancelled = page.booking.status === 'cancelled';
  const when = describeBookingTime(page.booking.timeSlot, zone, zone).text;
  const lead =
    page.kind === 'cancelled' || cancelled
      ? 'Your demo is cancelled, and its time is free for others. You can book a new demo whenever it suits you.'
      : page.kind === 'moved'
        ? `Your demo is moved to ${when}. We have e-mailed you the updated invitation.`
        : 'We have e-mailed your confirmation with a calendar invitation. Keep it: its link lets you move or cancel the demo.';
  return (
    <>
      <Title>{cancelled ? OUTCOME_TITLES.cancelled : OUTCOME_TITLES[page.kind]}</Title>
      <Lead>{lead}</Lead>
      <BookingDetails booking={page.booking} zone={zone} />
      <Actions>
        {cancelled ? (
          <Button as="a" href={BOOK_PATH}>
            Book a new demo
          </Button>
        ) : (
          <Button as="a" href={paths.invite} download="invite.ics">
            Add to your calendar
          </Button>
        )}
        <TextLink href={paths.manage}>{cancelled ? 'See your booking' : 'See, move or cancel your booking'}</TextLink>
      </Actions>
    </>
  );
}

function MoveForm({ page, zone }: { page: MoveFormPage; zone: string }) {
  const paths = bookingPaths(page.token);
  const when = describeBookingTime(page.booking.timeSlot, zone, zone).text;
  return (
    <>
      <Title>Choose a new time</Title>
      <Lead>Your demo stays on {when} until you confirm a new time.</Lead>
      <ErrorSummary problems={page.problems} targets={{ timeSlot: slotChoicesTarget(SLOT_ID_PREFIX, page.choices) }} />
      <Form method="post" action={paths.move} noValidate>
        <SlotChoiceField
          idPrefix={SLOT_ID_PREFIX}
          name="timeSlot"
          choices={page.choices}
          zone={zone}
          chosen={page.chosen}
          error={page.problems.fields.timeSlot}
        >
          <TimesChooser idPrefix={SLOT_ID_PREFIX} choices={page.choices} />
        </SlotChoiceField>
        <Actions>
          <Button type="submit">Confirm new time</Button>
          <TextLink href={paths.manage}>Keep current time</TextLink>
        </Actions>
      </Form>
      <TimesForm action={paths.move} />
    </>
  );
}

function CancelForm({ page, zone }: { page: CancelFormPage; zone: string }) {
  const paths = bookingPaths(page.token);
  const when = describeBookingTime(page.booking.timeSlot, zone, zone).text;
  return (
    <>
      <Title>Cancel this demo?</Title>
      <Lead>
        Your demo on {when} will be cancelled and its time given up. You can book a new demo whenever it suits you.
      </Lead>
      <ErrorSummary problems={page.problems} targets={{}} />
      <form method="post" action={paths.cancel}>
        <Actions>
          <DangerButton type="submit">Yes, cancel</DangerButton>
          <Button as="a" href={paths.manage} $variant="secondary">
            Keep it
          </Button>
        </Actions>
      </form>
    </>
  );
}

/** Each page's title, as the browser's tab and a screen reader's first words say it; "Error: " when refused. */
export function noScriptPageTitle(page: NoScriptPage): string {
  const base =
    page.kind === 'book'
      ? 'Book a demo'
      : page.kind === 'move'
        ? 'Choose a new time'
        : page.kind === 'cancel'
          ? 'Cancel this demo?'
          : page.kind === 'notice'
            ? page.title
            : page.booking.status === 'cancelled'
              ? OUTCOME_TITLES.cancelled
              : OUTCOME_TITLES[page.kind];
  const refused =
    'problems' in page && (page.problems.summary !== undefined || Object.values(page.problems.fields).some(Boolean));
  return `${refused ? 'Error: ' : ''}${base} | ${brand.product}`;
}

export function NoScriptPageContent({ page, zone }: { page: NoScriptPage; zone: string }) {
  let content: ReactNode;
  switch (page.kind) {
    case 'book':
      content = <BookForm page={page} zone={zone} />;
      break;
    case 'move':
      content = <MoveForm page={page} zone={zone} />;
      break;
    case 'cancel':
      content = <CancelForm page={page} zone={zone} />;
      break;
    case 'notice':
      content = (
        <>
          <Title>{page.title}</Title>
          <Lead>{page.text}</Lead>
          <Button as="a" href="/">
            Back to the home page
          </Button>
        </>
      );
      break;
    default:
      content = <BookingOutcome page={page} zone={zone} />;
  }
  return <PageCard>{content}</PageCard>;
}
