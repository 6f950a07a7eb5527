import Router from '@koa/router';
import { checkEmail } from '../../domain/email-rules.js';
import { validateBody } from '../validation.js';

const schema = {
  type: 'object',
  additionalProperties: false,
  required: ['email'],
  properties: { email: { type: 'string', maxLength: 1000 } },
} as const;

export function emailCheckRoutes(): Router {
  const router = new Router();
  router.post(
    '/api/validate-email',
    validateBody<{ email: string }>({
      schema,
      messages: (error) => (error.keyword === 'required' ? 'Email is required' : 'Email must be text.'),
      summary: 'Invalid email check',
    }),
    (ctx) => {
      ctx.body = checkEmail((ctx.state.body as { email: string }).email);
    },
  );
  return router;
}
