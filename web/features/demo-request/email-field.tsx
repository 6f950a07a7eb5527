import { styled } from 'styled-components';
import { CheckCircleIcon, CrossCircleIcon, Spinner } from '../../components/icons.js';
import { VisuallyHidden } from '../../components/visually-hidden.js';
import type { EmailCheck } from './email-check.js';
import { TextField } from '../../components/form-parts.js';

const Status = styled.span<{ $state: EmailCheck['state'] }>`
  position: absolute;
  right: 0.75rem;
  top: 50%;
  transform: translateY(-50%);
  display: inline-flex;
  color: ${({ theme, $state }) =>
    $state === 'valid' ? theme.colors.success : $state === 'invalid' ? theme.colors.danger : theme.colors.muted};
`;

const Suggestion = styled.p`
  font-size: ${({ theme }) => theme.text.sm};
  color: ${({ theme }) => theme.colors.inkSoft};
  button {
    border: 0;
    padding: 0;
    background: none;
    color: ${({ theme }) => theme.colors.primary};
    font-weight: 700;
    text-decoration: underline;
    cursor: pointer;
  }
`;

const STATUS_TEXT: Record<EmailCheck['state'] | 'unsure', string> = {
  idle: '',
  checking: 'Checking email address…',
  valid: 'Email address looks good',
  // Accepted, but close to another address: no tick until the visitor has looked at the suggestion.
  unsure: 'Please check the email address',
  invalid: 'Email address not accepted',
};

interface EmailFieldProps {
  id: string;
  value: string;
  check: EmailCheck;
  /** A message from the form or the server; it wins over the check's reason. */
  error?: string | undefined;
  onChange: (value: string) => void;
  onBlur: () => void;
  onUseSuggestion: (suggestion: string) => void;
}

export function EmailField({ id, value, check, error, onChange, onBlur, onUseSuggestion }: EmailFieldProps) {
  const statusId = `${id}-status`;
  const suggestionId = `${id}-suggestion`;
  const message = error ?? (check.state === 'invalid' ? check.reason : undefined);
  const suggestion = check.state === 'valid' || check.state === 'invalid' ? check.suggestion : undefined;
  const status = check.state === 'valid' && suggestion ? 'unsure' : check.state;
  return (
    <TextField
      id={id}
      name="email"
      label="Email"
      type="email"
      autoComplete="email"
      inputMode="email"
      spellCheck={false}
      placeholder="you@company.com"
      value={value}
      error={message}
      onChange={onChange}
      onBlur={onBlur}
      adornment={
        status !== 'idle' && status !== 'unsure' ? (
          <Status $state={status} role="img" aria-label={STATUS_TEXT[status]}>
            {status === 'checking' ? <Spinner /> : null}
            {status === 'valid' ? <CheckCircleIcon size={22} /> : null}
            {status === 'invalid' ? <CrossCircleIcon size={22} /> : null}
          </Status>
        ) : null
      }
      describedBy={{ before: [statusId], after: suggestion ? [suggestionId] : [] }}
      beforeError={
        <VisuallyHidden id={statusId} role="status">
          {STATUS_TEXT[status]}
        </VisuallyHidden>
      }
      afterError={
        suggestion ? (
          <Suggestion id={suggestionId}>
            Did you mean:{' '}
            <button type="button" onClick={() => onUseSuggestion(suggestion)}>
              {suggestion}
            </button>
            ?
          </Suggestion>
        ) : null
      }
    />
  );
}
