import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPI } from 'openapi-types';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'chai';
import { bookableSlots, nextBookableSlot } from '../test/booking.js';
import { startAppUnderTest, type AppUnderTest } from '../test/app-under-test.js';
import { TEST_LINK_SECRET, silentLogger } from '../test/stack.js';
import { demoRequestSchema, normaliseDemoRequestBody } from '../domain/demo-request.js';
import { bookingToken } from '../server-shared/booking-link.js';
import { createApiRouter } from './app.js';
import { bookingSettings } from './config.js';
import { createDb } from './db.js';
import type { DeliveryQueue } from './delivery-queue.js';
import { rescheduleSchema } from './bookings/schemas.js';
import { emailCheckSchema } from './email-check/schemas.js';
import { OPENAPI_PARTS, OPENAPI_PATH, openApiDocument } from './openapi.js';
import { toOpenApiSchema, type OpenApiPart } from './openapi-parts.js';
import { WEBHOOK_EVENT_TYPES, webhookEventSchema } from '../server-shared/webhooks.js';
import { newEndpointSchema, replaySchema } from './webhooks/schemas.js';
import { funnelBeaconSchema } from './funnel/schemas.js';
import { signInSchema } from './admin/sessions.js';
import { markSchema } from './admin/schemas.js';

type Document = {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }> }>
  >;
  components: { schemas: Record<string, object> };
};

const document = openApiDocument() as unknown as Document;
const ADMIN_TOKEN = 'an-operations-token-of-32-characters-at-least';

/** A validator for one documented answer: its status's schema, the components resolved as OpenAPI 3.1 reads them. */
function answerValidator(path: string, method: string, status: number) {
  const ajv = new Ajv2020({ strict: false });
  addFormats.default(ajv);
  ajv.addSchema({ $id: 'doc', components: document.components });
  const schema = document.paths[path]?.[method]?.responses[String(status)]?.content?.['application/json']?.schema;
  if (!schema) throw new Error(`${method.toUpperCase()} ${path} documents no JSON answer for ${status}`);
  return ajv.compile(schema.$ref ? { $ref: `doc${schema.$ref}` } : schema);
}

function expectDocumented(path: string, method: string, status: number, body: unknown): void {
  const validate = answerValidator(path, method, status);
  expect(validate(body), `${method.toUpperCase()} ${path} ${status}: ${JSON.stringify(validate.errors)}`).to.equal(
    true,
  );
}

describe('OpenAPI 3.1 document', () => {
  it('is a valid OpenAPI 3.1 document, by a validator that refuses a broken one', async () => {
    // SwaggerParser.validate resolves the $refs in the object it is given: each check gets its own copy, as served.
    const served = (text: string) => JSON.parse(text) as OpenAPI.Document;
    const text = JSON.stringify(openApiDocument());
    expect(await SwaggerParser.validate(served(text))).to.include({ openapi: '3.1.0' });
    const dangling = text.replace('"#/components/schemas/DaySlots"', '"#/components/schemas/NoSuchSchema"');
    expect(dangling).to.not.equal(text);
    const refusal = await SwaggerParser.validate(served(dangling)).then(
      () => 'accepted',
      (err: unknown) => String(err),
    );
    expect(refusal).to.match(/NoSuchSchema/);
  });

  it('is assembled from the parts of the routes, each path and schema named once', () => {
    const described = (part: OpenApiPart) => [
      ...Object.keys(part.paths ?? {}),
      ...Object.keys(part.components?.schemas ?? {}),
    ];
    expect(Object.keys(document.paths).length + Object.keys(document.components.schemas).length).to.equal(
      OPENAPI_PARTS.flatMap(described).length,
    );
    const slots = OPENAPI_PARTS.find((part) => part.paths?.['/api/slots'])!;
    expect(() => openApiDocument([...OPENAPI_PARTS, { components: slots.components }])).to.throw(/DaySlots twice/);
    expect(() => openApiDocument([...OPENAPI_PARTS, { paths: slots.paths }])).to.throw(/\/api\/slots twice/);
  });

  it('describes each request body with the very schema Ajv validates it with', () => {
    expect(document.components.schemas.DemoRequest).to.deep.equal(toOpenApiSchema(demoRequestSchema));
    expect(document.components.schemas.EmailCheck).to.deep.equal(toOpenApiSchema(emailCheckSchema));
    expect(document.components.schemas.Reschedule).to.deep.equal(toOpenApiSchema(rescheduleSchema));
    // And the two judge bodies alike: the API's validator and one compiled from the document.
    const api = new Ajv({ allErrors: true }).compile(demoRequestSchema);
    const fromDocument = new Ajv2020({ strict: false }).compile(document.components.schemas.DemoRequest as object);
    const slot = '2026-11-24T09:00:00.000Z';
    const bodies = [
      { name: 'Ada', email: 'ada@analytical.com', company: 'Engines', timeSlot: slot },
      { name: 'Ada', email: 'ada@analytical.com', company: 'Engines', timeSlot: slot, phone: '+44 20', message: 'Hi' },
      { name: '', email: 'ada@analytical.com', company: 'Engines', timeSlot: slot },
      { name: 'Ada', email: 'ada@analytical.com', company: 'Engines' },
      { name: 'Ada', email: 'ada@analytical.com', company: 'Engines', timeSlot: slot, extra: 1 },
      { name: 'x'.repeat(201), email: 'ada@analytical.com', company: 'Engines', timeSlot: slot },
      { name: 42, email: 'ada@analytical.com', company: 'Engines', timeSlot: slot },
      { name: 'Ada', email: 'ada@analytical.com', company: 'Engines', timeSlot: slot, message: 'm'.repeat(5001) },
    ].map(normaliseDemoRequestBody);
    const verdicts = bodies.map((body) => [api(structuredClone(body)), fromDocument(structuredClone(body))]);
    expect(verdicts.map(([a, b]) => a === b)).to.deep.equal(bodies.map(() => true));
    expect(verdicts.filter(([a]) => a)).to.have.length(2);
  });

  it('describes every webhook event (the webhooks section) with the payload schema the receivers are sent, and the admin bodies with the schemas Ajv validates', () => {
    const webhooks = (
      openApiDocument() as {
        webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: { $ref: string } }> } } }>;
      }
    ).webhooks;
    expect(Object.keys(webhooks)).to.deep.equal([...WEBHOOK_EVENT_TYPES]);
    for (const type of WEBHOOK_EVENT_TYPES) {
      const ref = webhooks[type]!.post.requestBody.content['application/json']!.schema.$ref;
      expect(document.components.schemas[ref.split('/').pop()!], type).to.deep.equal(webhookEventSchema(type));
    }
    expect(document.components.schemas.NewWebhookEndpoint).to.deep.equal(toOpenApiSchema(newEndpointSchema));
    expect(document.components.schemas.WebhookReplay).to.deep.equal(toOpenApiSchema(replaySchema));
    expect(document.components.schemas.FunnelBeacon).to.deep.equal(toOpenApiSchema(funnelBeaconSchema));
    expect(document.components.schemas.SignIn).to.deep.equal(toOpenApiSchema(signInSchema));
    expect(document.components.schemas.AttendanceMark).to.deep.equal(toOpenApiSchema(markSchema));
  });

  it('documents every route the API answers under /api (and the texts’ short link), and nothing it does not', () => {
    const queue: DeliveryQueue = { enqueue: async () => {}, isReachable: async () => true, close: async () => {} };
    const db = createDb('postgres://127.0.0.1:1/never-connected', { min: 0, max: 1 }, silentLogger);
    const router = createApiRouter({
      db,
      queue,
      logger: silentLogger,
      timeZone: 'Europe/Berlin',
      webRoot: '/nonexistent',
      publicUrl: 'https://converge.test',
      adminToken: ADMIN_TOKEN,
      linkSecret: TEST_LINK_SECRET,
      mailFrom: 'demos@converge.test',
      booking: bookingSettings(),
    });
    const served = router.stack
      .filter((layer) => typeof layer.path === 'string' && /^\/(?:api|m)\//.test(layer.path))
      .flatMap((layer) =>
        layer.methods.filter((method) => method !== 'HEAD').map((method) => `${method} ${layer.path}`),
      )
      .sort();
    const documented = Object.entries(document.paths)
      .flatMap(([path, operations]) =>
        Object.keys(operations).map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
      )
      .sort();
    expect(documented).to.deep.equal(served);
    void db.destroy();
  });

  describe('the answers the API really gives match it', () => {
    let app: AppUnderTest;
    before(async () => {
      app = await startAppUnderTest({ adminToken: ADMIN_TOKEN });
    });
    after(async () => {
      await app.close();
    });

    it('POST /api/demo-request: 201, 400, 409, 415', async () => {
      const slot = nextBookableSlot();
      const booking = {
        name: 'Ada Lovelace',
        email: 'ada@analytical-engines.com',
        company: 'Analytical Engines',
        timeSlot: slot.iso,
      };
      const created = await app.post('/api/demo-request', booking);
      expect(created.status).to.equal(201);
      expectDocumented('/api/demo-request', 'post', 201, created.body);
      const refused = await app.post('/api/demo-request', { ...booking, name: '' });
      expect(refused.status).to.equal(400);
      expectDocumented('/api/demo-request', 'post', 400, refused.body);
      const taken = await app.post('/api/demo-request', { ...booking, email: 'charles@analytical-engines.com' });
      expect(taken.status).to.equal(409);
      expectDocumented('/api/demo-request', 'post', 409, taken.body);
      const wrongType = await app.post('/api/demo-request', 'name=Ada', { 'Content-Type': 'text/plain' });
      expect(wrongType.status).to.equal(415);
      expectDocumented('/api/demo-request', 'post', 415, wrongType.body);
    });

    it('POST /api/validate-email: 200 with and without a suggestion, 400', async () => {
      for (const email of [
        'ada@analytical-engines.com',
        'ada@analytical-engines.con',
        'ada@gmial.com',
        'not an address',
      ]) {
        const checked = await app.post('/api/validate-email', { email });
        expect(checked.status).to.equal(200);
        expectDocumented('/api/validate-email', 'post', 200, checked.body);
      }
      const refused = await app.post('/api/validate-email', {});
      expect(refused.status).to.equal(400);
      expectDocumented('/api/validate-email', 'post', 400, refused.body);
    });

    it('the webhook admin API: endpoints 200 and 400, the delivery log 200, replays 202, removal 204, 401 without the token', async () => {
      const admin = (path: string, method = 'GET', body?: unknown) =>
        fetch(`${app.url}/api/admin/webhooks${path}`, {
          method,
          headers: {
            Authorization: `Bearer ${ADMIN_TOKEN}`,
            ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
      // An endpoint on a public name (this app allows no private address), then a booking: its event's delivery.
      const [endpoint] = (await app
        .db('webhook_endpoints')
        .insert({ url: 'https://crm.example.com/hooks', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' })
        .returning('id')) as { id: string }[];
      const booked = await app.post('/api/demo-request', {
        name: 'Ada',
        email: 'ada@analytical-engines.com',
        company: 'Engines',
        timeSlot: bookableSlots(17)[9]!.iso,
      });
      expect(booked.status).to.equal(201);
      const [delivery] = (await app.db('deliveries').where({ endpoint_id: endpoint!.id }).select('id', 'event_id')) as {
        id: string;
        event_id: string;
      }[];
      await app
        .db('webhook_attempts')
        .insert({ delivery_id: delivery!.id, status: 503, duration_ms: 12, response_excerpt: 'busy' });
      const endpoints = await admin('/endpoints');
      expect(endpoints.status).to.equal(200);
      expectDocumented('/api/admin/webhooks/endpoints', 'get', 200, await endpoints.json());
      const deliveries = await admin(`/deliveries?endpoint=${endpoint!.id}`);
      const log = (await deliveries.json()) as { deliveries: { log: unknown[] }[] };
      expect(log.deliveries[0]!.log).to.have.length(1);
      expectDocumented('/api/admin/webhooks/deliveries', 'get', 200, log);
      const refused = await admin('/endpoints', 'POST', { url: 'https://127.0.0.1/hooks' });
      expect(refused.status).to.equal(400);
      expectDocumented('/api/admin/webhooks/endpoints', 'post', 400, await refused.json());
      const replayed = await admin(`/events/${delivery!.event_id}/replay`, 'POST', {});
      expect(replayed.status).to.equal(202);
      expectDocumented('/api/admin/webhooks/events/{id}/replay', 'post', 202, await replayed.json());
      const since = await admin('/replay', 'POST', { since: '2020-01-01T00:00:00Z', endpointId: endpoint!.id });
      expect(since.status).to.equal(202);
      expectDocumented('/api/admin/webhooks/replay', 'post', 202, await since.json());
      expect((await admin(`/endpoints/${endpoint!.id}`, 'DELETE')).status).to.equal(204);
      const anonymous = await fetch(`${app.url}/api/admin/webhooks/endpoints`);
      expect(anonymous.status).to.equal(401);
      expectDocumented('/api/admin/webhooks/endpoints', 'get', 401, await anonymous.json());
    });

    it('POST /api/funnel: 204 and 400; GET /api/admin/funnel: 200, 400 and 401', async () => {
      const beacon = (body: string) =>
        fetch(`${app.url}/api/funnel`, {
          method: 'POST',
          headers: {
            'Content-Type': 'text/plain;charset=UTF-8',
            'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0.0.0 Safari/537.36',
          },
          body,
        });
      expect((await beacon(JSON.stringify({ step: 'booked', source: 'newsletter' }))).status).to.equal(204);
      const refused = await beacon(JSON.stringify({ step: 'paid' }));
      expect(refused.status).to.equal(400);
      expectDocumented('/api/funnel', 'post', 400, await refused.json());
      const day = String(
        (await app.db('funnel_daily_counts').first(app.db.raw("to_char(day, 'YYYY-MM-DD') AS day")))?.day,
      );
      // The bookings so far (slots in the coming weeks), marked attended for this read, unmarked again after it.
      const marked = await app
        .db('bookings')
        .update({ attendance: 'attended', attendance_marked_at: new Date() })
        .where({ status: 'booked' })
        .returning('id');
      const read = (query: string, headers: Record<string, string> = { Authorization: `Bearer ${ADMIN_TOKEN}` }) =>
        fetch(`${app.url}/api/admin/funnel${query}`, { headers });
      const report = await read(
        `?from=${day}&to=${new Date(Date.parse(day) + 60 * 86_400_000).toISOString().slice(0, 10)}`,
      );
      expect(report.status).to.equal(200);
      const body = (await report.json()) as { days: unknown[]; attendance: unknown[] };
      await app
        .db('bookings')
        .update({ attendance: null, attendance_marked_at: null })
        .whereIn(
          'id',
          marked.map((row: { id: string }) => row.id),
        );
      expect([body.days.length, body.attendance.length]).to.deep.equal([1, 1]);
      expectDocumented('/api/admin/funnel', 'get', 200, body);
      const badRange = await read('?from=2026-12-02&to=2026-12-01');
      expect(badRange.status).to.equal(400);
      expectDocumented('/api/admin/funnel', 'get', 400, await badRange.json());
      const anonymous = await read('?from=2026-12-01&to=2026-12-01', {});
      expect(anonymous.status).to.equal(401);
      expectDocumented('/api/admin/funnel', 'get', 401, await anonymous.json());
    });

    it('GET /api/slots: 200 and 400; GET /api/demo-requests: 200 and 401; a booking through its link: view, reschedule, cancel', async () => {
      const day = nextBookableSlot().iso.slice(0, 10);
      const slots = await fetch(`${app.url}/api/slots?date=${day}`);
      expect(slots.status).to.equal(200);
      expectDocumented('/api/slots', 'get', 200, await slots.json());
      const badDay = await fetch(`${app.url}/api/slots?date=tomorrow`);
      expect(badDay.status).to.equal(400);
      expectDocumented('/api/slots', 'get', 400, await badDay.json());

      const list = await fetch(`${app.url}/api/demo-requests`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
      expect(list.status).to.equal(200);
      const listed = (await list.json()) as { demoRequests: unknown[] };
      expect(listed.demoRequests.length).to.be.greaterThan(0);
      expectDocumented('/api/demo-requests', 'get', 200, listed);
      const [first] = listed.demoRequests as { id: string }[];
      const booking = await fetch(`${app.url}/api/bookings/${bookingToken(first?.id ?? '', TEST_LINK_SECRET)}`);
      expect(booking.status).to.equal(200);
      expectDocumented('/api/bookings/{token}', 'get', 200, await booking.json());
      const noBooking = await fetch(`${app.url}/api/bookings/${'A'.repeat(43)}`);
      expect(noBooking.status).to.equal(404);
      expectDocumented('/api/bookings/{token}', 'get', 404, await noBooking.json());
      const unauthorised = await fetch(`${app.url}/api/demo-requests`);
      expect(unauthorised.status).to.equal(401);
      expectDocumented('/api/demo-requests', 'get', 401, await unauthorised.json());

      const token = bookingToken(first?.id ?? '', TEST_LINK_SECRET);
      const [, later] = bookableSlots(2);
      const moved = await app.post(`/api/bookings/${token}/reschedule`, { timeSlot: later!.iso });
      expect(moved.status).to.equal(200);
      expectDocumented('/api/bookings/{token}/reschedule', 'post', 200, moved.body);
      const badSlot = await app.post(`/api/bookings/${token}/reschedule`, { timeSlot: 'soon' });
      expect(badSlot.status).to.equal(400);
      expectDocumented('/api/bookings/{token}/reschedule', 'post', 400, badSlot.body);
      const cancelled = await app.post(`/api/bookings/${token}/cancel`, {});
      expect(cancelled.status).to.equal(200);
      expectDocumented('/api/bookings/{token}/cancel', 'post', 200, cancelled.body);
      const notMovable = await app.post(`/api/bookings/${token}/reschedule`, { timeSlot: later!.iso });
      expect(notMovable.status).to.equal(409);
      expectDocumented('/api/bookings/{token}/reschedule', 'post', 409, notMovable.body);
      const noneToCancel = await app.post(`/api/bookings/${'A'.repeat(43)}/cancel`, {});
      expect(noneToCancel.status).to.equal(404);
      expectDocumented('/api/bookings/{token}/cancel', 'post', 404, noneToCancel.body);
    });

    it('GET /api/openapi.json: the document, which a real OpenAPI validator accepts', async () => {
      const served = await fetch(`${app.url}${OPENAPI_PATH}`);
      expect(served.status).to.equal(200);
      expect(served.headers.get('content-type')).to.match(/^application\/json/);
      const body = (await served.json()) as OpenAPI.Document;
      expect(body).to.deep.equal(openApiDocument());
      const validated = await SwaggerParser.validate(body);
      expect(Object.keys(validated.paths ?? {})).to.have.length(Object.keys(document.paths).length);
    });

    it('the sales page API: sign-in 201, its session 200, a booking with its history 200, a mark 409 and 403, a bad filter 400', async () => {
      const signedIn = await app.post('/api/admin/session', { token: ADMIN_TOKEN });
      expect(signedIn.status).to.equal(201);
      expectDocumented('/api/admin/session', 'post', 201, signedIn.body);
      const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!;
      const session = await fetch(`${app.url}/api/admin/session`, { headers: { Cookie: cookie } });
      expectDocumented('/api/admin/session', 'get', 200, await session.json());
      const [booking] = (await app.db('bookings').select('id').limit(1)) as { id: string }[];
      const detail = await fetch(`${app.url}/api/admin/bookings/${booking!.id}`, { headers: { Cookie: cookie } });
      expect(detail.status).to.equal(200);
      expectDocumented('/api/admin/bookings/{id}', 'get', 200, await detail.json());
      const mark = (headers: Record<string, string>) =>
        app.post(
          `/api/admin/bookings/${booking!.id}/attendance`,
          { attendance: 'attended' },
          { Cookie: cookie, ...headers },
        );
      const early = await mark({ 'X-CSRF-Token': String(signedIn.body.csrfToken) });
      expect(early.status).to.equal(409);
      expectDocumented('/api/admin/bookings/{id}/attendance', 'post', 409, early.body);
      const forged = await mark({});
      expect(forged.status).to.equal(403);
      expectDocumented('/api/admin/bookings/{id}/attendance', 'post', 403, forged.body);
      const badFilter = await fetch(`${app.url}/api/demo-requests?from=someday`, { headers: { Cookie: cookie } });
      expect(badFilter.status).to.equal(400);
      expectDocumented('/api/demo-requests', 'get', 400, await badFilter.json());
    });
  });
});
