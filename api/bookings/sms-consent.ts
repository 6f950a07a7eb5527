/**
 * The texts' consent (issue 40): with the site sending texts (SMPP_URL), a ticked "Text me a confirmation and a
 * reminder" needs a phone that is a mobile-capable number of a real numbering plan, kept in E.164. Without consent the
 * phone stays the free text it always was; without texts the consent is not taken at all.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { SMS_CONSENT_TEXT, SMS_PHONE_REQUIRED, type DemoRequestInput } from '../../domain/demo-request.js';

export const SMS_PHONE_NOT_MOBILE =
  'Please enter a mobile number with its country code, such as +33 6 12 34 56 78, or untick the text messages.';

/** The types of number a text reaches: a plan that cannot tell (as North America's) counts as reaching one. */
const TEXTABLE = new Set(['MOBILE', 'FIXED_LINE_OR_MOBILE']);

/** The number in E.164 when it is a textable number of a real plan; undefined otherwise. */
export function textableNumber(phone: string): string | undefined {
  const parsed = parsePhoneNumberFromString(phone);
  if (!parsed?.isValid()) return undefined;
  const type = parsed.getType();
  return type !== undefined && TEXTABLE.has(type) ? parsed.number : undefined;
}

/** What is wrong with the phone given the consent; undefined when nothing (or when the site sends no texts). */
export function smsPhoneProblem(input: DemoRequestInput, texts: boolean): string | undefined {
  if (!texts || input.smsConsent !== true) return undefined;
  if (!input.phone) return SMS_PHONE_REQUIRED;
  return textableNumber(input.phone) ? undefined : SMS_PHONE_NOT_MOBILE;
}

/** The consent a booking keeps: the number in E.164 and the words ticked; none without texts or consent. */
export function smsConsentOf(input: DemoRequestInput, texts: boolean): { phone: string; text: string } | undefined {
  if (!texts || input.smsConsent !== true || !input.phone) return undefined;
  const phone = textableNumber(input.phone);
  return phone ? { phone, text: SMS_CONSENT_TEXT } : undefined;
}
