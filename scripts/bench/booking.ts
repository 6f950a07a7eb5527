/**
 * Section 2 of `npm run bench`: POST /api/demo-request with a new person and slot each request, worker stopped; the
 * booking's statement alone with no HTTP in front; then with the worker draining on the same cores.
 */
import { createDb } from '../../api/db.js';
import { DEFAULT_FOLLOW_UPS, emailRows } from '../../api/bookings/emails.js';
import { DEFAULT_MEETING_URL_TEMPLATE, meetingUrlOf } from '../../api/bookings/meeting.js';
import { newBookingId } from '../../api/bookings/booking-id.js';
import { book } from '../../api/bookings/repository.js';
import type { DemoRequestInput } from '../../domain/demo-request.js';
import { invitePathOf } from '../../server-shared/booking-link.js';
import { canonicalRecipient } from '../../api/email-rules.js';
import { bookingBodies } from './bodies.js';
import { bookingRoute } from './endpoints.js';
import { loadWithCpu, show, type Figures } from './load.js';
import { delay, percentile, stop } from './processes.js';
import type { BenchRun } from './run.js';
import type { BuiltStack } from './built-stack.js';

/**
 * The booking's one statement alone, as the API runs it (the repository's book, on a pool the API's size), from
 * `connections` callers at once with the same bodies: what PostgreSQL itself takes per booking on these cores, with
 * no HTTP, validation or queue in front. The rows are marked confirmed afterwards, so no worker sends them.
 */
async function bookingsWithoutHttp(
  { connections, duration, run }: BenchRun,
  { databaseUrl, env }: BuiltStack,
  slots: readonly string[],
): Promise<Figures> {
  const db = createDb(databaseUrl);
  const nextBody = bookingBodies(slots, run);
  const ids: string[] = [];
  const latencies: number[] = [];
  let errors = 0;
  const until = performance.now() + duration * 1000;
  const caller = async () => {
    while (performance.now() < until) {
      const input = JSON.parse(nextBody()) as DemoRequestInput;
      const id = newBookingId();
      const timeSlot = new Date(input.timeSlot);
      const started = performance.now();
      const outcome = await book(db, {
        id,
        input,
        recipient: canonicalRecipient(input.email),
        limits: {
          perEmailPerDay: Number(env.BOOKINGS_PER_EMAIL_PER_DAY),
          perDomainPerDay: Number(env.BOOKINGS_PER_DOMAIN_PER_DAY),
          emailsPerRecipientPerDay: Number(env.EMAILS_PER_RECIPIENT_PER_DAY),
          slotCapacity: Number(env.SLOT_CAPACITY),
        },
        emails: emailRows('booked', DEFAULT_FOLLOW_UPS, new Date(), timeSlot),
        invitePath: invitePathOf(id, env.BOOKING_LINK_SECRET),
        meetingUrl: meetingUrlOf(DEFAULT_MEETING_URL_TEMPLATE),
      }).catch(() => undefined);
      latencies.push(performance.now() - started);
      if (outcome?.outcome === 'stored') ids.push(id);
      else errors += 1;
    }
  };
  try {
    await Promise.all(Array.from({ length: connections }, caller));
    await db.raw("UPDATE deliveries SET sent_at = now() WHERE channel <> 'webhook' AND booking_id = ANY(?::uuid[])", [
      ids,
    ]);
  } finally {
    await db.destroy();
  }
  latencies.sort((a, b) => a - b);
  return {
    rps: ids.length / duration,
    p50: Math.round(percentile(latencies, 50)),
    p99: Math.round(percentile(latencies, 99)),
    non2xx: 0,
    errors,
  };
}

export async function bookingSection(bench: BenchRun, stack: BuiltStack, slots: readonly string[]): Promise<void> {
  const { say, connections } = bench;
  say(`\n2. POST /api/demo-request, ${connections} connections, a new person and slot each request`);
  const booking = bookingRoute(slots, bench.run);
  const throughApi = await loadWithCpu(bench, stack.api, booking, stack.apiProcess.pid);
  say(`    worker stopped   ${show(throughApi)}`);
  const statementAlone = await bookingsWithoutHttp(bench, stack, slots);
  say(`    database alone   ${show(statementAlone)}`);
  // No longer a goal (issue 41): on two shared cores the load generator and the server share the CPU.
  say(
    `    ratio            ${(throughApi.rps / statementAlone.rps).toFixed(2)}x (the API against the statement alone)`,
  );
  const worker = stack.startWorker();
  await delay(1500);
  say(`    worker draining  ${show(await loadWithCpu(bench, stack.api, booking, stack.apiProcess.pid))}`);
  await stop(worker);
}
