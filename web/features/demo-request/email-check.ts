import {
  EMAIL_REQUIRED_MESSAGE,
  EMAIL_SYNTAX_MESSAGE,
  type EmailValidationResult,
} from '../../../domain/email-messages.js';

export type EmailCheck =
  | { state: 'idle' }
  | { state: 'checking' }
  | { state: 'valid'; suggestion?: string }
  | { state: 'invalid'; reason: string; suggestion?: string };

/**
 * The check run when the visitor leaves the e-mail field. An empty value is refused without a call; a failing
 * call is logged and counts as valid, because the server checks again on submit and a flaky check must not block anyone.
 */
export async function checkEmail(
  value: string,
  validate: (email: string) => Promise<EmailValidationResult>,
): Promise<Exclude<EmailCheck, { state: 'idle' | 'checking' }>> {
  const email = value.trim();
  if (email === '') return { state: 'invalid', reason: EMAIL_REQUIRED_MESSAGE };
  let result: EmailValidationResult;
  try {
    result = await validate(email);
  } catch (error) {
    console.error('Email validation failed; treating the address as valid.', error);
    return { state: 'valid' };
  }
  const suggestion = result.suggestion && result.suggestion !== email ? result.suggestion : undefined;
  if (result.isValid) return suggestion ? { state: 'valid', suggestion } : { state: 'valid' };
  const reason = result.reason ?? EMAIL_SYNTAX_MESSAGE;
  return suggestion ? { state: 'invalid', reason, suggestion } : { state: 'invalid', reason };
}
