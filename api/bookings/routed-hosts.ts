/**
 * With a team, who may host a prospect's demo at a slot: the route their answers and e-mail select (routeProspect:
 * 400 beside a question, 422 disqualified or unrouted, never every host), its hosts and the account's owner, each
 * read at the slot (hostsAtSlot). The booking, the honeypot's look-alike and a move ask it alike; the database then
 * chooses among the free ones under its locks, the owner first, and completes the routing record it stores.
 */
import { brand, type Contact } from '../../domain/brand.js';
import type { CandidateOutcome, RoutingAnswers, RoutingRecord } from '../../domain/routing.js';
import type { HostCalendars } from '../hosts/calendars.js';
import type { ProspectRouting } from '../routing/prospect-route.js';
import { routeProspect } from '../routing/route-answer.js';
import { hostsAtSlot, type HostCandidate, type HostsAtSlot } from './hosts.js';

/** The words of a routing record without routes in the team file. */
export const EVERY_HOST_LABEL = 'every host';

/** A routing record as the API writes it: a candidate the database chooses among has no outcome yet (null). */
export type RoutingDraft = Omit<RoutingRecord, 'candidates'> & {
  candidates: { email: string; name: string; outcome: CandidateOutcome | null }[];
};

/** A prospect's hosts at a slot, as `book`, book_trapped and booking_move are given them. */
export interface RoutedHosts {
  /** The route's hosts and the owner free in their hours and calendars, in the team file's order. */
  hosts: HostCandidate[];
  /** The account's owner (lower case), chosen when free; undefined when none is known. */
  owner: string | undefined;
  /** The answers checked against the questions ({} when none are asked). */
  answers: RoutingAnswers;
  /** Undefined: the record stored stays as it is (a move of a booking its route no longer takes). */
  routing: RoutingDraft | undefined;
}

export interface RoutedHostsDeps {
  timeZone: string;
  /** The team's calendars (TEAM_FILE); unset: no host, and nothing is routed. */
  hostCalendars?: HostCalendars;
  /** The team's routing; unset with a team (a test's): every host, as without routes. */
  routing?: ProspectRouting;
  /** SALES_NOTIFY_EMAIL, which an unrouted prospect is asked to write to. */
  followUps: { salesNotifyEmail?: string };
  /** CONTACT_EMAIL, asked to write to without SALES_NOTIFY_EMAIL. */
  contact?: Contact;
}

/** Where an unrouted prospect is asked to write: the sales desk, else the contact address. */
export function writeToOf(deps: Pick<RoutedHostsDeps, 'followUps' | 'contact'>): string {
  return deps.followUps.salesNotifyEmail ?? (deps.contact ?? brand.company.contact).email;
}

const draftOf = (asked: HostsAtSlot['asked']): RoutingDraft['candidates'] =>
  asked.map((host) => ({ email: host.email, name: host.name, outcome: host.outcome ?? null }));

/** Every host of the team at `timeSlot`, as without routes: no answers asked, no owner, the record naming no rule. */
export async function everyHost(calendars: HostCalendars, timeSlot: Date, timeZone: string): Promise<RoutedHosts> {
  const { free, asked } = await hostsAtSlot(calendars, timeSlot, timeZone);
  return {
    hosts: free,
    owner: undefined,
    answers: {},
    routing: { rule: null, label: EVERY_HOST_LABEL, owner: null, ownerLookupFailed: false, candidates: draftOf(asked) },
  };
}

/**
 * The hosts who may take `email`'s demo at `timeSlot`, and the routing record's draft; undefined without a team.
 * Throws the routing's 400 or 422 (ApiError, NotRoutedError) when the answers are refused or no host is routed.
 */
export async function routedHosts(
  deps: RoutedHostsDeps,
  email: string,
  answers: RoutingAnswers | undefined,
  timeSlot: Date,
): Promise<RoutedHosts | undefined> {
  const calendars = deps.hostCalendars;
  if (!calendars) return undefined;
  if (!deps.routing) return everyHost(calendars, timeSlot, deps.timeZone);
  const route = await routeProspect(deps.routing, email, answers, writeToOf(deps));
  const owner = route.owner?.toLowerCase();
  // The owner first, then the route's hosts in its order, each once.
  const emails = [...new Set([...(owner ? [owner] : []), ...route.decision.hosts.map((host) => host.toLowerCase())])];
  const { free, asked } = await hostsAtSlot(calendars, timeSlot, deps.timeZone, emails);
  const routed = deps.routing.hasRoutes !== false;
  return {
    hosts: free,
    owner,
    answers: answers ?? {},
    routing: {
      rule: routed ? route.decision.rule : null,
      label: routed ? route.decision.label : EVERY_HOST_LABEL,
      owner:
        owner && (route.ownerSource === 'lookup' || route.ownerSource === 'accounts')
          ? { email: owner, source: route.ownerSource }
          : null,
      ownerLookupFailed: route.ownerSource === 'lookup-failed',
      candidates: draftOf(asked),
    },
  };
}
