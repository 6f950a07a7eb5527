/**
 * Who may host a prospect's demo, and why: the first route that matches their answers and domain decides; when it
 * disqualifies them, that is the end (no owner is asked). Otherwise the account's owner (from OWNER_LOOKUP_URL, else
 * ACCOUNTS_FILE), a host of the team, comes first: a slot is theirs when they are free in it, the route's otherwise.
 * Without routes in the team file, every host takes every prospect.
 */
import type { Logger } from 'pino';
import {
  decideRoute,
  type RouteDecision,
  type RouteRule,
  type RoutingAnswers,
  type RoutingQuestion,
} from '../../domain/routing.js';
import type { TeamRouting } from '../../server-shared/hosts/routing-file.js';
import type { Team } from '../../server-shared/hosts/team.js';
import { canonicalRecipient } from '../email-rules.js';
import { readAccountsFile, type AccountOwners } from './accounts.js';
import { createOwnerLookup, type OwnerLookup, type OwnerLookupFailure } from './owner-lookup.js';
import type { RoutingSettings } from './settings.js';

/** Where the owner came from: the company's service, the accounts file, or nowhere (with why when it failed). */
export type OwnerSource = 'lookup' | 'accounts' | 'none' | 'lookup-failed';

export interface ProspectRoute {
  /** The route decided by the answers and the domain ('unrouted': no host at all). */
  decision: RouteDecision;
  /** The account's owner (their e-mail as the team file writes it), offered first; none when disqualified. */
  owner: string | undefined;
  ownerSource: OwnerSource;
}

export interface ProspectRouter {
  routeOf(email: string, answers: RoutingAnswers): Promise<ProspectRoute>;
}

/** The hosts' e-mails in the team file's order, and the routes tried in order (without any in the file, one of every host). */
export interface RoutedTeam {
  hosts: readonly string[];
  routes: readonly RouteRule[];
}

/** The team's hosts and routes as the router tries them. */
export function routedTeam(team: Pick<TeamRouting, 'routes'> & { hosts: readonly { email: string }[] }): RoutedTeam {
  return { hosts: team.hosts.map((host) => host.email), routes: team.routes ?? [{ hosts: '*' }] };
}

export function createProspectRouter(
  team: Pick<TeamRouting, 'routes'> & { hosts: readonly { email: string }[] },
  owners: { accounts?: AccountOwners; lookup?: OwnerLookup },
): ProspectRouter {
  const { hosts: emails, routes } = routedTeam(team);
  return {
    async routeOf(email, answers) {
      const { domain } = canonicalRecipient(email);
      const decision = decideRoute(routes, answers, domain, emails);
      if (decision.kind === 'disqualified') return { decision, owner: undefined, ownerSource: 'none' };
      let lookupFailed = false;
      if (owners.lookup) {
        const owner = await owners.lookup.ownerOf(email, domain);
        if (owner) return { decision, owner, ownerSource: 'lookup' };
        lookupFailed = owner === undefined;
      }
      const owner = owners.accounts?.ownerOf(domain);
      if (owner) return { decision, owner, ownerSource: 'accounts' };
      return { decision, owner: undefined, ownerSource: lookupFailed ? 'lookup-failed' : 'none' };
    },
  };
}

/** The team's routing as the API's routes use it: the questions the dialog asks, and who may host whom. */
export interface ProspectRouting {
  questions: readonly RoutingQuestion[];
  router: ProspectRouter;
  /** The team file has routes; false: every host takes every prospect, and a booking's routing record names no rule. */
  hasRoutes?: boolean;
  /**
   * Who hosts depends on the prospect: the file has routes, or an account's owner can be found (ACCOUNTS_FILE,
   * OWNER_LOOKUP_URL). The dialog then asks for the route before its calendar, with the e-mail alone when there are
   * no questions.
   */
  routed: boolean;
  /** The team as the routes read it: each host's e-mail in the file's order, and the routes (route keys point into both). */
  team: RoutedTeam;
  /** Stops watching ACCOUNTS_FILE. */
  close(): void;
}

/**
 * The routing of `team` with its owners: ACCOUNTS_FILE read now (a bad file stops start-up) and again when it
 * changes; OWNER_LOOKUP_URL asked first when set, `lookupFailed` told each time it fails.
 */
export function createProspectRouting(
  team: Team,
  settings: RoutingSettings,
  logger: Logger,
  lookupFailed: (why: OwnerLookupFailure) => void,
): ProspectRouting {
  const emails = team.hosts.map((host) => host.email);
  const accounts = settings.accountsFile ? readAccountsFile(settings.accountsFile, emails, logger) : undefined;
  const lookup = settings.ownerLookup
    ? createOwnerLookup({
        ...settings.ownerLookup,
        team: new Map(emails.map((email) => [email.toLowerCase(), email])),
        failed: lookupFailed,
      })
    : undefined;
  return {
    questions: team.routing.questions,
    hasRoutes: team.routing.routes !== undefined,
    routed: team.routing.routes !== undefined || accounts !== undefined || lookup !== undefined,
    team: routedTeam({ hosts: team.hosts, routes: team.routing.routes }),
    router: createProspectRouter(
      { hosts: team.hosts, routes: team.routing.routes },
      { ...(accounts ? { accounts } : {}), ...(lookup ? { lookup } : {}) },
    ),
    close: () => accounts?.close(),
  };
}
