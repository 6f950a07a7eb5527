/**
 * A route's middleware again, for one more path (an alias), as functions of its own: the tracing (OpenTelemetry's Koa
 * instrumentation) wraps a middleware function once, under the first path it meets it at, so a path that shared the
 * very functions would be traced without its route.
 */
export function aliasOf<Chain extends readonly ((ctx: never, next: never) => unknown)[]>(chain: Chain): Chain {
  return chain.map((handle) => (ctx: never, next: never) => handle(ctx, next)) as unknown as Chain;
}
