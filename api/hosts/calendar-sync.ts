/**
 * What changed in a host's calendar since the last read, by WebDAV sync-collection (RFC 6578, sync-level 1) through
 * tsdav, for servers that offer it; api/hosts/calendars.ts falls back on its ETag listing otherwise.
 */
import { propfind, syncCollection, type DAVResponse } from 'tsdav';

/** A read failed; `status` is the server's HTTP answer when it gave one. */
export class ReadError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** A server that answered with an error status (not a refused login): the sync path is given up for the ETag one. */
export const syncRefused = (error: unknown): boolean =>
  error instanceof ReadError && error.status !== undefined && error.status !== 401;

export interface SyncOffer {
  /** Whether DAV:sync-collection is in the collection's DAV:supported-report-set. */
  offered: boolean;
  /** The collection's DAV:sync-token now, when offered. */
  token: string | undefined;
}

/**
 * The collection's sync-token, asked before a full listing so that every change after the listing is reported by the
 * next sync; with `askOffer`, also whether the server offers sync-collection at all (asked once per host).
 */
export async function syncOffer(url: string, askOffer: boolean, fetchForHost: typeof fetch): Promise<SyncOffer> {
  const [answer] = await propfind({
    url,
    props: askOffer ? { 'd:sync-token': {}, 'd:supported-report-set': {} } : { 'd:sync-token': {} },
    depth: '0',
    fetch: fetchForHost,
  });
  const props = answer?.props ?? {};
  let offered = true;
  if (askOffer) {
    const reports: unknown = props.supportedReportSet?.supportedReport;
    const list = (Array.isArray(reports) ? reports : [reports]) as ({ report?: object } | undefined)[];
    // RFC 3253 wraps each name in DAV:report; xandikos names the report directly in DAV:supported-report.
    offered = list.some((report) => typeof report === 'object' && 'syncCollection' in (report.report ?? report));
  }
  const token = props.syncToken === undefined || props.syncToken === '' ? undefined : String(props.syncToken);
  return { offered: offered && token !== undefined, token };
}

export interface SyncChanges {
  /** Members added or changed since the token, by absolute URL, with their ETag. */
  changed: Map<string, string | undefined>;
  /** Members removed since the token (a 404 response), by absolute URL. */
  removed: string[];
  token: string;
}

/**
 * The changes since `token`; or 'start-again' when the server asks for a full read: the token is no longer valid
 * (403 DAV:valid-sync-token, or any other error status) or the answer was truncated (507 on the collection itself);
 * or 'not-offered' when the server turns the report down altogether (501, 405) although it listed it.
 */
export async function syncChanges(
  url: string,
  token: string,
  fetchForHost: typeof fetch,
): Promise<SyncChanges | 'start-again' | 'not-offered'> {
  let responses: DAVResponse[];
  try {
    responses = await syncCollection({
      url,
      props: { 'd:getetag': {} },
      syncLevel: 1,
      syncToken: token,
      fetch: fetchForHost,
    });
  } catch (error) {
    if (!syncRefused(error)) throw error;
    const { status } = error as ReadError;
    return status === 501 || status === 405 ? 'not-offered' : 'start-again';
  }
  const collection = new URL(url).href;
  const changed = new Map<string, string | undefined>();
  const removed: string[] = [];
  for (const response of responses) {
    if (!response.href) continue;
    const member = new URL(response.href, url).href;
    if (member === collection) {
      if (response.status === 507) return 'start-again';
      continue;
    }
    if (response.status === 404) removed.push(member);
    else if (response.ok) {
      const etag: unknown = response.props?.getetag;
      changed.set(member, etag === undefined ? undefined : String(etag));
    } else throw new ReadError(`a changed event was reported with status ${response.status}`);
  }
  // tsdav's helper returns the responses only; the new token is read from the multistatus it parsed (`raw`).
  const raw = responses[0]?.raw as { multistatus?: { syncToken?: unknown } } | undefined;
  const next = raw?.multistatus?.syncToken;
  if (next === undefined || next === '') return 'start-again';
  return { changed, removed, token: String(next) };
}
