/**
 * Routing: which hosts may take a prospect's demo, from the answers the dialog asks for (the team file's questions)
 * and the domain of their e-mail address, by the team file's routes tried in order. Pure, for the API and the
 * browser alike: the browser asks the questions, the API decides.
 */

/** Questions a team file may ask at most, and the longest label or option. */
export const ROUTING_QUESTIONS_MAX = 10;
export const ROUTING_TEXT_MAX_LENGTH = 100;

/** The answers as a request carries them (a booking, the dialog's routing step): texts by question id. */
export const ROUTING_ANSWERS_SCHEMA = {
  type: 'object',
  nullable: true,
  required: [],
  maxProperties: ROUTING_QUESTIONS_MAX,
  additionalProperties: { type: 'string', maxLength: ROUTING_TEXT_MAX_LENGTH },
} as const;

/** A question the dialog asks before the calendar: one choice among its options, required. */
export interface RoutingQuestion {
  /** The key of its answer ("companySize"). */
  id: string;
  label: string;
  options: string[];
}

/** A prospect's answers, by question id. */
export type RoutingAnswers = Record<string, string>;

/** An answer as people read it: its question's label beside the option chosen ("Company size: 5000+"). */
export interface LabelledAnswer {
  id: string;
  label: string;
  answer: string;
}

/**
 * The answers in the order of `questions`, each with its question's label; an answer to a question the team file no
 * longer asks keeps its id for a label, after the others.
 */
export function labelledAnswers(
  questions: readonly RoutingQuestion[],
  answers: RoutingAnswers | null | undefined,
): LabelledAnswer[] {
  const given = answers ?? {};
  const asked = questions
    .filter((question) => typeof given[question.id] === 'string')
    .map((question) => ({ id: question.id, label: question.label, answer: given[question.id]! }));
  const known = new Set(questions.map((question) => question.id));
  const others = Object.entries(given)
    .filter(([id]) => !known.has(id))
    .map(([id, answer]) => ({ id, label: id, answer }));
  return [...asked, ...others];
}

/**
 * A route of the team file. `when` holds, for each key (a question id, or `emailDomain`), the values any of which
 * matches; no `when` matches everyone. Either `hosts` (host e-mails of the file, or "*" for the whole team) or
 * `disqualify` (the message the prospect reads instead of a calendar).
 */
export interface RouteRule {
  label?: string;
  when?: Record<string, string[]>;
  hosts?: string[] | '*';
  disqualify?: string;
}

/** The key of `when` that matches the prospect's e-mail domain rather than an answer. */
export const EMAIL_DOMAIN_KEY = 'emailDomain';

/** What the routes decide for a prospect. */
export type RouteDecision =
  | { kind: 'hosts'; rule: number; label: string; hosts: readonly string[] }
  | { kind: 'disqualified'; rule: number; label: string; message: string }
  /** No route matched and there is no catch-all: no host, never every host. */
  | { kind: 'unrouted' };

/** Whether `domain` is `listed` or one of its subdomains (both lower case). */
export function withinDomain(domain: string, listed: string): boolean {
  return domain === listed || domain.endsWith(`.${listed}`);
}

/** The words for a route: its own label, else what it matches ("companySize: 5000+; region: Europe"), else "everyone". */
export function routeLabel(rule: RouteRule): string {
  if (rule.label) return rule.label;
  const conditions = Object.entries(rule.when ?? {}).map(([key, values]) => `${key}: ${values.join(' or ')}`);
  return conditions.length > 0 ? conditions.join('; ') : 'everyone';
}

function matches(rule: RouteRule, answers: RoutingAnswers, emailDomain: string): boolean {
  return Object.entries(rule.when ?? {}).every(([key, values]) => {
    if (key === EMAIL_DOMAIN_KEY) return values.some((listed) => withinDomain(emailDomain, listed.toLowerCase()));
    const answer = answers[key];
    return answer !== undefined && values.includes(answer);
  });
}

/**
 * The first route whose `when` matches the answers and the e-mail's domain (canonical, lower case) decides; `team`
 * is every host's e-mail, in the file's order, for a route of "*".
 */
export function decideRoute(
  routes: readonly RouteRule[],
  answers: RoutingAnswers,
  emailDomain: string,
  team: readonly string[],
): RouteDecision {
  const rule = routes.findIndex((route) => matches(route, answers, emailDomain));
  const route = routes[rule];
  if (!route) return { kind: 'unrouted' };
  const label = routeLabel(route);
  if (route.disqualify !== undefined) return { kind: 'disqualified', rule, label, message: route.disqualify };
  return { kind: 'hosts', rule, label, hosts: route.hosts === '*' ? team : (route.hosts ?? []) };
}

/** The field key of a question's answer: in a refusal's `fields`, and the name of its control in the form without script. */
export const answerField = (questionId: string): string => `answers.${questionId}`;

/** For each question unanswered or answered with no option of its own, the words to show beside it. */
export function answerProblems(questions: readonly RoutingQuestion[], answers: RoutingAnswers): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const question of questions) {
    const answer = answers[question.id];
    if (answer === undefined || answer === '')
      problems[question.id] = `Please choose your ${question.label.toLowerCase()}.`;
    else if (!question.options.includes(answer))
      problems[question.id] = `${question.label} must be one of: ${question.options.join(', ')}.`;
  }
  for (const id of Object.keys(answers)) {
    if (!questions.some((question) => question.id === id)) problems[id] = `"${id}" is not a question of this form.`;
  }
  return problems;
}

/** Why a host of the route did not get the demo, or that they did. */
export type CandidateOutcome =
  | 'chosen'
  /** Their calendar holds something over the slot, or they give another demo then. */
  | 'busy'
  | 'over-daily-limit'
  | 'outside-hours'
  | 'calendar-unreadable'
  /** Free, but the account's owner was free too and comes first. */
  | 'owner-first'
  /** Free, but a moved booking's host was free at the new time and kept it. */
  | 'host-kept'
  /** Free, but another free host had fewer demos in the rolling window, by weight. */
  | 'fewer-demos-elsewhere';

/**
 * How a booking's host was chosen, stored with it (bookings.routing) and shown to sales ("Why Dana?"): the route that
 * matched, the account's owner, and each host who could have taken it.
 */
export interface RoutingRecord {
  /** The matching route's index in the team file's routes; null when the file has none (every host). */
  rule: number | null;
  /** routeLabel of that route, or "every host" without routes. */
  label: string;
  /** The account's owner (a host's e-mail) and where it was found; null when none was. */
  owner: { email: string; source: 'lookup' | 'accounts' } | null;
  /** The owner lookup failed (OWNER_LOOKUP_URL) and the accounts file and routes decided. */
  ownerLookupFailed: boolean;
  /** The route's hosts (the owner first when there is one), each with what became of them. */
  candidates: { email: string; name: string; outcome: CandidateOutcome }[];
  /** Each time the booking was handed to another host (by sales, or as its host withdrew), oldest first; absent until the first. */
  reassignments?: Reassignment[];
}

/**
 * A booking handed to another host: by sales (POST /api/admin/bookings/{id}/reassign), or because its host deleted or
 * declined its event in their calendar (api/hosts/host-answers.ts).
 */
export interface Reassignment {
  /** When (an instant, ISO 8601). */
  at: string;
  /** The host it was taken from (e-mail), and the host it went to. */
  from: string | null;
  to: string;
  /** Who did it: the sales page's session, a script with the operations token, or the host in their calendar. */
  by: 'sales page' | 'operations token' | 'the host';
  /** With by 'the host': what they did. */
  reason?: 'host-deleted' | 'host-declined';
}

/**
 * The hosts a booking may be handed to: its route's (the routing record's candidates) when a route chose it, else
 * every host of the team; those no longer on the team left out, and its own host too.
 */
export function reassignableHosts<H extends { email: string }>(
  routing: RoutingRecord | null,
  team: readonly H[],
  currentHost: string | null,
): H[] {
  const route =
    routing && routing.rule !== null ? new Set(routing.candidates.map((c) => c.email.toLowerCase())) : undefined;
  return team.filter((host) => {
    const email = host.email.toLowerCase();
    return email !== currentHost?.toLowerCase() && (route === undefined || route.has(email));
  });
}

/** A host's demos of the window (GET /api/admin/hosts/share), across routes and by route. */
export interface HostShare {
  email: string;
  name: string;
  demos: number;
  /** Their demos over the total, from 0 to 1. */
  share: number;
  routes: { rule: number | null; label: string; demos: number }[];
}

export interface HostShareReport {
  /** The window's start (ISO 8601) and length. */
  since: string;
  days: number;
  total: number;
  hosts: HostShare[];
}
