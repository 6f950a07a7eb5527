/** Bookings through the stack, the scaled workers that confirm them, their metrics, and rows kept across down/up. */
import { book, bookingIdOf, http, isHostInvitation, mailbox, messageIdOf, type Booking } from './http.js';
import { check, note, run, seconds, sleep, waitFor } from './run.js';
import { STACK, STOP_SECONDS, WORKERS } from './settings.js';
import { composeRun, containers, logsOf, waitHealthy } from './stack.js';

export async function bookFirst(apiUrl: string, mailpitUrl: string, slot: string): Promise<Booking> {
  const booking = await book(apiUrl, 0, slot);
  note(`booked ${booking.id} for ${booking.timeSlot}`);
  const mail = await waitFor('the confirmation in Mailpit', 60_000, async () =>
    (await mailbox(mailpitUrl)).find((m) => bookingIdOf(m) === booking.id),
  );
  const raw = await http<string>(`${mailpitUrl}/api/v1/message/${mail.ID}/raw`);
  check(raw.status === 200, `Mailpit answered ${raw.status} for the raw message`);
  check(
    new RegExp(`^Message-ID: <demo-${booking.id}@`, 'im').test(raw.text),
    'the raw message has no Message-ID <demo-{id}@…>',
  );
  check(
    new RegExp(`^To: .*${booking.email.replace(/\./g, '\\.')}`, 'im').test(raw.text),
    `the message is not addressed to ${booking.email}`,
  );
  check(/text\/calendar/i.test(raw.text), 'the message carries no calendar invitation (text/calendar)');
  note(`confirmation <${messageIdOf(mail)}> to ${booking.email}, with its invitation (${raw.text.length} bytes)`);
  return booking;
}

export async function scaleWorkers(): Promise<void> {
  await composeRun(['up', '-d', '--no-recreate', '--scale', `worker=${WORKERS}`], { timeoutMs: 180_000 });
  await waitHealthy({ ...STACK, worker: WORKERS });
  // The worker has no health check: its "worker ready" log line says it takes jobs.
  await waitFor(`${WORKERS} workers ready`, 60_000, async () => {
    const ready = await Promise.all(
      (await containers('worker')).map(async (worker) => (await logsOf(worker.id)).includes('worker ready')),
    );
    return ready.length === WORKERS && ready.every(Boolean) ? true : undefined;
  });
}

export async function bookMore(
  apiUrl: string,
  mailpitUrl: string,
  slots: string[],
  earlier: Booking[],
): Promise<Booking[]> {
  const bookings = await Promise.all(slots.map((slot, i) => book(apiUrl, i + 1, slot)));
  const expected = new Set([...earlier, ...bookings].map((b) => b.id));
  check(expected.size === earlier.length + bookings.length, 'the API gave two bookings the same id');
  const total = expected.size;
  // Each booking's confirmation, and its host's copy of the event (the demo team is on).
  await waitFor(`${2 * total} e-mails in Mailpit`, 120_000, async () =>
    (await mailbox(mailpitUrl)).length >= 2 * total ? true : undefined,
  );
  // A duplicate would come later than its original: give the workers a moment to send one.
  await sleep(5000);
  const all = await mailbox(mailpitUrl);
  const hostInvitations = all.filter(isHostInvitation);
  check(new Set(hostInvitations.map(messageIdOf)).size === hostInvitations.length, 'a host invitation went out twice');
  check(hostInvitations.length === total, `${hostInvitations.length} host invitations for ${total} bookings`);
  const mails = all.filter((mail) => !isHostInvitation(mail));
  const perBooking = new Map<string, number>();
  for (const mail of mails) {
    const id = bookingIdOf(mail);
    check(id !== undefined && expected.has(id), `an e-mail with an unexpected Message-ID: ${mail.MessageID}`);
    perBooking.set(id, (perBooking.get(id) ?? 0) + 1);
  }
  const duplicates = [...perBooking].filter(([, n]) => n > 1);
  check(
    duplicates.length === 0,
    `bookings confirmed more than once: ${duplicates.map(([id, n]) => `${id} ×${n}`).join(', ')}`,
  );
  check(mails.length === total && perBooking.size === total, `${mails.length} e-mails for ${total} bookings`);
  note(
    `${bookings.length} more bookings, ${mails.length - earlier.length} more confirmations and as many host invitations (${hostInvitations.length} in all), each Message-ID once`,
  );
  await reportWhoSent();
  return bookings;
}

/**
 * What Prometheus would scrape after the bookings: each program's GET /metrics on its own port inside the network
 * (not published), read from within its container. The API counted the bookings created; a worker counted the
 * confirmations it sent and the time from each booking to it.
 */
export async function metricsAfterBookings(bookings: number): Promise<void> {
  const scrape = async (containerId: string, port: number) =>
    (
      await run('docker', [
        'exec',
        containerId,
        'node',
        '-e',
        `fetch('http://127.0.0.1:${port}/metrics').then((r) => r.text()).then((t) => process.stdout.write(t))`,
      ])
    ).stdout;
  const value = (text: string, pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? 0);
  const [api] = await containers('api');
  check(api, 'no api container');
  const created = value(
    await scrape(api.id, 9464),
    /^converge_bookings_total\{outcome="created",program="api"\} (\d+)$/m,
  );
  check(
    created >= bookings,
    `the API's converge_bookings_total{outcome="created"} reads ${created}, after ${bookings} bookings`,
  );
  let sent = 0;
  let toLead = 0;
  for (const worker of await containers('worker')) {
    const text = await scrape(worker.id, 9465);
    sent += value(
      text,
      /^converge_outbox_deliveries_total\{kind="confirmation",outcome="sent",program="worker"\} (\d+)$/m,
    );
    toLead += value(text, /^converge_speed_to_lead_seconds_count\{program="worker"\} (\d+)$/m);
  }
  check(
    sent >= bookings && toLead >= bookings,
    `the workers' scrapes count ${sent} confirmations sent and ${toLead} speed-to-lead times, after ${bookings} bookings`,
  );
  note(
    `metrics: the API counted ${created} bookings created; the workers ${sent} confirmations sent, each timed from its booking (${toLead})`,
  );
}

/** Which worker sent how many (for the record: BullMQ hands jobs to whichever worker asks first). */
export async function reportWhoSent(): Promise<void> {
  for (const worker of await containers('worker')) {
    const sent = (await logsOf(worker.id)).split('\n').filter((line) => line.includes('confirmation sent')).length;
    note(`${worker.name}: ${sent} sent`);
  }
}

export async function stopWorkers(): Promise<void> {
  const begun = Date.now();
  await composeRun(['stop', '-t', String(STOP_SECONDS), 'worker'], { timeoutMs: 60_000 });
  const took = Date.now() - begun;
  const workers = await containers('worker');
  check(workers.length === WORKERS, `${workers.length} worker containers, expected ${WORKERS}`);
  for (const worker of workers) {
    note(`${worker.name}: ${worker.status}, exit code ${worker.exitCode}`);
    // 137 would mean Docker killed it after the 10 s of `stop -t 10`.
    check(
      worker.status === 'exited' && worker.exitCode === 0,
      `${worker.name} ended ${worker.status} with exit code ${worker.exitCode}`,
    );
  }
  check(took <= (STOP_SECONDS + 2) * 1000, `stopping the workers took ${seconds(took)}`);
  note(`all ${WORKERS} stopped in ${seconds(took)} (limit ${STOP_SECONDS} s), exit code 0`);
}

export async function downUpKeepsRows(apiUrl: string, adminToken: string, bookings: Booking[]): Promise<void> {
  await composeRun(['down', '-t', '15'], { timeoutMs: 120_000 });
  check((await containers()).length === 0, 'containers left after `down`');
  await composeRun(['up', '-d'], { timeoutMs: 300_000 });
  await waitHealthy(STACK);
  const { status, body, text } = await http<{
    demoRequests: Array<{ id: string; confirmation: { sentAt: string | null } }>;
  }>(`${apiUrl}/api/demo-requests`, {
    headers: { Authorization: `Bearer ${adminToken}` },
  });
  check(status === 200, `GET /api/demo-requests answered ${status}: ${text.slice(0, 300)}`);
  const rows = new Map(body.demoRequests.map((row) => [String(row.id), row]));
  const lost = bookings.filter((b) => !rows.has(b.id));
  check(lost.length === 0, `rows gone after down/up: ${lost.map((b) => b.id).join(', ')}`);
  const unsent = bookings.filter((b) => !rows.get(b.id)?.confirmation.sentAt);
  check(unsent.length === 0, `rows not marked sent: ${unsent.map((b) => b.id).join(', ')}`);
  const count = await composeRun([
    'exec',
    '-T',
    'postgres',
    'psql',
    '-U',
    'converge',
    '-d',
    'converge',
    '-tAc',
    'select count(*) from bookings',
  ]);
  check(
    Number(count.stdout.trim()) === bookings.length,
    `psql counts ${count.stdout.trim()} rows, expected ${bookings.length}`,
  );
  note(`all ${bookings.length} rows kept, each marked sent (API and psql agree)`);
}
