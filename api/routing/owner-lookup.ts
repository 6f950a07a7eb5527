/**
 * The company's own answer to "who owns this prospect's account?" (OWNER_LOOKUP_URL): a POST of { email, domain },
 * signed as our webhooks are (OWNER_LOOKUP_SECRET), answered { "owner": "<host e-mail>" } or 404. Given little time,
 * since a person waits on it; its answers kept a few minutes, one question in flight per address. When it fails (no
 * answer in time, an error, an answer that names no host of the team), the accounts file and the routes decide, and
 * `failed` is told (a metric counts it). The address travels in the body only: never in a URL or a log line.
 */
import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { signedHeaders } from '../../server-shared/webhooks.js';

export const OWNER_LOOKUP_TIMEOUT_MS = 300;
/** How long an answer (an owner, or none) is kept. */
export const OWNER_LOOKUP_TTL_MS = 5 * 60_000;
const OWNER_LOOKUP_ENTRIES = 10_000;

/** Why a lookup did not answer: what the metric's label says. */
export type OwnerLookupFailure = 'timeout' | 'unreachable' | 'status' | 'answer';

export interface OwnerLookup {
  /** The owner (as the team file writes the host), null when the service knows none, undefined when it failed. */
  ownerOf(email: string, domain: string): Promise<string | null | undefined>;
}

export interface OwnerLookupOptions {
  url: string;
  secret: string;
  /** Each host's e-mail, lower case, to the e-mail as the team file writes it. */
  team: ReadonlyMap<string, string>;
  failed: (why: OwnerLookupFailure) => void;
  timeoutMs?: number;
}

class LookupFailed extends Error {
  constructor(readonly why: OwnerLookupFailure) {
    super(`owner lookup failed: ${why}`);
  }
}

export function createOwnerLookup(options: OwnerLookupOptions): OwnerLookup {
  const timeoutMs = options.timeoutMs ?? OWNER_LOOKUP_TIMEOUT_MS;
  const ask = async (email: string, domain: string): Promise<string | null> => {
    const body = JSON.stringify({ email, domain });
    let answer: Response;
    try {
      answer = await fetch(options.url, {
        method: 'POST',
        headers: signedHeaders(options.secret, { id: `msg_${randomUUID()}`, timestamp: new Date(), body }),
        body,
        redirect: 'error',
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new LookupFailed((error as Error).name === 'TimeoutError' ? 'timeout' : 'unreachable');
    }
    if (answer.status === 404) {
      await answer.body?.cancel();
      return null;
    }
    if (answer.status !== 200) {
      await answer.body?.cancel();
      throw new LookupFailed('status');
    }
    let owner: unknown;
    try {
      owner = ((await answer.json()) as { owner?: unknown } | null)?.owner;
    } catch (error) {
      throw new LookupFailed((error as Error).name === 'TimeoutError' ? 'timeout' : 'answer');
    }
    const host = typeof owner === 'string' ? options.team.get(owner.toLowerCase()) : undefined;
    if (host === undefined) throw new LookupFailed('answer');
    return host;
  };
  // lru-cache keeps answers for their time and shares one question in flight per key; a failure is not kept.
  const answers = new LRUCache<string, { owner: string | null }, string>({
    max: OWNER_LOOKUP_ENTRIES,
    ttl: OWNER_LOOKUP_TTL_MS,
    fetchMethod: async (email, _stale, { context: domain }) => ({ owner: await ask(email, domain) }),
  });
  return {
    async ownerOf(email, domain) {
      try {
        return (await answers.fetch(email.toLowerCase(), { context: domain }))?.owner;
      } catch (error) {
        options.failed(error instanceof LookupFailed ? error.why : 'unreachable');
        return undefined;
      }
    },
  };
}
