import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * What a program started with its tracing entry (`--import ./api/telemetry.ts`, as the image does) finds: whether the
 * SDK started, whether a span records, and which OpenTelemetry packages were loaded.
 */
async function probe(
  env: Record<string, string>,
): Promise<{ started: boolean; recording: boolean; sdkLoaded: boolean }> {
  const source = `
    import { trace } from '@opentelemetry/api';
    import { tracingStarted, stopTracing } from './server-shared/telemetry.ts';
    const span = trace.getTracer('probe').startSpan('probe');
    // The SDK's packages load CommonJS parts: they show in require's cache once loaded.
    const loaded = Object.keys((await import('node:module')).createRequire(import.meta.url).cache).join(' ');
    console.log(JSON.stringify({ started: tracingStarted(), recording: span.isRecording(), sdkLoaded: /sdk-node|sdk-trace/.test(loaded) }));
    span.end();
    // With nothing at the endpoint the last spans cannot be sent: that is the collector's absence, not a fault here.
    await stopTracing().catch(() => {});`;
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--import', './api/telemetry.ts', '--input-type=module', '-e', source],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: '', ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  await new Promise((resolve) => child.once('close', resolve));
  return JSON.parse(out.trim()) as { started: boolean; recording: boolean; sdkLoaded: boolean };
}

describe('the tracing entry (OTEL_EXPORTER_OTLP_ENDPOINT)', function () {
  this.timeout(60_000);

  it('loads no SDK and records nothing while the endpoint is unset or empty', async () => {
    expect(await probe({})).to.deep.equal({ started: false, recording: false, sdkLoaded: false });
  });

  it('starts the SDK before the program when the endpoint is set', async () => {
    // Nothing listens there: the probe's one span is dropped at the end, which is no failure of the program.
    expect(await probe({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' })).to.deep.equal({
      started: true,
      recording: true,
      sdkLoaded: true,
    });
  });
});
