import type { BaseQueryFn } from '@reduxjs/toolkit/query';

export interface ApiRequest {
  url: string;
  method?: 'GET' | 'POST' | 'DELETE';
  body?: unknown;
  /** Sent besides the JSON content type; an endpoint's own headers (an Idempotency-Key, say). */
  headers?: Record<string, string>;
}

/** A call that failed (an error status, or no answer at all), as the store sees it; the API's own ApiError is another thing. */
export interface ApiCallFailure {
  /** The HTTP status, or 'FETCH_ERROR' when no answer arrived at all. */
  status: number | 'FETCH_ERROR';
  /** "{status}: {body text or status text}", or the network failure's own message. */
  message: string;
  /** The body parsed as JSON when it was JSON, else undefined. */
  data?: unknown;
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
export const baseQuery: BaseQueryFn<ApiRequest, unknown, ApiCallFailure> = async (request, api) => {
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
