import type { BaseQueryFn } from '@reduxjs/toolkit/query';

/** A query key: its segments joined with "/" are the URL the default reader GETs. */
export type QueryKey = readonly (string | number)[];

export interface ApiRequest {
  url: string;
  method?: 'GET' | 'POST';
  body?: unknown;
  /** Sent besides the JSON content type; an endpoint's own headers (an Idempotency-Key, say). */
  headers?: Record<string, string>;
}

/** The default GET reader, told what to do when the server answers 401. */
export interface KeyedRead {
  queryKey: QueryKey;
  on401: 'returnNull' | 'throw';
}

export type ApiArgs = ApiRequest | QueryKey | KeyedRead;

export interface ApiError {
  /** The HTTP status, or 'FETCH_ERROR' when no answer arrived at all. */
  status: number | 'FETCH_ERROR';
  /** "{status}: {body text or status text}", or the network failure's own message. */
  message: string;
  /** The body parsed as JSON when it was JSON, else undefined. */
  data?: unknown;
}

function isQueryKey(args: ApiArgs): args is QueryKey {
  return Array.isArray(args);
}

function isKeyedRead(args: ApiArgs): args is KeyedRead {
  return typeof args === 'object' && !Array.isArray(args) && 'queryKey' in args;
}

export function joinQueryKey(key: QueryKey): string {
  return key.map(String).join('/');
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The one message format for a non-ok answer, whatever the endpoint. */
function httpErrorMessage(status: number, bodyText: string, statusText: string): string {
  return `${status}: ${bodyText || statusText}`;
}

/**
 * The base query of the one createApi. JSON bodies, cookies always included, no retries (RTK Query
 * retries only when wrapped in retry(), which this is not), errors carrying the status and the body.
 * Relative URLs resolve against the page.
 */
export const baseQuery: BaseQueryFn<ApiArgs, unknown, ApiError> = async (args, api) => {
  let request: ApiRequest;
  let on401: KeyedRead['on401'] = 'throw';
  if (isQueryKey(args)) {
    request = { url: joinQueryKey(args) };
  } else if (isKeyedRead(args)) {
    request = { url: joinQueryKey(args.queryKey) };
    on401 = args.on401;
  } else {
    request = args;
  }
  const hasBody = request.body !== undefined;
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: request.method ?? 'GET',
      headers: { ...(hasBody ? { 'Content-Type': 'application/json' } : {}), ...request.headers },
      body: hasBody ? JSON.stringify(request.body) : undefined,
      credentials: 'include',
      signal: api.signal,
    });
  } catch (error) {
    return {
      error: { status: 'FETCH_ERROR', message: error instanceof Error ? error.message : String(error) },
    };
  }
  if (on401 === 'returnNull' && response.status === 401) return { data: null };
  const text = await response.text();
  if (!response.ok) {
    return {
      error: {
        status: response.status,
        message: httpErrorMessage(response.status, text, response.statusText),
        data: parseJson(text),
      },
    };
  }
  return { data: parseJson(text) ?? null };
};
