/**
 * The worker's tracing, loaded before the program (`node --import ./dist/worker/telemetry.js dist/worker/main.js`):
 * starts OpenTelemetry as `converge-worker` when OTEL_EXPORTER_OTLP_ENDPOINT is set, and does nothing else when it is not.
 */
import { startTracing } from '../server-shared/telemetry.js';

await startTracing('converge-worker');
