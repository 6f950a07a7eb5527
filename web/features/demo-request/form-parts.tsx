import type { ReactNode } from 'react';
import { styled, css } from 'styled-components';
import { AlertIcon } from '../../components/icons.js';

export const Field = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space[1]};
`;

export const Label = styled.label`
  font-weight: 600;
  font-size: ${({ theme }) => theme.text.sm};
`;

export const Hint = styled.p`
  font-size: ${({ theme }) => theme.text.sm};
  color: ${({ theme }) => theme.colors.muted};
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

export const Input = styled.input<{ $invalid?: boolean }>`
  ${control};
  min-height: 44px;
`;

export const TextArea = styled.textarea<{ $invalid?: boolean }>`
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
    margin-top: 2px;
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
