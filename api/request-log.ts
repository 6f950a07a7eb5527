/** A request id for every request (taken from X-Request-Id when sane, else made) and one log line per answer. */
import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A booking link's token opens that booking: logs keep the path (the API's or the manage page's) without it. */
function loggablePath(path: string): string {
  return path.replace(/^(\/api\/bookings\/|\/booking\/)[^/]+/i, '$1:token');
}

/** What a route adds to its request's one log line (ctx.state.logFields), rather than writing a line of its own. */
export type LogFields = Record<string, string | number | boolean>;

/**
 * The request's id is a field of its log line; the child logger that carries it (ctx.state.log, for the few lines a
 * request writes besides) is made only when something asks for it, not for every request.
 */
export function requestLog(logger: Logger) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const given = ctx.get('X-Request-Id');
    const requestId = given !== '' && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
    ctx.set('X-Request-Id', requestId);
    let log: Logger | undefined;
    Object.defineProperty(ctx.state, 'log', {
      configurable: true,
      enumerable: true,
      get: () => (log ??= logger.child({ requestId })),
    });
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const durationMs = Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100;
      const fields = { requestId, method: ctx.method, path: loggablePath(ctx.path), status: ctx.status, durationMs, ...(ctx.state.logFields as LogFields | undefined) };
      if (ctx.status >= 500) logger.error(fields, 'request');
      else logger.info(fields, 'request');
    }
  };
}
