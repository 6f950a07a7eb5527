import { expect } from 'chai';
import { stubFetch, type FetchCall } from '../test/fetch-stub.js';
import { api } from './api.js';
import { makeStore } from './store.js';

const submission = {
  body: {
    name: 'Ana Lima',
    email: 'ana@northwind-logistics.com',
    company: 'Northwind Logistics',
    timeSlot: '2026-11-24T06:00:00.000Z',
  },
  idempotencyKey: 'b3f1c2d4-0000-4000-8000-000000000001',
};

/** Runs `step` against a fresh store whose fetch answers with `answer`. */
async function withFetch<T>(
  answer: (call: FetchCall) => Response | Promise<Response>,
  step: (store: ReturnType<typeof makeStore>) => Promise<T>,
): Promise<{ result: T; calls: FetchCall[] }> {
  const { calls, restore } = stubFetch(answer);
  try {
    return { result: await step(makeStore()), calls };
  } finally {
    restore();
  }
}

const readDay = (store: ReturnType<typeof makeStore>) =>
  store.dispatch(api.endpoints.daySlots.initiate('2026-11-24', { subscribe: false }));

describe('the base query, through the endpoints', () => {
  it('formats a non-ok answer as "{status}: {body text}" and keeps the parsed body', async () => {
    const body = { error: 'Invalid request', details: 'Name is required.', fields: { name: 'Name is required.' } };
    const { result } = await withFetch(
      () => new Response(JSON.stringify(body), { status: 400 }),
      (store) => store.dispatch(api.endpoints.submitDemoRequest.initiate(submission)),
    );
    expect(result.error).to.deep.equal({ status: 400, message: `400: ${JSON.stringify(body)}`, data: body });
  });

  it('uses the status text when the body is empty, and leaves out a body that is not JSON', async () => {
    const empty = await withFetch(
      () => new Response(null, { status: 503, statusText: 'Service Unavailable' }),
      readDay,
    );
    expect(empty.result.error).to.deep.equal({ status: 503, message: '503: Service Unavailable', data: undefined });
    const html = await withFetch(
      () => new Response('<html>Bad gateway</html>', { status: 502 }),
      (store) => store.dispatch(api.endpoints.submitDemoRequest.initiate(submission)),
    );
    expect(html.result.error).to.deep.equal({ status: 502, message: '502: <html>Bad gateway</html>', data: undefined });
  });

  it('sends a body as JSON with a JSON content type, and always includes credentials', async () => {
    const { result, calls } = await withFetch(
      () =>
        new Response('{"isValid":true,"isDisposable":false,"isFreeProvider":false,"isRoleEmail":false}', {
          status: 200,
        }),
      (store) => store.dispatch(api.endpoints.validateEmail.initiate({ email: 'ana@northwind-logistics.com' })),
    );
    expect(result.data).to.deep.equal({
      isValid: true,
      isDisposable: false,
      isFreeProvider: false,
      isRoleEmail: false,
    });
    expect(calls).to.deep.equal([
      {
        method: 'POST',
        url: '/api/validate-email',
        credentials: 'include',
        headers: { 'Content-Type': 'application/json' },
        body: '{"email":"ana@northwind-logistics.com"}',
      },
    ]);
  });

  it('sends a GET without a body or a content type, credentials included', async () => {
    const { calls } = await withFetch(
      () => new Response('{"date":"2026-11-24","timeZone":"Europe/Berlin","slots":[]}', { status: 200 }),
      (store) => store.dispatch(api.endpoints.daySlots.initiate('2026-11-24', { subscribe: false })),
    );
    expect(calls).to.deep.equal([
      { method: 'GET', url: '/api/slots?date=2026-11-24', credentials: 'include', headers: {}, body: undefined },
    ]);
  });

  it('fails on 401 as on any refusal', async () => {
    const { result } = await withFetch(() => new Response('{"error":"Unauthorized"}', { status: 401 }), readDay);
    expect(result.error).to.deep.equal({
      status: 401,
      message: '401: {"error":"Unauthorized"}',
      data: { error: 'Unauthorized' },
    });
  });

  it('reports a network failure without a status', async () => {
    const { result } = await withFetch(
      () => Promise.reject(new TypeError('Failed to fetch')),
      (store) => store.dispatch(api.endpoints.validateEmail.initiate({ email: 'ana@northwind-logistics.com' })),
    );
    expect(result.error).to.deep.equal({ status: 'FETCH_ERROR', message: 'Failed to fetch' });
  });
});
