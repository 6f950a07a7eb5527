/**
 * Webhooks end to end: the real API and worker (test/stack.ts), a real receiver on loopback that verifies every
 * signature with the standardwebhooks package (test/webhook-receiver.ts), and the scenarios of issue 25: a booking, a
 * move and a cancel arrive once each, in order (also when Redis is away from the API: the sweep sends them); a receiver down for a while loses nothing and is not switched off; a
 * receiver answering 500 for the whole (shortened) retry window is marked failing, its events kept, and a replay
 * delivers them once it heals; a tampered secret or body fails verification; loopback targets are refused without
 * WEBHOOK_ALLOW_PRIVATE.
 */
import { expect } from 'chai';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { Webhook } from 'standardwebhooks';
import { bookingToken } from '../../server-shared/booking-link.js';
import { newWebhookSecret, webhookEventSchema } from '../../server-shared/webhooks.js';
import { startAppUnderTest } from '../../test/app-under-test.js';
import { bookableSlots } from '../../test/booking.js';
import { TEST_LINK_SECRET, startStack, type Stack } from '../../test/stack.js';
import { until } from '../../test/until.js';
import { startReceiver, type Receiver } from '../../test/webhook-receiver.js';
import { loadApiConfig } from '../config.js';

const ADMIN_TOKEN = 'webhook-test-admin-token-0123456789abcdef';
const validPayload = addFormats.default(new Ajv({ strict: false })).compile(webhookEventSchema());

let next = 0;
const slots = bookableSlots(17);

async function book(stack: Stack, attribution?: Record<string, string>): Promise<{ id: string; token: string }> {
  const slot = slots[next++ % slots.length]!;
  const response = await fetch(`${stack.url}/api/demo-request`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Ada Lovelace',
      email: `ada${next}@analytical-engines.com`,
      company: 'Analytical Engines',
      timeSlot: slot.iso,
      ...(attribution ? { attribution } : {}),
    }),
  });
  expect(response.status, await response.clone().text()).to.equal(201);
  const { id } = (await response.json()) as { id: string };
  return { id, token: bookingToken(id, TEST_LINK_SECRET) };
}

async function change(stack: Stack, token: string, what: 'reschedule' | 'cancel', body: unknown = {}): Promise<void> {
  const response = await fetch(`${stack.url}/api/bookings/${token}/${what}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).to.equal(200);
}

async function admin<T>(
  stack: Stack,
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<{ status: number; body: T }> {
  const response = await fetch(`${stack.url}/api/admin/webhooks${path}`, {
    method: init.method ?? 'GET',
    headers: {
      authorization: `Bearer ${ADMIN_TOKEN}`,
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  return { status: response.status, body: (response.status === 204 ? undefined : await response.json()) as T };
}

interface EndpointView {
  id: string;
  state: string;
  source: string;
  pending: number;
  delivered: number;
  exhausted: number;
  failingReason: string | null;
}

const eventsOf = (receiver: Receiver, bookingId: string) =>
  receiver.taken().filter((event) => event.data.booking.id === bookingId);

function stackEnv(receiver: Receiver, windowSeconds: string): Record<string, string> {
  return {
    ADMIN_TOKEN,
    WEBHOOK_URL: receiver.url,
    WEBHOOK_SECRET: receiver.secret,
    WEBHOOK_ALLOW_PRIVATE: 'true',
    // The schedule shortened through its settings: 100 ms doubling to 400 ms, for the window given.
    WEBHOOK_RETRY_FIRST_SECONDS: '0.1',
    WEBHOOK_RETRY_MAX_SECONDS: '0.4',
    WEBHOOK_RETRY_WINDOW_SECONDS: windowSeconds,
  };
}

describe('webhooks (Standard Webhooks) to a receiver that verifies them', function () {
  this.timeout(60_000);

  describe('a receiver that answers, and one that is down for a while', () => {
    let receiver: Receiver;
    let stack: Stack;
    before(async () => {
      receiver = await startReceiver(newWebhookSecret());
      stack = await startStack({
        env: stackEnv(receiver, '30'),
        workerOptions: { sweepEveryMs: 200, sweepGraceMs: 1000 },
      });
    });
    after(async () => {
      await stack.close();
      await receiver.close();
    });

    it('delivers a booking, its move and its cancel once each, in order, signed, with the booking, its host (none without a team) and its attribution', async () => {
      // A slow receiver: the move and the cancel are stored while the booking's event is still on the wire.
      receiver.answer.delayMs = 300;
      const { id, token } = await book(stack, { utm_source: 'newsletter', utm_campaign: 'winter' });
      await change(stack, token, 'reschedule', { timeSlot: slots[16]!.iso });
      await change(stack, token, 'cancel');
      const events = await until(
        async () => (eventsOf(receiver, id).length >= 3 ? eventsOf(receiver, id) : undefined),
        'three events',
      );
      receiver.answer.delayMs = 0;
      // Nothing more comes: one try each.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(eventsOf(receiver, id).map((event) => event.type)).to.deep.equal([
        'booking.created',
        'booking.rescheduled',
        'booking.cancelled',
      ]);
      expect(new Set(events.map((event) => event.id)).size).to.equal(3);
      for (const event of events) expect(validPayload(event), JSON.stringify(validPayload.errors)).to.equal(true);
      const [created, moved, cancelled] = events;
      expect(created!.data.booking).to.include({
        status: 'booked',
        sequence: 0,
        email: 'ada1@analytical-engines.com',
        name: 'Ada Lovelace',
        company: 'Analytical Engines',
        timeSlot: slots[0]!.iso,
      });
      expect(created!.data.booking.meetingUrl).to.match(/^https:\/\//);
      expect(created!.data.attribution).to.deep.equal({ utm_source: 'newsletter', utm_campaign: 'winter' });
      expect(created!.data.host).to.equal(null);
      expect(created!.data).not.to.have.property('previousTimeSlot');
      expect(moved!.data.previousTimeSlot).to.equal(slots[0]!.iso);
      expect(moved!.data.booking).to.include({ timeSlot: slots[16]!.iso, sequence: 1 });
      expect(cancelled!.data.booking).to.include({ status: 'cancelled', sequence: 2 });
      // The headers the specification names; the id header is the event's id.
      const request = receiver.received.find((one) => one.event?.id === events[0]!.id)!;
      expect(request.headers['webhook-id']).to.equal(events[0]!.id);
      expect(request.headers['webhook-timestamp']).to.match(/^\d{10}$/);
      expect(request.headers['webhook-signature']).to.match(/^v1,[A-Za-z0-9+/]+=*$/);
    });

    it('fails verification with a tampered secret or body', () => {
      const request = receiver.received.find((one) => one.event !== null)!;
      expect(() => new Webhook(receiver.secret).verify(request.body, request.headers)).not.to.throw();
      expect(() => new Webhook(newWebhookSecret()).verify(request.body, request.headers)).to.throw(/signature/i);
      expect(() =>
        new Webhook(receiver.secret).verify(request.body.replace('booking.', 'booking-'), request.headers),
      ).to.throw(/signature/i);
    });

    it('loses nothing while the receiver is down, delivers each event once when it is back, and switches nothing off', async () => {
      await receiver.down();
      const { id, token } = await book(stack);
      await change(stack, token, 'reschedule', { timeSlot: slots[15]!.iso });
      const failures = await until(async () => {
        const { body } = await admin<{ deliveries: { attempts: number; lastError: string | null }[] }>(
          stack,
          '/deliveries',
        );
        const tried = body.deliveries.filter((delivery) => delivery.attempts >= 2);
        return tried.length > 0 ? tried : undefined;
      }, 'failed tries while the receiver is down');
      expect(failures[0]!.lastError).to.equal('ECONNREFUSED');
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await receiver.up();
      const events = await until(
        async () => (eventsOf(receiver, id).length >= 2 ? eventsOf(receiver, id) : undefined),
        'both events after the outage',
      );
      await new Promise((resolve) => setTimeout(resolve, 700));
      expect(eventsOf(receiver, id).map((event) => event.type)).to.deep.equal([
        'booking.created',
        'booking.rescheduled',
      ]);
      expect(new Set(events.map((event) => event.id)).size).to.equal(2);
      const { body } = await admin<{ endpoints: EndpointView[] }>(stack, '/endpoints');
      expect(body.endpoints).to.have.length(1);
      expect(body.endpoints[0]).to.include({ state: 'active', source: 'environment', pending: 0, exhausted: 0 });
      const ready = (await (await fetch(`${stack.url}/readyz`)).json()) as { checks: Record<string, string> };
      expect(ready.checks.webhooks).to.equal('ok');
    });

    it('lists, adds and removes endpoints behind the operations token; a new endpoint gets the next events', async () => {
      expect((await fetch(`${stack.url}/api/admin/webhooks/endpoints`)).status).to.equal(401);
      const second = await startReceiver(newWebhookSecret());
      try {
        const added = await admin<EndpointView & { secret: string }>(stack, '/endpoints', {
          method: 'POST',
          body: { url: second.url, secret: second.secret, description: 'CRM' },
        });
        expect(added.status).to.equal(201);
        expect(added.body).to.include({ state: 'active', source: 'admin', secret: second.secret });
        const listed = await admin<{ endpoints: (EndpointView & { secret?: string })[] }>(stack, '/endpoints');
        expect(listed.body.endpoints.map((endpoint) => endpoint.secret)).to.deep.equal([undefined, undefined]);
        const { id } = await book(stack);
        await until(async () => (eventsOf(second, id).length === 1 ? true : undefined), "the new endpoint's event");
        expect((await admin(stack, `/endpoints/${added.body.id}`, { method: 'DELETE' })).status).to.equal(204);
        const environment = listed.body.endpoints.find((endpoint) => endpoint.source === 'environment')!;
        expect((await admin(stack, `/endpoints/${environment.id}`, { method: 'DELETE' })).status).to.equal(409);
        const bad = await admin<{ fields: Record<string, string> }>(stack, '/endpoints', {
          method: 'POST',
          body: { url: second.url, secret: 'not-a-secret' },
        });
        expect(bad.status).to.equal(400);
        expect(bad.body.fields).to.have.property('secret');
      } finally {
        await second.close();
      }
    });
  });

  describe('a receiver that answers 500 for the whole retry window', () => {
    let receiver: Receiver;
    let stack: Stack;
    before(async () => {
      receiver = await startReceiver(newWebhookSecret());
      receiver.answer.status = 500;
      receiver.answer.body = 'database is on fire';
      stack = await startStack({
        env: stackEnv(receiver, '1.5'),
        workerOptions: { sweepEveryMs: 200, sweepGraceMs: 1000 },
      });
    });
    after(async () => {
      await stack.close();
      await receiver.close();
    });

    it('marks it failing (the health endpoint and the admin API say so), keeps its events, and a replay delivers them once it heals', async () => {
      const since = new Date(Date.now() - 1000).toISOString();
      const { id, token } = await book(stack);
      await change(stack, token, 'cancel');
      const failing = await until(async () => {
        const { body } = await admin<{ endpoints: EndpointView[] }>(stack, '/endpoints');
        return body.endpoints[0]?.state === 'failing' ? body.endpoints[0] : undefined;
      }, 'the endpoint marked failing');
      expect(failing).to.include({ failingReason: 'answered 500', pending: 2, delivered: 0 });
      const ready = (await (await fetch(`${stack.url}/readyz`)).json()) as {
        status: string;
        checks: Record<string, string>;
        webhookEndpoints: { id: string; state: string; since: string }[];
      };
      expect(ready.status).to.equal('ready');
      expect(ready.checks.webhooks).to.equal('failing');
      expect(ready.webhookEndpoints).to.have.length(1);
      expect(ready.webhookEndpoints[0]).to.include({ id: failing.id, state: 'failing' });
      // The delivery log: every try, its status, its time and the first bytes of the answer.
      const log = await admin<{
        deliveries: {
          eventType: string;
          attempts: number;
          exhaustedAt: string | null;
          log: { status: number; durationMs: number; responseExcerpt: string }[];
        }[];
      }>(stack, `/deliveries?endpoint=${failing.id}`);
      const created = log.body.deliveries.find((delivery) => delivery.eventType === 'booking.created')!;
      expect(created.attempts).to.be.at.least(3);
      expect(created.exhaustedAt).to.be.a('string');
      expect(created.log[0]).to.include({ status: 500, responseExcerpt: 'database is on fire' });
      expect(created.log[0]!.durationMs).to.be.a('number');
      // The cancel waits behind the booking: never tried while the booking's event is undelivered.
      const cancelled = log.body.deliveries.find((delivery) => delivery.eventType === 'booking.cancelled')!;
      expect(cancelled.attempts).to.equal(0);
      const triedWhileFailing = receiver.received.length;
      receiver.answer.status = 204;
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(receiver.received.length, "a failing endpoint's events wait for a replay").to.equal(triedWhileFailing);

      const replayed = await admin<{ replayed: number }>(stack, '/replay', { method: 'POST', body: { since } });
      expect(replayed).to.deep.equal({ status: 202, body: { replayed: 2 } });
      await until(async () => (eventsOf(receiver, id).length >= 2 ? true : undefined), 'the replayed events');
      expect(eventsOf(receiver, id).map((event) => event.type)).to.deep.equal(['booking.created', 'booking.cancelled']);
      // The receiver has both before the worker has marked the second delivered: wait for the mark.
      const healed = await until(async () => {
        const { body } = await admin<{ endpoints: EndpointView[] }>(stack, '/endpoints');
        return body.endpoints[0]?.delivered === 2 ? body.endpoints[0] : undefined;
      }, 'the replayed deliveries marked');
      expect(healed).to.include({ state: 'active', pending: 0, delivered: 2 });

      // One event again: the same event id, so the receiver can tell it is a repeat.
      const first = eventsOf(receiver, id)[0]!;
      expect((await admin(stack, `/events/${first.id}/replay`, { method: 'POST', body: {} })).status).to.equal(202);
      await until(async () => (eventsOf(receiver, id).length === 3 ? true : undefined), 'the one event replayed');
      expect(eventsOf(receiver, id)[2]!.id).to.equal(first.id);
      expect(
        (await admin(stack, '/events/00000000-0000-4000-8000-000000000000/replay', { method: 'POST', body: {} }))
          .status,
      ).to.equal(404);
    });
  });

  describe('with Redis away from the API', () => {
    it("stores each event with its change, and the worker's sweep delivers them in order", async () => {
      const receiver = await startReceiver(newWebhookSecret());
      const stack = await startStack({
        apiRedisUrl: 'redis://127.0.0.1:1',
        env: stackEnv(receiver, '30'),
        workerOptions: { sweepGraceMs: 0, sweepEveryMs: 300 },
      });
      try {
        const { id, token } = await book(stack);
        await change(stack, token, 'cancel');
        await until(
          async () => (eventsOf(receiver, id).length >= 2 ? true : undefined),
          'both events through the sweep',
        );
        await new Promise((resolve) => setTimeout(resolve, 700));
        expect(eventsOf(receiver, id).map((event) => event.type)).to.deep.equal([
          'booking.created',
          'booking.cancelled',
        ]);
      } finally {
        await stack.close();
        await receiver.close();
      }
    });
  });

  describe('targets on private addresses', () => {
    it('refuses WEBHOOK_URL on http:// or an endpoint on 127.0.0.1 or localhost without WEBHOOK_ALLOW_PRIVATE', async () => {
      expect(() =>
        loadApiConfig({
          BOOKING_LINK_SECRET: TEST_LINK_SECRET,
          WEBHOOK_URL: 'http://127.0.0.1:9/x',
          WEBHOOK_SECRET: newWebhookSecret(),
        }),
      ).to.throw(/https:\/\//);
      expect(() =>
        loadApiConfig({
          BOOKING_LINK_SECRET: TEST_LINK_SECRET,
          WEBHOOK_URL: 'https://crm.example.com/x',
          WEBHOOK_SECRET: 'secret',
        }),
      ).to.throw(/whsec_/);
      // A literal address is judged with the settings; a name, once the program starts (server-shared/webhook-targets.test.ts).
      for (const [url, said] of [
        [
          'https://127.0.0.1:8443/x',
          'WEBHOOK_URL: 127.0.0.1 is a loopback address (allowed only with WEBHOOK_ALLOW_PRIVATE=true), got "https://127.0.0.1:8443/x"',
        ],
        [
          'https://[::127.0.0.1]/x',
          'WEBHOOK_URL: ::7f00:1 is an IPv4-compatible address of 127.0.0.1, a loopback address (allowed only with WEBHOOK_ALLOW_PRIVATE=true), got "https://[::127.0.0.1]/x"',
        ],
        [
          'https://[64:ff9b::a9fe:a9fe]/x',
          'WEBHOOK_URL: 64:ff9b::a9fe:a9fe is a NAT64 address of 169.254.169.254, a link-local address (169.254.0.0/16, where cloud metadata services answer) (allowed only with WEBHOOK_ALLOW_PRIVATE=true), got "https://[64:ff9b::a9fe:a9fe]/x"',
        ],
      ] as const) {
        expect(
          () =>
            loadApiConfig({
              BOOKING_LINK_SECRET: TEST_LINK_SECRET,
              WEBHOOK_URL: url,
              WEBHOOK_SECRET: newWebhookSecret(),
            }),
          url,
        ).to.throw(said);
        expect(
          loadApiConfig({
            BOOKING_LINK_SECRET: TEST_LINK_SECRET,
            WEBHOOK_URL: url,
            WEBHOOK_SECRET: newWebhookSecret(),
            WEBHOOK_ALLOW_PRIVATE: 'true',
          }).webhooks.endpoint?.url,
        ).to.equal(url);
      }
      const app = await startAppUnderTest({ adminToken: ADMIN_TOKEN });
      try {
        for (const url of [
          'https://127.0.0.1:8443/hooks',
          'https://localhost/hooks',
          'https://[::1]/hooks',
          'https://169.254.169.254/latest',
          'http://example.com/hooks',
        ]) {
          const response = await fetch(`${app.url}/api/admin/webhooks/endpoints`, {
            method: 'POST',
            headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
            body: JSON.stringify({ url }),
          });
          expect(response.status, url).to.equal(400);
          expect(((await response.json()) as { fields: Record<string, string> }).fields.url, url).to.be.a('string');
        }
      } finally {
        await app.close();
      }
    });

    it('refuses every address that carries a private IPv4 address inside IPv6 (issue 35), and the deprecated site-local one', async () => {
      const app = await startAppUnderTest({ adminToken: ADMIN_TOKEN });
      try {
        const urls = [
          'https://[::127.0.0.1]/h', // IPv4-compatible
          'https://[::a9fe:a9fe]/h', // IPv4-compatible, the cloud metadata address
          'https://[::ffff:0:127.0.0.1]/h', // SIIT
          'https://[64:ff9b:1::7f00:1]/h', // local-use NAT64
          'https://[64:ff9b:1::a9fe:a9fe]/h', // the metadata address through a local NAT64
          'https://[64:ff9b::7f00:1]/h', // NAT64 to loopback
          'https://[64:ff9b::a9fe:a9fe]/h', // NAT64 to the metadata address
          'https://[fec0::1]/h', // deprecated site-local
          'https://[2001:0:7f00:1::1]/h', // Teredo, server 127.0.0.1
          'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/h', // Teredo, client 127.0.0.1
          'https://[2002:a9fe:a9fe::1]/h', // 6to4 of 169.254.169.254
          'https://[2002:c0a8:101::1]/h', // 6to4 of 192.168.1.1
        ];
        const answers: Record<string, number> = {};
        const reasons: Record<string, string | undefined> = {};
        for (const url of urls) {
          const response = await fetch(`${app.url}/api/admin/webhooks/endpoints`, {
            method: 'POST',
            headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
            body: JSON.stringify({ url }),
          });
          answers[url] = response.status;
          reasons[url] = ((await response.json()) as { fields?: Record<string, string> }).fields?.url;
        }
        // Every answer at once, so that a failure shows each URL let through.
        expect(answers).to.deep.equal(Object.fromEntries(urls.map((url) => [url, 400])));
        for (const url of urls) expect(reasons[url], url).to.be.a('string');
        expect(reasons['https://[::127.0.0.1]/h']).to.equal(
          '::7f00:1 is an IPv4-compatible address of 127.0.0.1, a loopback address (allowed only with WEBHOOK_ALLOW_PRIVATE=true)',
        );
        expect(
          await app.db('webhook_endpoints').where({ from_environment: false }).count({ n: '*' }).first(),
        ).to.deep.equal({ n: '0' });
        // The same forms carrying a public IPv4 address are added.
        for (const url of ['https://[64:ff9b::808:808]/h', 'https://[2002:808:808::1]/h']) {
          const response = await fetch(`${app.url}/api/admin/webhooks/endpoints`, {
            method: 'POST',
            headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
            body: JSON.stringify({ url }),
          });
          expect(response.status, url).to.equal(201);
        }
      } finally {
        await app.close();
      }
    });
  });
});
