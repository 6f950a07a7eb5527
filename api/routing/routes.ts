/**
 * The dialog's routing step: GET /api/routing gives the team file's questions, POST /api/routing { email, answers }
 * the route key the slot list takes (GET /api/slots?route=), or the booking's own 400 or 422. The e-mail address
 * travels in the body alone, never in a URL, and no log line holds it.
 */
import Router from '@koa/router';
import type { JSONSchemaType } from 'ajv';
import { FUNNEL_SOURCE_SENT_MAX_LENGTH } from '../../domain/funnel.js';
import { EMAIL_MAX_LENGTH, EMAIL_REQUIRED_MESSAGE } from '../../domain/email-messages.js';
import { ROUTING_ANSWERS_SCHEMA, type RoutingAnswers, type RoutingQuestion } from '../../domain/routing.js';
import { emailProblem } from '../email-rules.js';
import { ApiError } from '../errors.js';
import { answer, bodyRefusals, json, refused, tooMany, type OpenApiPart } from '../openapi-parts.js';
import { rateLimit, type RequestLimits } from '../rate-limit.js';
import { validateBody } from '../validation.js';
import type { ProspectRouting } from './prospect-route.js';
import { NotRoutedError, routeProspect } from './route-answer.js';
import { routeKey } from './route-key.js';

export interface RoutingInput {
  email: string;
  answers?: RoutingAnswers;
  /** The visit's utm_source, which a disqualified prospect is counted under in the funnel. */
  source?: string;
}

export const routingInputSchema: JSONSchemaType<RoutingInput> = {
  $id: 'routing-input',
  type: 'object',
  additionalProperties: false,
  required: ['email'],
  properties: {
    email: { type: 'string', minLength: 1, maxLength: EMAIL_MAX_LENGTH },
    answers: ROUTING_ANSWERS_SCHEMA,
    source: { type: 'string', maxLength: FUNNEL_SOURCE_SENT_MAX_LENGTH, nullable: true },
  },
};

const questionsSchema: JSONSchemaType<{ questions: RoutingQuestion[]; routed: boolean; texts: boolean }> = {
  type: 'object',
  additionalProperties: false,
  required: ['questions', 'routed', 'texts'],
  properties: {
    texts: {
      type: 'boolean',
      description:
        'The site texts a confirmation and a reminder (SMPP_URL): the dialog offers the consent (smsConsent) under the phone.',
    },
    routed: {
      type: 'boolean',
      description:
        'Who hosts depends on the prospect (the team file has routes, or an account owner can be found): ask POST /api/routing before showing slots, with the e-mail alone when there are no questions.',
    },
    questions: {
      type: 'array',
      description: "The team file's questions, in its order; none without a team or questions.",
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'label', 'options'],
        properties: {
          id: { type: 'string', description: 'The key of its answer in `answers`.' },
          label: { type: 'string' },
          options: { type: 'array', items: { type: 'string' } },
        },
      },
    },
  },
};

const routeKeySchema: JSONSchemaType<{ route: string }> = {
  type: 'object',
  additionalProperties: false,
  required: ['route'],
  properties: {
    route: {
      type: 'string',
      description:
        'An opaque key of the route (no e-mail address in it), for GET /api/slots?route=; honoured for a day, while the team file stays the same.',
    },
  },
};

const routingRefusalSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['error', 'details', 'message'],
  properties: {
    error: { type: 'string' },
    details: { type: 'string' },
    disqualified: { type: 'boolean', const: true, description: 'The route that matched turns the request away.' },
    unrouted: { type: 'boolean', const: true, description: 'No route matched and the team file has no catch-all.' },
    message: { type: 'string', description: 'What the prospect reads instead of a calendar.' },
  },
} as const;

/** How long a browser or a cache may keep the questions: they change only with the team file, at a restart. */
const QUESTIONS_MAX_AGE_SECONDS = 60;

export interface RoutingRouteDeps {
  routing?: ProspectRouting;
  limits?: RequestLimits;
  /** Signs the route keys (BOOKING_LINK_SECRET). */
  linkSecret: string;
  /** Whom an unrouted prospect is asked to write to (SALES_NOTIFY_EMAIL, else the contact address). */
  writeTo: string;
  now: () => Date;
  /** The site sends texts: the dialog offers the consent. */
  texts?: boolean;
  /** Counts a disqualified prospect in the funnel, under the visit's source. */
  countDisqualified: (utmSource: string | undefined) => Promise<void>;
}

export function routingRoutes(deps: RoutingRouteDeps): Router {
  const router = new Router();
  router.get('/api/routing', (ctx) => {
    ctx.set('Cache-Control', `public, max-age=${QUESTIONS_MAX_AGE_SECONDS}`);
    ctx.body = {
      questions: deps.routing?.questions ?? [],
      routed: deps.routing?.routed ?? false,
      texts: deps.texts === true,
    };
  });
  router.post(
    '/api/routing',
    rateLimit(deps.limits?.limiter, {
      name: 'routing',
      limit: deps.limits?.emailChecksPerMinute ?? 0,
      windowMs: 60_000,
      details: () => 'Too many tries from your network. Please wait a minute and try again.',
    }),
    validateBody<RoutingInput>({
      schema: routingInputSchema,
      normalise: (body) =>
        typeof body === 'object' && body !== null && 'email' in body && typeof body.email === 'string'
          ? { ...body, email: body.email.trim() }
          : body,
      messages: (error, field) =>
        field === 'email'
          ? error.keyword === 'maxLength'
            ? `Email must be at most ${EMAIL_MAX_LENGTH} characters.`
            : error.keyword === 'type'
              ? 'Email must be text.'
              : EMAIL_REQUIRED_MESSAGE
          : 'Answers must be an object of texts, one per question.',
      problems: (body) => ({ email: emailProblem(body.email) ?? undefined }),
      summary: 'Invalid routing request',
    }),
    async (ctx) => {
      const { routing } = deps;
      if (!routing) throw new ApiError(404, 'No routing', 'This site has no team to route requests to.');
      const { email, answers, source } = ctx.state.body;
      const route = await routeProspect(routing, email, answers, deps.writeTo, 'Invalid routing request').catch(
        async (err: unknown) => {
          if (err instanceof NotRoutedError && err.kind === 'disqualified') await deps.countDisqualified(source);
          throw err;
        },
      );
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { route: routeKey(route, routing.team, deps.linkSecret, deps.now()) };
    },
  );
  return router;
}

export const routingOpenApi: OpenApiPart = {
  paths: {
    '/api/routing': {
      get: {
        operationId: 'routingQuestions',
        summary:
          'The questions the dialog asks before its calendar (each a required single choice), and whether it routes first.',
        responses: {
          '200': answer('The questions (an empty list when there are none) and `routed`.', 'RoutingQuestions'),
        },
      },
      post: {
        operationId: 'routeProspect',
        summary:
          "A prospect's route, from their e-mail address and answers: a key for the slot list, or why no calendar is offered.",
        requestBody: { required: true, content: json('RoutingInput') },
        responses: {
          '200': answer('The route key.', 'RouteKey'),
          ...bodyRefusals,
          '404': refused('There is no team (TEAM_FILE) to route to.'),
          '422': answer(
            'Disqualified by a route, or no route matched: `message` is shown instead of a calendar.',
            'RoutingRefusal',
          ),
          '429': tooMany,
        },
      },
    },
  },
  components: {
    schemas: {
      RoutingQuestions: questionsSchema,
      RoutingInput: routingInputSchema,
      RouteKey: routeKeySchema,
      RoutingRefusal: routingRefusalSchema,
    },
  },
};
