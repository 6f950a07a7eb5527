import type { ChangeEvent, HTMLAttributes, ReactNode } from 'react';
import { styled, css } from 'styled-components';
import { AlertIcon } from './icons.js';

const Field = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space[1]};
`;

const Label = styled.label`
  font-weight: 600;
  font-size: ${({ theme }) => theme.text.sm};
`;

const Optional = styled.span`
  font-weight: 400;
  color: ${({ theme }) => theme.colors.muted};
`;

export const Hint = styled.p`
  font-size: ${({ theme }) => theme.text.sm};
  color: ${({ theme }) => theme.colors.muted};
`;

/** The texts' consent, in the dialog and the form without script: the box and its words on one line, the whole line a
 * target, the hint under the words. */
export const Consent = styled.div`
  display: grid;
  grid-template-columns: auto 1fr;
  align-items: center;
  column-gap: ${({ theme }) => theme.space[2]};
  input {
    width: 1.25rem;
    height: 1.25rem;
    margin: 0;
  }
  input:focus-visible {
    outline: 3px solid ${({ theme }) => theme.colors.focus};
    outline-offset: 2px;
  }
  label {
    min-height: 44px;
    display: flex;
    align-items: center;
    cursor: pointer;
  }
  ${Hint} {
    grid-column: 2;
  }
`;

const control = css<{ $invalid?: boolean }>`
  width: 100%;
  border: 1px solid ${({ theme, $invalid }) => ($invalid ? theme.colors.danger : theme.colors.borderStrong)};
  border-radius: ${({ theme }) => theme.radius.sm};
  background: #fff;
  padding: ${({ theme }) => `${theme.space[2]} ${theme.space[3]}`};
  font-size: ${({ theme }) => theme.text.md};
  &::placeholder {
    color: #6b7489;
  }
  &:focus-visible {
    outline: 3px solid ${({ theme }) => theme.colors.focus};
    outline-offset: 1px;
  }
`;

const Input = styled.input<{ $invalid?: boolean }>`
  ${control};
  min-height: 44px;
`;

const TextArea = styled.textarea<{ $invalid?: boolean }>`
  ${control};
  resize: vertical;
`;

const ErrorText = styled.p`
  display: flex;
  align-items: flex-start;
  gap: ${({ theme }) => theme.space[1]};
  font-size: ${({ theme }) => theme.text.sm};
  color: ${({ theme }) => theme.colors.danger};
  svg {
    flex: none;
    margin-top: ${({ theme }) => theme.space[0.5]};
  }
`;

/** Always rendered, so the id that aria-describedby points at exists even before there is a message. */
export function FieldError({ id, message }: { id: string; message?: string | undefined }): ReactNode {
  if (!message) return <span id={id} hidden />;
  return (
    <ErrorText id={id}>
      <AlertIcon size={16} />
      {message}
    </ErrorText>
  );
}

/** The box of an input with something drawn over its right end; the input leaves room for it. */
const AdornedControl = styled.div`
  position: relative;
  input {
    padding-right: 2.75rem;
  }
`;

interface TextFieldProps {
  id: string;
  name: string;
  label: string;
  /** Adds "(Optional)" to the label. */
  optional?: boolean;
  value: string;
  /** The message shown under the field; the input is marked invalid while there is one. */
  error?: string | undefined;
  onChange: (value: string) => void;
  onBlur?: () => void;
  /** A textarea of this many rows instead of a one-line input. */
  rows?: number;
  type?: 'email' | 'tel';
  autoComplete?: string;
  inputMode?: HTMLAttributes<HTMLInputElement>['inputMode'];
  spellCheck?: boolean;
  placeholder?: string;
  maxLength?: number;
  /**
   * Drawn over the right end of the input (a status icon, say). When given, null included, the input sits in a box
   * that keeps room for it, so the box does not change as the adornment comes and goes.
   */
  adornment?: ReactNode;
  /** Descriptions rendered before the error message, read first; `describedBy.before` names their ids. */
  beforeError?: ReactNode;
  /** Descriptions rendered after the error message; `describedBy.after` names their ids. */
  afterError?: ReactNode;
  /** Ids the input's aria-describedby names besides its error message's, before and after it. */
  describedBy?: { before?: readonly string[]; after?: readonly string[] };
}

/**
 * A labelled text input or textarea with its error message. The error's element is always there, so the
 * input's aria-describedby names an element that exists even before there is a message.
 */
export function TextField({
  id,
  name,
  label,
  optional = false,
  value,
  error,
  onChange,
  onBlur,
  rows,
  type,
  autoComplete,
  inputMode,
  spellCheck,
  placeholder,
  maxLength,
  adornment,
  beforeError,
  afterError,
  describedBy,
}: TextFieldProps) {
  const errorId = `${id}-error`;
  const shared = {
    id,
    name,
    autoComplete,
    spellCheck,
    placeholder,
    maxLength,
    value,
    $invalid: Boolean(error),
    'aria-invalid': error ? true : undefined,
    'aria-describedby': [...(describedBy?.before ?? []), errorId, ...(describedBy?.after ?? [])].join(' '),
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => onChange(event.target.value),
    onBlur,
  };
  const control =
    rows === undefined ? <Input {...shared} type={type} inputMode={inputMode} /> : <TextArea {...shared} rows={rows} />;
  return (
    <Field>
      <Label htmlFor={id}>
        {optional ? (
          <>
            {`${label} `}
            <Optional>(Optional)</Optional>
          </>
        ) : (
          label
        )}
      </Label>
      {adornment === undefined ? (
        control
      ) : (
        <AdornedControl>
          {control}
          {adornment}
        </AdornedControl>
      )}
      {beforeError}
      <FieldError id={errorId} message={error} />
      {afterError}
    </Field>
  );
}
