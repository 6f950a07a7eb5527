import { expect } from 'chai';
import { api } from './api.js';
import { makeStore } from './store.js';

interface Call {
  method: string;
  url: string;
  credentials: RequestCredentials | undefined;
}

/** Replaces the global fetch for one test; the base query looks fetch up on every call. */
function stubFetch(answer: (call: Call) => Response): { calls: Call[]; restore: () => void } {
  const original = globalThis.fetch;
  const calls: Call[] = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const call = { method: init?.method ?? 'GET', url: String(input), credentials: init?.credentials };
    calls.push(call);
    return answer(call);
  }) as typeof fetch;
  return { calls, restore: () => (globalThis.fetch = original) };
}

const demoRequest = {
  name: 'Ana Lima',
  email: 'ana@northwind-logistics.com',
  company: 'Northwind Logistics',
  timeSlot: '2026-11-24T06:00:00.000Z',
};

describe('the RTK Query api', () => {
  it('refetches the cached /api/demo-requests list after a successful submit', async () => {
    const { calls, restore } = stubFetch(({ method }) =>
      method === 'GET'
        ? new Response('[]', { status: 200 })
        : new Response(JSON.stringify({ id: 'r1', createdAt: 'now', timeSlot: demoRequest.timeSlot }), { status: 201 }),
    );
    const store = makeStore();
    try {
      const subscription = store.dispatch(api.endpoints.read.initiate(['/api', 'demo-requests']));
      await subscription;
      await store.dispatch(api.endpoints.submitDemoRequest.initiate(demoRequest));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(calls.map((call) => `${call.method} ${call.url}`)).to.deep.equal([
        'GET /api/demo-requests',
        'POST /api/demo-request',
        'GET /api/demo-requests',
      ]);
      expect(calls.every((call) => call.credentials === 'include')).to.equal(true);
      subscription.unsubscribe();
    } finally {
      restore();
    }
  });

  it('does not retry a failed submit and reports "{status}: {body}"', async () => {
    const body = JSON.stringify({ error: 'Service unavailable', details: 'Please try again in a minute.' });
    const { calls, restore } = stubFetch(() => new Response(body, { status: 503 }));
    const store = makeStore();
    try {
      const result = await store.dispatch(api.endpoints.submitDemoRequest.initiate(demoRequest));
      expect(calls).to.have.length(1);
      expect(result.error).to.deep.include({ status: 503, message: `503: ${body}` });
    } finally {
      restore();
    }
  });

  it('keeps cached data and never refetches on its own', async () => {
    const { calls, restore } = stubFetch(() => new Response('[{"id":"r1"}]', { status: 200 }));
    const store = makeStore();
    try {
      const first = store.dispatch(api.endpoints.read.initiate(['/api/demo-requests']));
      await first;
      first.unsubscribe();
      await new Promise((resolve) => setTimeout(resolve, 20));
      const again = store.dispatch(api.endpoints.read.initiate(['/api/demo-requests']));
      const { data } = await again;
      expect(data).to.deep.equal([{ id: 'r1' }]);
      expect(calls).to.have.length(1);
      again.unsubscribe();
    } finally {
      restore();
    }
  });
});
