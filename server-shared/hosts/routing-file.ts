/**
 * The routing's keys of the team file (TEAM_FILE): `questions`, asked in the dialog before the calendar, and
 * `routes`, tried in order (domain/routing.ts). Checked with Ajv, then for what a schema cannot say: the hosts a
 * route names are the file's, its `when` keys are question ids or emailDomain with options of their question, and
 * each route sends to hosts or disqualifies. A bad key stops start-up naming the field.
 */
import { Ajv } from 'ajv';
import {
  EMAIL_DOMAIN_KEY,
  ROUTING_QUESTIONS_MAX,
  ROUTING_TEXT_MAX_LENGTH,
  type RouteRule,
  type RoutingQuestion,
} from '../../domain/routing.js';
import { ConfigError } from '../settings.js';
import { fileProblem } from './file-problem.js';

export interface TeamRouting {
  /** Asked in the dialog before the calendar; none without the key. */
  questions: RoutingQuestion[];
  /** Tried in order; undefined without the key (every host takes every prospect). */
  routes: RouteRule[] | undefined;
}

const text = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength }) as const;

// Ajv's schema types cannot say "a list of e-mails or the one string '*'" (a route's hosts): a plain schema, the
// file's type given at compile time.
const routingSchema = {
  type: 'object',
  properties: {
    questions: {
      type: 'array',
      maxItems: ROUTING_QUESTIONS_MAX,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'label', 'options'],
        properties: {
          id: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9_]{0,39}$' },
          label: text(ROUTING_TEXT_MAX_LENGTH),
          options: {
            type: 'array',
            minItems: 2,
            maxItems: 20,
            uniqueItems: true,
            items: text(ROUTING_TEXT_MAX_LENGTH),
          },
        },
      },
    },
    routes: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        properties: {
          label: text(100),
          when: { type: 'object', additionalProperties: { type: 'array', minItems: 1, items: text(254) } },
          hosts: {
            oneOf: [{ type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string' } }, { const: '*' }],
          },
          disqualify: text(500),
        },
      },
    },
  },
} as const;

const validate = new Ajv({ allErrors: false }).compile<{ questions?: RoutingQuestion[]; routes?: RouteRule[] }>(
  routingSchema,
);

/** The routing's keys of the team file's content `data`, whose `hosts` are `hosts`. */
export function parseTeamRouting(data: unknown, hosts: readonly { email: string }[], source: string): TeamRouting {
  if (!validate(data))
    throw fileProblem(validate.errors, source, 'must be a list of the hosts\' e-mails, or "*" for every host');
  const questions = data.questions ?? [];
  checkRoutes(data.routes ?? [], questions, hosts, source);
  return { questions, routes: data.routes };
}

function checkRoutes(
  routes: readonly RouteRule[],
  questions: readonly RoutingQuestion[],
  hosts: readonly { email: string }[],
  source: string,
): void {
  const ids = new Set<string>();
  for (const [index, question] of questions.entries()) {
    if (ids.has(question.id) || question.id === EMAIL_DOMAIN_KEY)
      throw new ConfigError(`${source}: /questions/${index}/id "${question.id}" is used twice or is reserved`);
    ids.add(question.id);
  }
  const team = new Set(hosts.map((host) => host.email.toLowerCase()));
  for (const [index, route] of routes.entries()) {
    const at = `${source}: /routes/${index}`;
    if ((route.hosts === undefined) === (route.disqualify === undefined))
      throw new ConfigError(`${at} needs one of hosts and disqualify`);
    for (const [key, values] of Object.entries(route.when ?? {})) {
      if (key === EMAIL_DOMAIN_KEY) continue;
      const question = questions.find((one) => one.id === key);
      if (!question) throw new ConfigError(`${at}/when/${key} is neither a question id nor ${EMAIL_DOMAIN_KEY}`);
      const unknown = values.find((value) => !question.options.includes(value));
      if (unknown !== undefined)
        throw new ConfigError(`${at}/when/${key} "${unknown}" is not an option of the question`);
    }
    if (Array.isArray(route.hosts)) {
      const stranger = route.hosts.find((email) => !team.has(email.toLowerCase()));
      if (stranger !== undefined) throw new ConfigError(`${at}/hosts "${stranger}" is not a host of the file`);
    }
  }
}
