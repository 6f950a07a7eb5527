/** Section 4 of `npm run bench`: submit-to-SMTP-accepted latency at 100 bookings per second, the built worker running. */
import autocannon from 'autocannon';
import { bookingBodies } from './bodies.js';
import { delay, percentile, stop, waitUntil } from './processes.js';
import type { BenchRun } from './run.js';
import type { BuiltStack } from './built-stack.js';

export async function latencySection(bench: BenchRun, stack: BuiltStack, slots: readonly string[]): Promise<void> {
  const { say, duration } = bench;
  const worker = stack.startWorker();
  await delay(1500);
  const submitted = new Map<string, number>();
  const body = bookingBodies(slots, bench.run);
  await autocannon({
    url: stack.api,
    connections: 20,
    overallRate: 100,
    duration,
    requests: [
      {
        method: 'POST',
        path: '/api/demo-request',
        headers: { 'content-type': 'application/json' },
        setupRequest: (request) => ({ ...request, body: body() }),
        onResponse: (status, responseBody) => {
          if (status === 201)
            submitted.set(`<demo-${(JSON.parse(responseBody) as { id: string }).id}@converge.localhost>`, Date.now());
        },
      },
    ],
  });
  await waitUntil(
    async () => [...submitted.keys()].every((id) => stack.accepted.has(id)),
    'every booking to be confirmed',
    120_000,
  );
  await stop(worker);
  // Measured from the 201 the client read to the SMTP server's acceptance: both clocks are this machine's.
  const latencies = [...submitted].map(([id, at]) => stack.accepted.get(id)! - at).sort((a, b) => a - b);
  say(`\n4. Submit to SMTP-accepted, 100 bookings/s for ${duration} s (${latencies.length} bookings)`);
  say(`    p50 ${percentile(latencies, 50)} ms, p95 ${percentile(latencies, 95)} ms, max ${latencies.at(-1)} ms`);
}
