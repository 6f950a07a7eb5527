/**
 * Traces and logs of one booking, across both programs: the API and the worker started as the images start them
 * (child processes, each with its `--import …/telemetry` entry and OTEL_EXPORTER_OTLP_ENDPOINT set) against a fresh
 * database, a private queue prefix, an SMTP sink and a small OTLP/HTTP receiver. A demo is booked, moved and
 * cancelled through the API; then what the receiver got and what both programs logged are read.
 */
import { expect } from 'chai';
import { managePathOf, smsLinkCode, smsLinkPath } from '../server-shared/booking-link.js';
import { newWebhookSecret } from '../server-shared/webhooks.js';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { bookableSlots } from '../test/booking.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../test/otlp-receiver.js';
import { startSmtpSink, type SmtpSink } from '../test/smtp-sink.js';
import { TEST_LINK_SECRET, TEST_REDIS_URL, clearQueuePrefix, testQueuePrefix } from '../test/stack.js';
import { until } from '../test/until.js';
import { startReceiver, type Receiver } from '../test/webhook-receiver.js';
import { freePort } from './dev-services/ports.js';
import { spawnProgram, timeToExit, type LogLine, type Spawned } from './dev-services/testing/spawned.js';

const PROSPECT = {
  name: 'Ada Quillfeather',
  email: 'ada.quillfeather@orbital-freight.com',
  company: 'Orbital Freight',
};
/** A CRM's webhook address often holds a secret of its own in its path. */
const HOOK_PATH_SECRET = 'zq81-crm-hook-secret';
const SERVER = 2;
const PRODUCER = 4;
const CONSUMER = 5;
const CLIENT = 3;

/** `node --import tsx --import ./{program}/telemetry.ts {program}/main.ts`: the image's command, from source. */
function withTelemetry(program: 'api' | 'worker') {
  return { command: process.execPath, args: ['--import', 'tsx', '--import', `./${program}/telemetry.ts`] };
}

/** A trace as an operator's tool shows it: one line a span, indented under its parent, with its service. */
function tree(spans: readonly ReceivedSpan[]): string {
  const lines: string[] = [];
  const ids = new Set(spans.map((span) => span.spanId));
  const walk = (parent: string, depth: number) => {
    for (const span of spans.filter((candidate) =>
      parent ? candidate.parentSpanId === parent : !ids.has(candidate.parentSpanId),
    )) {
      lines.push(`${'  '.repeat(depth)}${span.name}  [${span.service}]`);
      walk(span.spanId, depth + 1);
    }
  };
  walk('', 0);
  return lines.join('\n');
}

describe('traces and logs of a booking, moved and cancelled (OTEL_EXPORTER_OTLP_ENDPOINT set)', function () {
  this.timeout(150_000);
  let database: TestDatabase;
  let queuePrefix: string;
  let receiver: OtlpReceiver;
  let sink: SmtpSink;
  let hooks: Receiver;
  let api: Spawned | undefined;
  let worker: Spawned | undefined;
  let bookingId: string;
  let token: string;
  let code: string;
  /** The request line of each call about the booking, by what it did. */
  const requests: Record<string, LogLine> = {};

  before(async () => {
    [database, receiver, sink, hooks] = await Promise.all([
      createTestDatabase(),
      startOtlpReceiver(),
      startSmtpSink(),
      startReceiver(newWebhookSecret()),
    ]);
    queuePrefix = testQueuePrefix();
    const port = await freePort();
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: queuePrefix,
      BOOKING_LINK_SECRET: TEST_LINK_SECRET,
      WEBHOOK_URL: `${hooks.url}/${HOOK_PATH_SECRET}`,
      WEBHOOK_SECRET: hooks.secret,
      WEBHOOK_ALLOW_PRIVATE: 'true',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_SERVICE_NAME: '',
      // Spans go out within a fifth of a second, rather than the default 5 s.
      OTEL_BSP_SCHEDULE_DELAY: '200',
    };
    api = spawnProgram(
      'api/main.ts',
      { ...env, PORT: String(port), WEB_ROOT: '/nonexistent' },
      [],
      withTelemetry('api'),
    );
    worker = spawnProgram(
      'worker/main.ts',
      { ...env, SMTP_URL: sink.url, PUBLIC_URL: `http://127.0.0.1:${port}` },
      [],
      withTelemetry('worker'),
    );
    // Generous: two programs start at once on a machine that may be busy.
    await Promise.all([
      api.waitForLog((line) => line.msg === 'api listening', 60_000),
      worker.waitForLog((line) => line.msg === 'worker ready', 60_000),
    ]);
    const base = `http://127.0.0.1:${port}`;
    const [first, second] = bookableSlots(2);
    if (!first || !second) throw new Error('two bookable slots are needed');

    const call = async (what: string, method: string, path: string, body?: unknown) => {
      const requestId = `traces-${what}`;
      const response = await fetch(`${base}${path}`, {
        method,
        headers: { 'Content-Type': 'application/json', 'X-Request-Id': requestId },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      requests[what] = await api!.waitForLog((line) => line.msg === 'request' && line.requestId === requestId);
      return response;
    };
    // The confirmation's first try is refused for now by a server that quotes the recipient, as many do; the queue's
    // retry (5 s later) sends it, in the same trace.
    sink.failNext(1, { code: 451, message: `4.2.1 <${PROSPECT.email}>: mailbox busy, try again later` });
    const booked = await call('book', 'POST', '/api/demo-request', {
      ...PROSPECT,
      timeSlot: first.iso,
      message: 'SMS and RCS for our drivers.',
    });
    expect(booked.status).to.equal(201);
    bookingId = String(requests.book?.bookingId);
    token = managePathOf(bookingId, TEST_LINK_SECRET).slice('/booking/'.length);
    await sink.waitForMessages(1, 30_000);
    expect((await call('move', 'POST', `/api/bookings/${token}/reschedule`, { timeSlot: second.iso })).status).to.equal(
      200,
    );
    await sink.waitForMessages(2);
    expect((await call('cancel', 'POST', `/api/bookings/${token}/cancel`)).status).to.equal(200);
    await sink.waitForMessages(3);
    expect((await call('view', 'GET', `/api/bookings/${token}`)).status).to.equal(200);
    await call('page', 'GET', `/booking/${token}`);
    // A text's short link (this booking has none stored: the path is what counts here).
    code = smsLinkCode(bookingId, TEST_LINK_SECRET);
    await call('short', 'GET', smsLinkPath(code));
    await until(async () => (hooks.taken().length >= 3 ? true : undefined), 'the three webhook events delivered');

    // SIGTERM: each program sends the spans it still holds before it exits.
    api.child.kill('SIGTERM');
    worker.child.kill('SIGTERM');
    expect(
      (await Promise.all([timeToExit(api, 15_000), timeToExit(worker, 15_000)])).map((exit) => exit.code),
    ).to.deep.equal([0, 0]);
  });

  after(async () => {
    for (const program of [api, worker]) if (program?.isRunning()) program.child.kill('SIGKILL');
    await Promise.all([database.drop(), clearQueuePrefix(queuePrefix), receiver.close(), sink.close(), hooks.close()]);
  });

  const traceOf = (what: string): ReceivedSpan[] => {
    const traceId = requests[what]?.traceId;
    expect(traceId, `the ${what} request's log line names its trace`).to.be.a('string');
    return receiver.spans.filter((span) => span.traceId === traceId);
  };

  it('makes one trace of a booking: the request, its statements, the job, the worker and the SMTP send', async () => {
    const spans = await until(async () => {
      const found = traceOf('book');
      return found.some((span) => span.name === 'smtp send') ? found : undefined;
    }, 'the booking trace with its SMTP send');
    const shown = tree(spans);
    const one = (test: (span: ReceivedSpan) => boolean, what: string): ReceivedSpan => {
      const matches = spans.filter(test);
      expect(matches, `${what} in\n${shown}`).to.have.length.greaterThan(0);
      return matches[0]!;
    };
    const parentOf = (span: ReceivedSpan) => spans.find((candidate) => candidate.spanId === span.parentSpanId);

    const request = one((span) => span.kind === SERVER && span.name === 'POST /api/demo-request', 'the request span');
    expect(request.service).to.equal('converge-api');
    expect(request.parentSpanId, 'the request starts the trace').to.equal('');
    expect(request.attributes['converge.booking.id']).to.equal(bookingId);
    one(
      (span) => span.service === 'converge-api' && span.attributes['db.system.name'] === 'postgresql',
      'a statement of the API',
    );
    const added = one(
      (span) => span.kind === PRODUCER && span.service === 'converge-api',
      'the job added to the queue',
    );
    // Each try of the job is a `process` span beneath the `add`: the refused one, then the one that sent.
    const deliveryBy = (outcome: string) =>
      one(
        (span) =>
          span.name === 'deliver email' &&
          parentOf(span)?.kind === CONSUMER &&
          parentOf(parentOf(span)!) === added &&
          span.attributes['converge.delivery.outcome'] === outcome,
        `a delivery of the job that ended ${outcome}`,
      );
    const refused = deliveryBy('failed');
    expect(refused.attributes).to.include({
      'converge.booking.id': bookingId,
      'converge.delivery.kind': 'confirmation',
    });
    expect(
      one((span) => span.name === 'smtp send' && parentOf(span) === refused, 'the refused send').attributes,
    ).to.include({ 'smtp.response_code': 451 });
    const delivery = deliveryBy('sent');
    expect(delivery.attributes).to.include({
      'converge.booking.id': bookingId,
      'converge.delivery.kind': 'confirmation',
    });
    expect(parentOf(delivery)?.service).to.equal('converge-worker');
    const send = one((span) => span.name === 'smtp send' && parentOf(span) === delivery, 'the SMTP send');
    expect(send.attributes).to.include({ 'converge.delivery.outcome': 'sent' });
    one(
      (span) =>
        span.service === 'converge-worker' &&
        span.attributes['db.system.name'] === 'postgresql' &&
        parentOf(span) === delivery,
      'the claim and the mark',
    );
    // Every span but the request's has its parent in the same trace.
    for (const span of spans)
      if (span !== request) expect(parentOf(span), `${span.name}'s parent in\n${shown}`).to.not.equal(undefined);
  });

  it("continues the move's and the cancellation's requests into their e-mails' deliveries", async () => {
    for (const [what, kind] of [
      ['move', 'update'],
      ['cancel', 'cancellation'],
    ] as const) {
      const spans = await until(async () => {
        const found = traceOf(what);
        return found.some((span) => span.name === 'smtp send') ? found : undefined;
      }, `the ${what} trace with its SMTP send`);
      expect(spans.map((span) => span.service)).to.include.members(['converge-api', 'converge-worker']);
      expect(
        spans.find((span) => span.name === 'deliver email')?.attributes['converge.delivery.kind'],
        tree(spans),
      ).to.equal(kind);
    }
  });

  it("continues each change into its webhook's delivery: the try, its POST beneath its send with the receiver's origin only", async () => {
    for (const [what, type] of [
      ['book', 'booking.created'],
      ['move', 'booking.rescheduled'],
      ['cancel', 'booking.cancelled'],
    ] as const) {
      const spans = await until(async () => {
        const found = traceOf(what);
        return found.some(
          (span) => span.name === 'deliver webhook' && span.attributes['converge.delivery.outcome'] === 'sent',
        )
          ? found
          : undefined;
      }, `the ${what} trace with its webhook delivered`);
      const delivered = spans.find(
        (span) => span.name === 'deliver webhook' && span.attributes['converge.delivery.outcome'] === 'sent',
      )!;
      expect(delivered.service).to.equal('converge-worker');
      expect(delivered.attributes, tree(spans)).to.include({
        'converge.webhook.event.type': type,
        'converge.booking.id': bookingId,
        'http.response.status_code': 200,
      });
      // The POST beneath the transport's span, `webhook post`, beneath the delivery's.
      const transport = spans.find((span) => span.name === 'webhook post' && span.parentSpanId === delivered.spanId);
      const post = spans.find(
        (span) =>
          span.kind === CLIENT &&
          span.attributes['http.request.method'] === 'POST' &&
          span.parentSpanId === transport?.spanId,
      );
      expect(post?.attributes['url.full'], tree(spans)).to.equal(`${new URL(hooks.url).origin}/:path`);
    }
  });

  it("puts no address, name or token in any span: the booking link's and the short link's paths are cut short", () => {
    expect(receiver.spans.length).to.be.greaterThan(20);
    for (const span of receiver.spans) {
      for (const secret of [PROSPECT.email, PROSPECT.name, 'Quillfeather', token, code, HOOK_PATH_SECRET])
        expect(span.text, span.name).to.not.include(secret);
    }
    const paths = receiver.spans.filter((span) => span.kind === SERVER).map((span) => span.attributes['url.path']);
    expect(paths).to.include.members([
      `/api/bookings/:token`,
      '/api/bookings/:token/reschedule',
      '/api/bookings/:token/cancel',
      '/booking/:token',
      '/m/:code',
    ]);
  });

  it('logs no address, name or token, in either program', () => {
    const lines = [...api!.logs, ...worker!.logs].map((line) => JSON.stringify(line));
    expect(lines.length).to.be.greaterThan(10);
    for (const line of [...lines, ...api!.otherOutput, ...worker!.otherOutput]) {
      for (const secret of [PROSPECT.email, PROSPECT.name, 'Quillfeather', token, code])
        expect(line).to.not.include(secret);
    }
  });

  it("gives every line about the booking its id and its trace's, in the API and the worker alike", async () => {
    const deliveryIds = new Set(
      (await database.db('deliveries').where({ booking_id: bookingId }).pluck('id')).map(String),
    );
    // The manage page's own request is left out: the server hands every token the same page, and reads none.
    const traceIds = new Set(['book', 'move', 'cancel', 'view'].map((what) => String(requests[what]?.traceId)));
    const about = (line: LogLine) =>
      line.bookingId === bookingId ||
      deliveryIds.has(String(line.deliveryId)) ||
      traceIds.has(String(line.traceId)) ||
      String(line.path).startsWith('/api/bookings/:token');
    const lines = [...api!.logs, ...worker!.logs].filter(about);
    for (const line of lines) {
      expect(line, `${line.name}: ${line.msg} ${String(line.path)}`).to.include({ bookingId });
      expect(traceIds, `${line.name}: ${line.msg} (${String(line.traceId)})`).to.include(String(line.traceId));
    }
    // One booking's lines in both programs: each e-mail's "sent" line in the worker has the trace of the request that
    // stored it in the API.
    // The refused first try: the worker's line and the queue's, with the server's reply minus the address.
    const refusedLines = worker!.logs.filter(
      (line) => line.msg === 'confirmation not sent; will retry' || line.msg === 'job failed',
    );
    expect(refusedLines.map((line) => [line.msg, line.bookingId, line.traceId])).to.deep.equal([
      ['confirmation not sent; will retry', bookingId, requests.book?.traceId],
      ['job failed', bookingId, requests.book?.traceId],
    ]);
    expect(refusedLines[0]?.error).to.include('<[address]>: mailbox busy');
    const sentLine = (kind: string) =>
      worker!.logs.find((line) => line.msg === `${kind} sent` && line.bookingId === bookingId);
    expect(sentLine('confirmation')?.traceId).to.equal(requests.book?.traceId);
    expect(sentLine('update')?.traceId).to.equal(requests.move?.traceId);
    expect(sentLine('cancellation')?.traceId).to.equal(requests.cancel?.traceId);
    expect(
      api!.logs
        .filter((line) => line.msg === 'booking rescheduled' || line.msg === 'booking cancelled')
        .map((line) => line.traceId),
    ).to.deep.equal([requests.move?.traceId, requests.cancel?.traceId]);
  });
});
