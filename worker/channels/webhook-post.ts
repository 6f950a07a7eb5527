/**
 * One try of one webhook: signed with the standardwebhooks package (webhook-id, webhook-timestamp, webhook-signature
 * `v1,<base64 HMAC-SHA256>`), sent to the address checked just before (server-shared/webhook-targets.ts: the socket's
 * lookup answers with that address and no other), redirects not followed, the whole exchange bounded by 10 s and the
 * answer's body read to 64 KB at most. A receiver's status stands once it has come, even when its body then does not
 * finish in time. Never throws: what happened is the result.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { TargetRefused, checkTargetUrl, resolveTarget } from '../../server-shared/webhook-targets.js';
import { signedHeaders, type SignedMessage } from '../../server-shared/webhooks.js';

export const WEBHOOK_TIMEOUT_MS = 10_000;
export const WEBHOOK_MAX_RESPONSE_BYTES = 64 * 1024;
/** What the delivery log keeps of an answer's body. */
export const RESPONSE_EXCERPT_BYTES = 1024;

export interface WebhookTarget {
  url: string;
  secret: string;
}

/** The event id is its webhook-id. */
export type WebhookMessage = SignedMessage;

export interface PostResult {
  /** The receiver's status; null when no answer came. */
  status: number | null;
  durationMs: number;
  /** The first bytes of the answer's body, as text. */
  excerpt: string | null;
  /**
   * What went wrong: why no answer came, or the target was refused (no status); or, with the status, how the answer's
   * body was cut short (the timeout, a reset). Null when the whole answer came.
   */
  error: string | null;
  /** The target was refused before any connection (scheme or address). */
  refused: boolean;
  retryAfter: string | undefined;
}

export interface PostOptions {
  allowPrivate: boolean;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export async function postWebhook(
  target: WebhookTarget,
  message: WebhookMessage,
  options: PostOptions,
): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const timeout = AbortSignal.timeout(options.timeoutMs ?? WEBHOOK_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  let url: URL;
  let checked: { address: string; family: 4 | 6 };
  try {
    url = checkTargetUrl(target.url, options.allowPrivate);
    checked = await resolveTarget(url, options.allowPrivate);
  } catch (err) {
    const error = err instanceof TargetRefused ? `target refused: ${err.message}` : String(err);
    return { status: null, durationMs: elapsed(), excerpt: null, error, refused: true, retryAfter: undefined };
  }
  // The connection goes to the address checked above, whatever the name resolves to by now.
  const lookup: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [checked]);
    else callback(null, checked.address, checked.family);
  };
  const transport = url.protocol === 'https:' ? https : http;
  const headers = {
    ...signedHeaders(target.secret, message),
    'content-length': String(Buffer.byteLength(message.body)),
  };
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  return new Promise<PostResult>((resolve) => {
    let settled = false;
    const finish = (result: Omit<PostResult, 'durationMs' | 'refused'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...result, durationMs: elapsed(), refused: false });
    };
    // Once the status has come, it is the answer, whatever becomes of the body after it.
    let answer: http.IncomingMessage | undefined;
    const chunks: Buffer[] = [];
    let size = 0;
    const answered = (response: http.IncomingMessage, error: string | null) => {
      const body = Buffer.concat(chunks);
      finish({
        status: response.statusCode ?? null,
        excerpt: body.length > 0 ? body.subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8') : null,
        error,
        retryAfter: response.headers['retry-after'],
      });
      response.destroy();
    };
    // A body cut short by the timeout (a receiver that trickles it), a reset or the worker stopping.
    const cutShort = (err?: NodeJS.ErrnoException) =>
      timeout.aborted
        ? `the answer's body did not finish within ${timeoutMs / 1000} s`
        : `the answer's body was cut short: ${err?.code ?? err?.message ?? 'connection closed'}`;
    const request = transport.request(url, { method: 'POST', headers, agent: false, lookup, signal }, (response) => {
      answer = response;
      response.on('data', (chunk: Buffer) => {
        const room = WEBHOOK_MAX_RESPONSE_BYTES - size;
        chunks.push(chunk.subarray(0, room));
        size += Math.min(chunk.length, room);
        if (size >= WEBHOOK_MAX_RESPONSE_BYTES) answered(response, null);
      });
      response.on('end', () => answered(response, null));
      response.on('error', (err: NodeJS.ErrnoException) => answered(response, cutShort(err)));
      response.on('aborted', () => answered(response, cutShort()));
    });
    request.on('error', (err: NodeJS.ErrnoException) => {
      // The request's own error comes first when the timeout cuts a body short: the status came all the same.
      if (answer) return answered(answer, cutShort(err));
      finish({
        status: null,
        excerpt: null,
        error: timeout.aborted ? `no answer within ${timeoutMs / 1000} s` : (err.code ?? err.message),
        retryAfter: undefined,
      });
    });
    request.end(message.body);
  });
}
