import Router from '@koa/router';
import type { JSONSchemaType } from 'ajv';
import { EMAIL_MAX_LENGTH, EMAIL_REQUIRED_MESSAGE } from '../../domain/email-messages.js';
import type { EmailValidationResult } from '../../domain/email-messages.js';
import { checkEmail } from '../../server-shared/email-rules.js';
import { rateLimit, type RequestLimits } from '../rate-limit.js';
import { validateBody } from '../validation.js';

export interface EmailCheckInput {
  email: string;
}

export const emailCheckSchema: JSONSchemaType<EmailCheckInput> = {
  $id: 'email-check',
  type: 'object',
  additionalProperties: false,
  required: ['email'],
  properties: { email: { type: 'string', maxLength: EMAIL_MAX_LENGTH } },
};

/** Addresses whose answers are kept at most; the least recently asked goes first. */
export const EMAIL_CHECK_CACHE_SIZE = 5000;

/**
 * checkEmail with its answers kept for the addresses asked lately: the form asks again about the address being
 * typed (each pause, the blur, the submit), and the check (the spell checker above all) is the endpoint's own cost.
 * The answer depends on the address alone, so a kept one is the answer.
 */
export function cachedEmailCheck(size = EMAIL_CHECK_CACHE_SIZE): (email: string) => EmailValidationResult {
  const kept = new Map<string, EmailValidationResult>();
  return (email) => {
    const known = kept.get(email);
    if (known) {
      // A Map iterates in insertion order: inserting again makes it the most recent.
      kept.delete(email);
      kept.set(email, known);
      return known;
    }
    const result = Object.freeze(checkEmail(email));
    if (kept.size >= size) kept.delete(kept.keys().next().value as string);
    kept.set(email, result);
    return result;
  };
}

export function emailCheckRoutes(limits?: RequestLimits): Router {
  const router = new Router();
  const check = cachedEmailCheck();
  router.post(
    '/api/validate-email',
    rateLimit(limits?.limiter, {
      name: 'validate-email',
      limit: limits?.emailChecksPerMinute ?? 0,
      windowMs: 60_000,
      details: () => 'Too many e-mail checks from your network. Please wait a minute and try again.',
    }),
    validateBody<EmailCheckInput>({
      schema: emailCheckSchema,
      messages: (error) =>
        error.keyword === 'required'
          ? EMAIL_REQUIRED_MESSAGE
          : error.keyword === 'maxLength'
            ? `Email must be at most ${EMAIL_MAX_LENGTH} characters.`
            : 'Email must be text.',
      summary: 'Invalid email check',
    }),
    (ctx) => {
      ctx.body = check(ctx.state.body.email);
    },
  );
  return router;
}
