/**
 * Traces (OpenTelemetry), off unless OTEL_EXPORTER_OTLP_ENDPOINT is set. Each program is started with its own small
 * entry (`node --import ./dist/api/telemetry.js dist/api/main.js`, the worker's alike), which calls `startTracing`
 * before the program's modules are loaded. With the variable unset that entry loads nothing more than this file and
 * bullmq-otel's small adapter: the SDK (tracing-sdk.ts) is imported only when tracing is on. The rest of the code speaks to @opentelemetry/api
 * alone, whose calls do nothing while no SDK is registered.
 */
import { BullMQOtel } from 'bullmq-otel';

/** The OTLP/HTTP endpoint traces go to (`/v1/traces` is added), or undefined: tracing off. */
export function tracingEndpoint(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  return endpoint ? endpoint : undefined;
}

let stopSdk: (() => Promise<void>) | undefined;

/**
 * Starts the SDK when OTEL_EXPORTER_OTLP_ENDPOINT is set: the service is OTEL_SERVICE_NAME, else `serviceName`.
 * Must run before koa, pg and ioredis are first loaded (hence the `--import` entry).
 */
export async function startTracing(serviceName: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  if (stopSdk || !tracingEndpoint(env)) return;
  const { startSdk } = await import('./tracing-sdk.js');
  stopSdk = startSdk(env.OTEL_SERVICE_NAME?.trim() || serviceName);
}

/** True once the SDK runs in this process. */
export function tracingStarted(): boolean {
  return stopSdk !== undefined;
}

/** Sends the spans still buffered and stops the SDK: the last step of a clean shutdown. A no-op when tracing is off. */
export async function stopTracing(): Promise<void> {
  const stop = stopSdk;
  stopSdk = undefined;
  await stop?.();
}

/**
 * BullMQ's telemetry for a Queue or a Worker while tracing runs: a job added carries the adding span's context in
 * its options (in Redis, beside the row id), and the worker's `process` span continues that trace.
 */
export function queueTelemetry(): { telemetry: BullMQOtel } | Record<string, never> {
  return tracingStarted() ? { telemetry: new BullMQOtel({ tracerName: 'bullmq' }) } : {};
}
