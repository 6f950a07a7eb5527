import type { BaseQueryApi } from '@reduxjs/toolkit/query';
import { expect } from 'chai';
import nock from 'nock';
import { createBaseQuery, httpErrorMessage, joinQueryKey, type ApiArgs } from './api-base-query.js';

const ORIGIN = 'http://api.test';

function queryApi(): BaseQueryApi {
  return {
    signal: new AbortController().signal,
    abort: () => undefined,
    dispatch: () => undefined,
    getState: () => ({}),
    extra: undefined,
    endpoint: 'test',
    type: 'query',
  };
}

async function run(args: ApiArgs, options: Parameters<typeof createBaseQuery>[0] = {}) {
  return createBaseQuery({ baseUrl: ORIGIN, ...options })(args, queryApi(), {});
}

describe('data layer base query', () => {
  before(() => nock.disableNetConnect());
  afterEach(() => nock.cleanAll());
  after(() => nock.enableNetConnect());

  it('formats a non-ok answer as "{status}: {body text}"', async () => {
    const body = { error: 'Invalid request', details: 'Name is required.', fields: { name: 'Name is required.' } };
    nock(ORIGIN).post('/api/demo-request').reply(400, body);
    const result = await run({ url: '/api/demo-request', method: 'POST', body: { name: '' } });
    expect(result.error).to.deep.equal({ status: 400, message: `400: ${JSON.stringify(body)}`, data: body });
  });

  it('uses the status text when the body is empty', async () => {
    const fetchFn: typeof fetch = async () => new Response(null, { status: 503, statusText: 'Service Unavailable' });
    const result = await run(['/api', 'demo-requests'], { fetchFn });
    expect(result.error?.message).to.equal('503: Service Unavailable');
    expect(httpErrorMessage(404, '', 'Not Found')).to.equal('404: Not Found');
  });

  it('sends JSON with a JSON content type and always includes credentials', async () => {
    let seen: RequestInit | undefined;
    let seenUrl = '';
    const fetchFn: typeof fetch = async (url, init) => {
      seenUrl = String(url);
      seen = init;
      return new Response(JSON.stringify({ id: 'a1' }), { status: 201 });
    };
    const result = await run({ url: '/api/demo-request', method: 'POST', body: { name: 'Ana' } }, { fetchFn });
    expect(result.data).to.deep.equal({ id: 'a1' });
    expect(seenUrl).to.equal(`${ORIGIN}/api/demo-request`);
    expect(seen?.method).to.equal('POST');
    expect(seen?.credentials).to.equal('include');
    expect(seen?.headers).to.deep.equal({ 'Content-Type': 'application/json' });
    expect(seen?.body).to.equal('{"name":"Ana"}');
  });

  it("adds a request's own headers to the JSON content type", async () => {
    let seen: RequestInit | undefined;
    const fetchFn: typeof fetch = async (_url, init) => {
      seen = init;
      return new Response('{}', { status: 201 });
    };
    await run({ url: '/api/demo-request', method: 'POST', body: { name: 'Ana' }, headers: { 'Idempotency-Key': 'k-12345678' } }, { fetchFn });
    expect(seen?.headers).to.deep.equal({ 'Content-Type': 'application/json', 'Idempotency-Key': 'k-12345678' });
  });

  it('reads a query key with a GET of its segments joined by "/"', async () => {
    expect(joinQueryKey(['/api', 'demo-requests', 42])).to.equal('/api/demo-requests/42');
    nock(ORIGIN).get('/api/demo-requests').reply(200, [{ id: 'x' }]);
    const result = await run(['/api', 'demo-requests']);
    expect(result.data).to.deep.equal([{ id: 'x' }]);
  });

  it('fails on 401 by default', async () => {
    nock(ORIGIN).get('/api/me').reply(401, { error: 'Unauthorized' });
    const result = await run(['/api/me']);
    expect(result.error?.status).to.equal(401);
    expect(result.error?.message).to.equal('401: {"error":"Unauthorized"}');
  });

  it('returns null on 401 when asked to', async () => {
    nock(ORIGIN).get('/api/me').reply(401, { error: 'Unauthorized' });
    const result = await run({ queryKey: ['/api/me'], on401: 'returnNull' });
    expect(result).to.deep.equal({ data: null });
    nock(ORIGIN).get('/api/me').reply(401, 'nope');
    const byDefault = await run(['/api/me'], { on401: 'returnNull' });
    expect(byDefault).to.deep.equal({ data: null });
  });

  it('reports a network failure without a status', async () => {
    const fetchFn: typeof fetch = async () => {
      throw new TypeError('Failed to fetch');
    };
    const result = await run({ url: '/api/validate-email', method: 'POST', body: { email: 'a@b.co' } }, { fetchFn });
    expect(result.error).to.deep.equal({ status: 'FETCH_ERROR', message: 'Failed to fetch' });
  });
});
