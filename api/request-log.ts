/** A request id for every request (taken from X-Request-Id when sane, else made) and one log line per answer. */
import { randomUUID } from 'node:crypto';
import { trace } from '@opentelemetry/api';
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * A file of the site (a script, a style sheet, a font, a picture): a page view fetches dozens of them, so their lines
 * go out at debug, and the terminal shows one line for the page and one for each call to the API.
 */
const SITE_FILE = /^\/(?!api\/)(?:[^/]+\/)*[^/]+\.[A-Za-z0-9]+$/;

/**
 * A booking link's token opens that booking, and so does a text's short link code: logs keep the path (the API's,
 * the manage page's, the short link's) without them.
 */
function loggablePath(path: string): string {
  return path.replace(/^(\/api\/bookings\/|\/booking\/)[^/]+/i, '$1:token').replace(/^(\/m\/)[^/]+/i, '$1:code');
}

/** What a route adds to its request's one log line (ctx.state.logFields), rather than writing a line of its own. */
export type LogFields = Record<string, string | number | boolean>;

/**
 * ctx.state of a request: what the routes leave there, and `log`, the child logger that carries the request's id (for
 * the few lines a request writes besides its own) and, once its link was opened, the booking's id; made only when
 * something asks for it, not for every request.
 */
class RequestState {
  readonly #requestId: string;
  readonly #logger: Logger;
  #child: Logger | undefined;
  [key: string]: unknown;

  constructor(requestId: string, logger: Logger) {
    this.#requestId = requestId;
    this.#logger = logger;
  }

  get log(): Logger {
    const bookingId = typeof this.bookingId === 'string' ? { bookingId: this.bookingId } : {};
    return (this.#child ??= this.#logger.child({ requestId: this.#requestId, ...bookingId }));
  }
}

/** The request's id is a field of its log line. */
export function requestLog(logger: Logger) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const given = ctx.req.headers['x-request-id'];
    const requestId = typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
    // Straight onto the response, as the security headers: the id is a valid header value.
    ctx.res.setHeader('X-Request-Id', requestId);
    ctx.state = new RequestState(requestId, logger);
    const started = performance.now();
    try {
      await next();
    } finally {
      const durationMs = Math.round((performance.now() - started) * 100) / 100;
      const routeFields = ctx.state.logFields as LogFields | undefined;
      const fields = {
        requestId,
        method: ctx.method,
        path: loggablePath(ctx.path),
        status: ctx.status,
        durationMs,
        ...routeFields,
      };
      // The request's span (tracing on) names the booking too, so a trace is found by the booking's id.
      if (typeof routeFields?.bookingId === 'string')
        trace.getActiveSpan()?.setAttribute('converge.booking.id', routeFields.bookingId);
      if (ctx.status >= 500) logger.error(fields, 'request');
      else if (ctx.status < 400 && SITE_FILE.test(ctx.path)) logger.debug(fields, 'request');
      else logger.info(fields, 'request');
    }
  };
}
