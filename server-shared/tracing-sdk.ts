/**
 * The OpenTelemetry SDK of a program, loaded by telemetry.ts only when OTEL_EXPORTER_OTLP_ENDPOINT is set: spans of
 * the HTTP server (Koa's router layers beneath it), PostgreSQL (pg, under Knex) and Redis (ioredis, under BullMQ),
 * BullMQ's own spans (telemetry.ts's `queueTelemetry`), and the worker's delivery spans (worker/deliver.ts), sent in
 * batches over OTLP/HTTP (JSON) to `$OTEL_EXPORTER_OTLP_ENDPOINT/v1/traces`. The other OTEL_* settings of the
 * exporter and the batch processor (OTEL_EXPORTER_OTLP_HEADERS, OTEL_BSP_SCHEDULE_DELAY, …) apply as documented.
 *
 * What no span carries: an e-mail address, a name or a booking link's token. pg records the statement text, never
 * its parameters (every value reaches PostgreSQL as a parameter); Redis spans carry the command's name only (a
 * rate-limit key names the client); the booking links' token is cut out of the URL's path; an outgoing call (a webhook)
 * keeps its target's origin, not its path.
 */
import { createRequire } from 'node:module';
import type { IncomingMessage, RequestOptions } from 'node:http';
import { trace, type Attributes, type SpanKind, type Context, type Link } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { KoaInstrumentation, KoaLayerType } from '@opentelemetry/instrumentation-koa';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { NodeSDK } from '@opentelemetry/sdk-node';
import {
  AlwaysOnSampler,
  ParentBasedSampler,
  SamplingDecision,
  type Sampler,
  type SamplingResult,
} from '@opentelemetry/sdk-trace-base'; // the 2.x line: the 3.x '@opentelemetry/sdk-trace' needs Node 22.15
import { ATTR_URL_FULL, ATTR_URL_PATH } from '@opentelemetry/semantic-conventions';

/**
 * A booking link's token opens that booking, and so does a text's short link code: spans keep the path (the API's,
 * the manage page's, the short link's) without them.
 */
export function pathWithoutToken(path: string): string {
  return path.replace(/^(\/api\/bookings\/|\/booking\/)[^/?#]+/i, '$1:token').replace(/^(\/m\/)[^/?#]+/i, '$1:code');
}

/**
 * An outgoing call's URL as its span keeps it: the origin alone. The worker's calls over node:http are the webhooks,
 * whose receivers' paths and queries often hold a secret of their own (many CRMs put one there).
 */
export function urlWithoutPath(request: Pick<RequestOptions, 'protocol' | 'hostname' | 'host' | 'port'>): string {
  const port =
    request.port === undefined || request.port === null || request.port === '' ? '' : `:${String(request.port)}`;
  return `${request.protocol ?? 'http:'}//${request.hostname ?? request.host ?? 'localhost'}${port}/:path`;
}

/** Probes and scrapes: asked every few seconds, they would bury the traces that matter. */
const UNTRACED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * BullMQ traces its housekeeping too: every poll for the next job, every stalled-jobs check, each a trace of its own
 * every few seconds. Those that start a trace are left out; a job's own spans (`add …`, `process …`) are kept.
 */
const HOUSEKEEPING = /^(getNextJob|moveStalledJobsToWait|startStalledCheckTimer|rateLimit|pause|resume|close) /;

class WithoutQueueHousekeeping implements Sampler {
  readonly #inner = new ParentBasedSampler({ root: new AlwaysOnSampler() });

  shouldSample(
    context: Context,
    traceId: string,
    spanName: string,
    spanKind: SpanKind,
    attributes: Attributes,
    links: Link[],
  ): SamplingResult {
    if (!trace.getSpanContext(context) && HOUSEKEEPING.test(spanName)) return { decision: SamplingDecision.NOT_RECORD };
    return this.#inner.shouldSample(context, traceId, spanName, spanKind, attributes, links);
  }

  toString(): string {
    return 'WithoutQueueHousekeeping{ParentBased{root=AlwaysOn}}';
  }
}

/** Starts the SDK; returns what flushes the spans still buffered and stops it. */
export function startSdk(serviceName: string): () => Promise<void> {
  const sdk = new NodeSDK({
    serviceName,
    traceExporter: new OTLPTraceExporter(),
    sampler: new WithoutQueueHousekeeping(),
    // Traces only: no metrics (prom-client serves those, METRICS_PORT) and no log records (the logs go to stdout).
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request: IncomingMessage) =>
          UNTRACED_PATHS.has((request.url ?? '').split('?')[0] ?? ''),
        startIncomingSpanHook: (request: IncomingMessage) => ({
          [ATTR_URL_PATH]: pathWithoutToken((request.url ?? '').split('?')[0] ?? ''),
        }),
        // The worker's and the API's outgoing calls of their own (CalDAV) go through fetch, not node:http.
        requireParentforOutgoingSpans: true,
        startOutgoingSpanHook: (request: RequestOptions) => ({ [ATTR_URL_FULL]: urlWithoutPath(request) }),
      }),
      // The router's layers (named by their pattern, `/api/bookings/:token`), not each of the app's middleware.
      new KoaInstrumentation({ ignoreLayersType: [KoaLayerType.MIDDLEWARE] }),
      // Statements inside a request or a job only: the sweep's and the scrapes' queries start no trace of their own.
      new PgInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false }),
      new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: (command: string) => command }),
    ],
  });
  sdk.start();
  // The instrumentations patch a module when it is require()d. The programs import these CommonJS packages from ESM,
  // which does not pass through require(); loading them here, once the SDK runs, patches the very classes those
  // imports get (koa's ESM entry re-exports its CommonJS one; pg and ioredis are CommonJS). (The ESM loader hook of
  // import-in-the-middle is no way out here: each instrumentation brings its own copy of it, with its own registry.)
  const require = createRequire(import.meta.url);
  for (const name of ['koa', 'pg', 'ioredis']) require(name);
  return () => sdk.shutdown();
}
