/**
 * The worker's own spans (when OTEL_EXPORTER_OTLP_ENDPOINT is set; without it the API's no-op tracer makes them
 * cost nothing): each delivery of the outbox, of any channel (worker/deliver.ts), with its
 * outcome. Their attributes name rows, bookings, kinds and endpoints by id; never an address or a URL's path.
 */
import { SpanStatusCode, trace, type Span, type SpanOptions } from '@opentelemetry/api';

const tracer = trace.getTracer('converge-worker');

/** What a delivery came to, on its span. */
export const OUTCOME = 'converge.delivery.outcome';

/** Marks `span` failed with the error's text (the caller's, said without addresses). */
function failedWith(span: Span, err: unknown): void {
  span.setAttribute(OUTCOME, 'failed');
  span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
}

/**
 * Runs `body` in an active span named `name`, which records the outcome `outcome` reads from its result or, when
 * it throws, its failure (`failed`, which may say more), and ends it.
 */
export function inSpan<T>(
  name: string,
  options: SpanOptions,
  body: (span: Span) => Promise<T>,
  outcome: (result: T) => string,
  failed: (span: Span, err: unknown) => void = failedWith,
): Promise<T> {
  return tracer.startActiveSpan(name, options, async (span) => {
    try {
      const result = await body(span);
      span.setAttribute(OUTCOME, outcome(result));
      return result;
    } catch (err) {
      failed(span, err);
      throw err;
    } finally {
      span.end();
    }
  });
}
