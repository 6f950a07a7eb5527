/** What the e-mail check says, kept apart from the rules so the browser can use it without the domain lists. */
export const EMAIL_REQUIRED_MESSAGE = 'Email is required';
export const EMAIL_SYNTAX_MESSAGE = 'Please enter a valid email address.';
export const PERSONAL_EMAIL_MESSAGE =
  'Please use your company email address. Personal email addresses are not accepted.';
export const INVISIBLE_EMAIL_MESSAGE =
  'This email address contains invisible or text-direction characters. Please type it again.';
export const MISTYPED_EMAIL_MESSAGE = 'This email domain looks mistyped. Please check it.';
/** For a slip of a personal provider's domain (gmial.com): correcting it would only lead into a refusal. */
export const mistypedPersonalMessage = (domain: string): string =>
  `This looks like a mistyped ${domain} address, and personal email addresses are not accepted. Please use your company email address.`;
/** For an address whose ending is on no list of top-level domains (acme.logisticz, acme.con): no mail reaches it. */
export const unknownEndingMessage = (ending: string): string =>
  `This address cannot receive mail: “.${ending}” is not a domain ending. Please check it.`;
export const DISPOSABLE_EMAIL_MESSAGE =
  'Disposable email addresses are not accepted. Please use your company email address.';

export const EMAIL_MAX_LENGTH = 254;

export interface EmailValidationResult {
  isValid: boolean;
  isDisposable: boolean;
  isFreeProvider: boolean;
  isRoleEmail: boolean;
  reason?: string;
  suggestion?: string;
}
