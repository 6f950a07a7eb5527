/**
 * The route key: what POST /api/routing answers and GET /api/slots?route= takes back, so that the slot list shows the
 * prospect's route without their e-mail address in the URL. It carries the matching route's index and the account
 * owner's index among the hosts, when it was made, and a MAC (HMAC-SHA-256, keyed from BOOKING_LINK_SECRET) over
 * those and the team it was made against: a key altered, cut short, made with another secret, too old, or made
 * before the team file changed is refused.
 */
import { createHash, createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { RoutedTeam } from './prospect-route.js';
import type { HostsRoute } from './route-answer.js';

/** How long a key is honoured: a dialog left open that long answers the questions again. */
export const ROUTE_KEY_LIFETIME_MS = 24 * 60 * 60_000;
/** What a slot list with a key refused answers, as the dialog shows it. */
export const STALE_ROUTE_MESSAGE = 'Answer the questions again';

const VERSION = 1;
const NO_OWNER = 0xffff;
// version, rule, owner, minute issued, then the MAC.
const BODY_BYTES = 1 + 2 + 2 + 4;
const MAC_BYTES = 16;
const KEY_PATTERN = /^[A-Za-z0-9_-]{34}$/;
// A clock a little behind the one that made the key still takes it.
const CLOCK_SKEW_MS = 5 * 60_000;

const macKeys = new Map<string, Buffer>();

function macKeyOf(secret: string): Buffer {
  let key = macKeys.get(secret);
  if (!key) {
    // Its own derivation: a route key is never a booking link's MAC, nor the reverse.
    key = Buffer.from(hkdfSync('sha256', secret, 'converge route key', 'mac', 32));
    macKeys.set(secret, key);
  }
  return key;
}

/** The team a key is made against: another host list or other routes give another fingerprint. */
const fingerprints = new WeakMap<RoutedTeam, Buffer>();
function fingerprintOf(team: RoutedTeam): Buffer {
  let print = fingerprints.get(team);
  if (!print) {
    print = createHash('sha256')
      .update(JSON.stringify([team.hosts, team.routes]))
      .digest();
    fingerprints.set(team, print);
  }
  return print;
}

function macOf(secret: string, team: RoutedTeam, body: Buffer): Buffer {
  return createHmac('sha256', macKeyOf(secret))
    .update(fingerprintOf(team))
    .update(body)
    .digest()
    .subarray(0, MAC_BYTES);
}

/** The key of `route` (a route of `team`), made at `now`. */
export function routeKey(route: HostsRoute, team: RoutedTeam, secret: string, now: Date): string {
  const body = Buffer.alloc(BODY_BYTES);
  const owner = route.owner?.toLowerCase();
  const ownerIndex = owner === undefined ? -1 : team.hosts.findIndex((email) => email.toLowerCase() === owner);
  body.writeUInt8(VERSION, 0);
  body.writeUInt16BE(route.decision.rule, 1);
  body.writeUInt16BE(ownerIndex < 0 ? NO_OWNER : ownerIndex, 3);
  body.writeUInt32BE(Math.floor(now.getTime() / 60_000), 5);
  return Buffer.concat([body, macOf(secret, team, body)]).toString('base64url');
}

/** The hosts a key leads to: their e-mails, the owner's first (then the route's in its order); none for two. */
export interface KeyedRoute {
  hosts: readonly string[];
}

/**
 * The hosts of the route `key` was made for, the owner first, or undefined for a key altered, cut short, made with
 * another secret (`previousSecrets`: those of before a rotation still count), older than its lifetime, or made
 * against another team.
 */
export function routeOfKey(
  key: string,
  team: RoutedTeam,
  now: Date,
  secret: string,
  previousSecrets: readonly string[] = [],
): KeyedRoute | undefined {
  if (!KEY_PATTERN.test(key)) return undefined;
  const bytes = Buffer.from(key, 'base64url');
  // The last character carries spare bits: only the one spelling of the bytes is a key.
  if (bytes.length !== BODY_BYTES + MAC_BYTES || bytes.toString('base64url') !== key) return undefined;
  const body = bytes.subarray(0, BODY_BYTES);
  const mac = bytes.subarray(BODY_BYTES);
  if (![secret, ...previousSecrets].some((candidate) => timingSafeEqual(mac, macOf(candidate, team, body))))
    return undefined;
  if (body.readUInt8(0) !== VERSION) return undefined;
  const madeAt = body.readUInt32BE(5) * 60_000;
  const age = now.getTime() - madeAt;
  if (age > ROUTE_KEY_LIFETIME_MS || age < -CLOCK_SKEW_MS) return undefined;
  const route = team.routes[body.readUInt16BE(1)];
  if (!route?.hosts) return undefined;
  const routeHosts = route.hosts === '*' ? team.hosts : route.hosts;
  const ownerIndex = body.readUInt16BE(3);
  const owner = ownerIndex === NO_OWNER ? undefined : team.hosts[ownerIndex];
  if (ownerIndex !== NO_OWNER && owner === undefined) return undefined;
  if (owner === undefined) return { hosts: routeHosts };
  const others = routeHosts.filter((email) => email.toLowerCase() !== owner.toLowerCase());
  return { hosts: [owner, ...others] };
}

/** The hosts a route leads to, as its key would give them back: the owner first, then the route's in its order. */
export function keyedRouteOf(route: HostsRoute): KeyedRoute {
  const owner = route.owner;
  if (owner === undefined) return { hosts: route.decision.hosts };
  const others = route.decision.hosts.filter((email) => email.toLowerCase() !== owner.toLowerCase());
  return { hosts: [owner, ...others] };
}

/** Reads route keys against `team` with the booking link secrets, at the time `now` gives. */
export function routeKeyReader(
  team: RoutedTeam,
  secrets: { linkSecret: string; previousLinkSecrets?: readonly string[] },
  now: () => Date,
): (key: string) => KeyedRoute | undefined {
  return (key) => routeOfKey(key, team, now(), secrets.linkSecret, secrets.previousLinkSecrets);
}
