import Router from '@koa/router';
import { EMAIL_MAX_LENGTH, EMAIL_REQUIRED_MESSAGE } from '../../domain/email-messages.js';
import { checkEmail } from '../email-rules.js';
import { answer, bodyRefusals, json, tooMany, type OpenApiPart } from '../openapi-parts.js';
import { rateLimit, type RequestLimits } from '../rate-limit.js';
import { validateBody } from '../validation.js';
import { emailCheckSchema, emailValidationResultSchema, type EmailCheckInput } from './schemas.js';

export function emailCheckRoutes(limits?: RequestLimits): Router {
  const router = new Router();
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
      // checkEmail keeps what it makes of each domain (the costly part), so an address never seen costs little more
      // than one asked again: the answer is made for every request, not kept per address.
      ctx.body = checkEmail(ctx.state.body.email);
    },
  );
  return router;
}

export const emailCheckOpenApi: OpenApiPart = {
  paths: {
    '/api/validate-email': {
      post: {
        operationId: 'validateEmail',
        summary: 'Check a work e-mail address: syntax, personal and disposable providers, role addresses, typos.',
        requestBody: { required: true, content: json('EmailCheck') },
        responses: { '200': answer('The verdict.', 'EmailValidationResult'), ...bodyRefusals, '429': tooMany },
      },
    },
  },
  components: { schemas: { EmailCheck: emailCheckSchema, EmailValidationResult: emailValidationResultSchema } },
};
