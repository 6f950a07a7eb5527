/**
 * The API's tracing, loaded before the program (`node --import ./dist/api/telemetry.js dist/api/main.js`): starts
 * OpenTelemetry as `converge-api` when OTEL_EXPORTER_OTLP_ENDPOINT is set, and does nothing else when it is not.
 */
import { startTracing } from '../server-shared/telemetry.js';

await startTracing('converge-api');
