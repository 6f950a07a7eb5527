import { styled } from 'styled-components';
import {
  COMPANY_MAX_LENGTH,
  HONEYPOT_FIELD,
  MESSAGE_MAX_LENGTH,
  NAME_MAX_LENGTH,
  PHONE_MAX_LENGTH,
} from '../../../domain/demo-request.js';
import { Button } from '../../components/button.js';
import { TextField } from '../../components/form-parts.js';
import { DateTimePicker } from '../date-time-picker/date-time-picker.js';
import { EmailField } from './email-field.js';
import { useDemoRequestForm } from './use-demo-request-form.js';

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

/** The Request Demo form's markup; its state and behaviour are useDemoRequestForm's. */
export function DemoRequestForm({ now, onSubmitted }: DemoRequestFormProps) {
  const {
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
    visitorZone,
    fieldProps,
    onSubmit,
    onEmailChange,
    onEmailBlur,
    onUseSuggestion,
    onDayChange,
    onSlotChange,
  } = useDemoRequestForm(onSubmitted);

  return (
    <Form ref={formRef} noValidate onSubmit={(event) => void onSubmit(event)} aria-busy={isSubmitting}>
      <TextField {...fieldProps('name')} label="Name" autoComplete="name" maxLength={NAME_MAX_LENGTH} />
      <EmailField
        id={ids.email}
        value={values.email}
        check={emailCheck}
        error={errors.email}
        onChange={onEmailChange}
        onBlur={onEmailBlur}
        onUseSuggestion={onUseSuggestion}
      />
      <TextField {...fieldProps('company')} label="Company" autoComplete="organization" maxLength={COMPANY_MAX_LENGTH} />
      <DateTimePicker
        now={now}
        zone={zone}
        visitorZone={visitorZone}
        day={day}
        slotIso={slotIso}
        error={errors.timeSlot}
        onDayChange={onDayChange}
        onSlotChange={onSlotChange}
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
