/** The rules of a demo request beyond its schema: no links in the name or company, personal and disposable e-mail domains, bookable slots, a textable phone with the texts' consent. */
import { timeSlotProblem } from '../../domain/booking.js';
import type { DemoRequestField, DemoRequestInput } from '../../domain/demo-request.js';
import { companyLinkProblem, nameLinkProblem } from '../../domain/links-in-text.js';
import { emailProblem, isDomainEnding } from '../email-rules.js';
import { smsPhoneProblem } from './sms-consent.js';

/** The rules beyond the schema, for a body the schema accepted. */
export function demoRequestProblems(
  input: DemoRequestInput,
  now: Date,
  timeZone: string,
  minNoticeMinutes: number,
  texts = false,
): Partial<Record<DemoRequestField, string>> {
  const problems: Partial<Record<DemoRequestField, string>> = {};
  const name = nameLinkProblem(input.name, isDomainEnding);
  if (name) problems.name = name;
  const company = companyLinkProblem(input.company, isDomainEnding);
  if (company) problems.company = company;
  const email = emailProblem(input.email);
  if (email) problems.email = email;
  const slot = timeSlotProblem(input.timeSlot, now, timeZone, minNoticeMinutes);
  if (slot) problems.timeSlot = slot;
  const phone = smsPhoneProblem(input, texts);
  if (phone) problems.phone = phone;
  return problems;
}
