import Router from '@koa/router';
import type { ErrorObject } from 'ajv';
import { ATTRIBUTION_MAX_LENGTH } from '../../domain/attribution.js';
import {
  demoRequestSchema,
  fieldLabels,
  IDEMPOTENCY_HEADER,
  IDEMPOTENCY_KEY_PATTERN,
  normaliseDemoRequestBody,
  requiredMessage,
  TIME_ZONE_MAX_LENGTH,
  type DemoRequestField,
  type DemoRequestInput,
} from '../../domain/demo-request.js';
import type { LogFields } from '../request-log.js';
import { demoRequestProblems } from './demo-request-rules.js';
import { idempotencyKeyOf } from '../idempotency.js';
import { rateLimit, type RequestLimits } from '../rate-limit.js';
import type { ParameterizedContext } from 'koa';
import { readJsonBody, validateBody, type ValidatedBody } from '../validation.js';
import { answerTrapped, honeypot } from './honeypot.js';
import { submitDemoRequest, type DemoRequestDeps } from './book.js';
import type { KnownFunnelSources } from '../funnel/known-sources.js';
import { aliasOf } from '../route-alias.js';
import { answer, bodyRefusals, json, refused, tooMany, type OpenApiPart } from '../openapi-parts.js';
import type { OperationObject } from 'openapi3-ts/oas31';
import { bookingCreatedSchema } from './schemas.js';
import { NotRoutedError } from '../routing/route-answer.js';
import { disqualifiedCounter } from '../funnel/disqualified.js';

function messageFor(error: ErrorObject, field: string): string {
  if (field === 'attribution')
    return `Attribution must be an object of texts of at most ${ATTRIBUTION_MAX_LENGTH} characters.`;
  if (field === 'visitorTimeZone')
    return `visitorTimeZone must be an IANA time zone name (such as America/New_York) of at most ${TIME_ZONE_MAX_LENGTH} characters.`;
  const known = field in fieldLabels ? (field as DemoRequestField) : undefined;
  if (!known) return 'The request body must be a JSON object.';
  switch (error.keyword) {
    case 'required':
    case 'minLength':
      return requiredMessage(known);
    case 'maxLength':
      return `${fieldLabels[known]} must be at most ${String(error.params.limit)} characters.`;
    default:
      return known === 'smsConsent' ? 'smsConsent must be true or false.' : `${fieldLabels[known]} must be text.`;
  }
}

export type DemoRequestRouteDeps = DemoRequestDeps & {
  timeZone: string;
  minNoticeMinutes: number;
  now: () => Date;
  limits?: RequestLimits;
  /** Told of every request the honeypot caught and stored (the slot list of its network). */
  trapped?: () => void;
  /** Told the source of each booking stored, which the funnel then counts under its name; asked how to count one. */
  funnelSources?: Pick<KnownFunnelSources, 'booked' | 'counted'>;
};

/** What the form's route (api/no-script/routes.ts) leaves for the steps: the key of its hidden field. */
export interface FormIdempotencyKey {
  idempotencyKey?: string;
}

/**
 * The steps of a booking request, from the rate limit to the answer (201 and BookingCreated, or an ApiError thrown):
 * the API's JSON body with its Idempotency-Key header, or (`form`) a page's form posted without script, its body
 * parsed by its route and its key in ctx.state.idempotencyKey. One rate limit (by its name), one honeypot, one
 * validation, one booking, whichever way the request came.
 */
export function demoRequestSteps(deps: DemoRequestRouteDeps, { form = false }: { form?: boolean } = {}) {
  const countDisqualified = disqualifiedCounter(deps);
  return [
    rateLimit(deps.limits?.limiter, {
      name: 'demo-request',
      limit: deps.limits?.demoRequestsPerHour ?? 0,
      windowMs: 3_600_000,
      details: (minutes) =>
        `Several demo requests came from your network in the last hour. Please try again in about ${minutes} minutes.`,
    }),
    readJsonBody,
    honeypot(),
    validateBody<DemoRequestInput>({
      schema: demoRequestSchema,
      normalise: normaliseDemoRequestBody,
      messages: messageFor,
      problems: (body) =>
        demoRequestProblems(body, deps.now(), deps.timeZone, deps.minNoticeMinutes, deps.followUps.texts !== undefined),
      summary: 'Invalid demo request',
      form,
    }),
    answerTrapped(deps),
    async (
      ctx: ParameterizedContext<ValidatedBody<DemoRequestInput> & FormIdempotencyKey & { logFields?: LogFields }>,
    ) => {
      const key = form ? (ctx.state.idempotencyKey ?? '') : ctx.get(IDEMPOTENCY_HEADER);
      const answer = await submitDemoRequest(deps, ctx.state.body, idempotencyKeyOf(key)).catch(
        async (err: unknown) => {
          if (err instanceof NotRoutedError && err.kind === 'disqualified')
            await countDisqualified(ctx.state.body.attribution?.utm_source);
          throw err;
        },
      );
      if (answer.replayed) ctx.set('Idempotent-Replayed', 'true');
      // The booking stored goes on the request's one log line (one write per booking, with its request id).
      if (answer.stored) {
        ctx.state.logFields = answer.stored satisfies LogFields;
        deps.funnelSources?.booked(ctx.state.body.attribution?.utm_source);
      }
      ctx.status = answer.status;
      ctx.body = answer.body;
    },
  ] as const;
}

export function demoRequestRoutes(deps: DemoRequestRouteDeps): Router {
  const router = new Router();
  // One route at both paths: one rate limit, one idempotency key space.
  const chain = demoRequestSteps(deps);
  router.post(BOOKINGS_PATH, ...chain);
  router.post(DEMO_REQUEST_PATH, ...aliasOf(chain));
  return router;
}

/** Where a booking is made: the API's one noun for it. */
export const BOOKINGS_PATH = '/api/bookings';
/** The same route under the path the specification names, kept as an alias. */
export const DEMO_REQUEST_PATH = '/api/demo-request';

const bookOperation: OperationObject = {
  summary: 'Book a demo slot; a confirmation with a calendar invitation is e-mailed.',
  parameters: [
    {
      name: IDEMPOTENCY_HEADER,
      in: 'header',
      required: false,
      description:
        'The same key for a retry of one submission: the first answer is given again, nothing is stored twice.',
      schema: { type: 'string', pattern: IDEMPOTENCY_KEY_PATTERN.source },
    },
  ],
  requestBody: { required: true, content: json('DemoRequest') },
  responses: {
    '201': answer('Stored; the confirmation is on its way.', 'BookingCreated'),
    ...bodyRefusals,
    '409': refused(
      "The slot is full (with a team: no host of the prospect's route, nor the account's owner, is free then), or this person already holds it.",
    ),
    '422': refused(
      'The team file\'s routes turn the prospect away ({ disqualified: true, message }: nothing stored but a funnel count) or no route takes them ({ unrouted: true, message }); or the idempotency key was used with another body. An unanswered routing question, or an answer that is none of its options, is a 400 with fields["answers.<id>"].',
    ),
    '429': tooMany,
    '503': refused('The database does not answer; nothing was stored.'),
  },
};

export const demoRequestOpenApi: OpenApiPart = {
  paths: {
    [BOOKINGS_PATH]: { post: { operationId: 'book', ...bookOperation } },
    [DEMO_REQUEST_PATH]: {
      post: {
        operationId: 'requestDemo',
        ...bookOperation,
        description: `The specification's path for ${BOOKINGS_PATH}: the same route, its rate limit and idempotency keys shared.`,
      },
    },
  },
  components: { schemas: { DemoRequest: demoRequestSchema, BookingCreated: bookingCreatedSchema } },
};
