import { expect } from 'chai';
import { stubFetch } from '../test/fetch-stub.js';
import { api } from './api.js';
import { makeStore } from './store.js';

const demoRequest = {
  name: 'Ana Lima',
  email: 'ana@northwind-logistics.com',
  company: 'Northwind Logistics',
  timeSlot: '2026-11-24T06:00:00.000Z',
};
const submission = { body: demoRequest, idempotencyKey: 'b3f1c2d4-0000-4000-8000-000000000001' };

const daySlots = (available: boolean) =>
  JSON.stringify({
    date: '2026-11-24',
    timeZone: 'Europe/Berlin',
    slots: [{ start: demoRequest.timeSlot, available }],
  });

/** Lets the middleware's refetches (which it starts without awaiting) reach fetch. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('the RTK Query api', () => {
  it('does not retry a failed submit and reports "{status}: {body}"', async () => {
    const body = JSON.stringify({ error: 'Service unavailable', details: 'Please try again in a minute.' });
    const { calls, restore } = stubFetch(() => new Response(body, { status: 503 }));
    const store = makeStore();
    try {
      const result = await store.dispatch(api.endpoints.submitDemoRequest.initiate(submission));
      expect(calls).to.have.length(1);
      expect(result.error).to.deep.include({ status: 503, message: `503: ${body}` });
    } finally {
      restore();
    }
  });

  it('keeps cached data and never refetches on its own', async () => {
    const { calls, restore } = stubFetch(() => new Response(daySlots(true), { status: 200 }));
    const store = makeStore();
    try {
      const first = store.dispatch(api.endpoints.daySlots.initiate('2026-11-24'));
      await first;
      first.unsubscribe();
      await new Promise((resolve) => setTimeout(resolve, 20));
      const again = store.dispatch(api.endpoints.daySlots.initiate('2026-11-24'));
      const { data } = await again;
      expect(data).to.deep.equal(JSON.parse(daySlots(true)));
      expect(calls).to.have.length(1);
      again.unsubscribe();
    } finally {
      restore();
    }
  });

  it('sends the submission with its Idempotency-Key, and the honeypot field when one is given', async () => {
    const { calls, restore } = stubFetch(() => new Response('{"id":"r1"}', { status: 201 }));
    const store = makeStore();
    try {
      await store.dispatch(
        api.endpoints.submitDemoRequest.initiate({ ...submission, body: { ...demoRequest, website: 'spam.example' } }),
      );
      expect(calls[0]?.headers).to.deep.equal({
        'Content-Type': 'application/json',
        'Idempotency-Key': submission.idempotencyKey,
      });
      expect(JSON.parse(calls[0]?.body ?? '')).to.deep.equal({ ...demoRequest, website: 'spam.example' });
    } finally {
      restore();
    }
  });

  it("reads a day's slots, and reads them again after a booking or a 409, not after other refusals", async () => {
    let submitStatus = 201;
    let available = true;
    const { calls, restore } = stubFetch(({ method }) =>
      method === 'GET'
        ? new Response(daySlots(available), { status: 200 })
        : new Response(submitStatus === 201 ? '{"id":"r1"}' : '{"error":"x","details":"y"}', { status: submitStatus }),
    );
    const store = makeStore();
    const gets = () => calls.filter((call) => call.method === 'GET').map((call) => call.url);
    try {
      const subscription = store.dispatch(api.endpoints.daySlots.initiate('2026-11-24'));
      expect((await subscription).data?.slots).to.deep.equal([{ start: demoRequest.timeSlot, available: true }]);
      expect(gets()).to.deep.equal(['/api/slots?date=2026-11-24']);

      submitStatus = 400;
      await store.dispatch(api.endpoints.submitDemoRequest.initiate(submission));
      await settle();
      expect(gets(), 'after a 400').to.have.length(1);

      submitStatus = 409;
      available = false;
      await store.dispatch(api.endpoints.submitDemoRequest.initiate(submission));
      await settle();
      expect(gets(), 'after a 409').to.have.length(2);
      expect(api.endpoints.daySlots.select('2026-11-24')(store.getState()).data?.slots[0]?.available).to.equal(false);

      submitStatus = 201;
      await store.dispatch(api.endpoints.submitDemoRequest.initiate(submission));
      await settle();
      expect(gets(), 'after a booking').to.have.length(3);
      subscription.unsubscribe();
    } finally {
      restore();
    }
  });

  describe('a booking reached through its link', () => {
    const token = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-AbCdE';
    const booked = {
      timeSlot: '2026-11-24T13:00:00.000Z',
      status: 'booked',
      name: 'Ana Lima',
      company: 'Northwind Logistics',
    };
    const moved = { ...booked, timeSlot: '2026-11-25T09:00:00.000Z' };

    /** The booking read once, and the day's slots, both kept by subscriptions as the page keeps them. */
    async function readBoth(store: ReturnType<typeof makeStore>) {
      const booking = store.dispatch(api.endpoints.booking.initiate(token));
      const slots = store.dispatch(api.endpoints.daySlots.initiate('2026-11-24'));
      await Promise.all([booking, slots]);
      return () => {
        booking.unsubscribe();
        slots.unsubscribe();
      };
    }

    it('reads it at /api/bookings/{token}, the token escaped', async () => {
      const { calls, restore } = stubFetch(() => new Response(JSON.stringify(booked), { status: 200 }));
      const store = makeStore();
      try {
        expect((await store.dispatch(api.endpoints.booking.initiate(token))).data).to.deep.equal(booked);
        await store.dispatch(api.endpoints.booking.initiate('a/b?c'));
        expect(calls.map((call) => `${call.method} ${call.url}`)).to.deep.equal([
          `GET /api/bookings/${token}`,
          'GET /api/bookings/a%2Fb%3Fc',
        ]);
      } finally {
        restore();
      }
    });

    it('reschedules with { timeSlot }, shows the answer as the booking without reading it again, and reads the slots again', async () => {
      const { calls, restore } = stubFetch(({ method, url }) => {
        if (url.startsWith('/api/slots')) return new Response(daySlots(true), { status: 200 });
        return new Response(JSON.stringify(method === 'POST' ? moved : booked), { status: 200 });
      });
      const store = makeStore();
      try {
        const unsubscribe = await readBoth(store);
        const result = await store.dispatch(
          api.endpoints.rescheduleBooking.initiate({ token, timeSlot: moved.timeSlot }),
        );
        await settle();
        expect(result.data).to.deep.equal(moved);
        expect(api.endpoints.booking.select(token)(store.getState()).data).to.deep.equal(moved);
        expect(calls.map((call) => `${call.method} ${call.url}`)).to.deep.equal([
          `GET /api/bookings/${token}`,
          'GET /api/slots?date=2026-11-24',
          `POST /api/bookings/${token}/reschedule`,
          'GET /api/slots?date=2026-11-24',
        ]);
        expect(calls[2]?.headers).to.deep.equal({ 'Content-Type': 'application/json' });
        expect(JSON.parse(calls[2]?.body ?? '')).to.deep.equal({ timeSlot: moved.timeSlot });
        unsubscribe();
      } finally {
        restore();
      }
    });

    it('cancels with an empty JSON body and shows the booking cancelled', async () => {
      const cancelled = { ...booked, status: 'cancelled' };
      const { calls, restore } = stubFetch(({ method, url }) => {
        if (url.startsWith('/api/slots')) return new Response(daySlots(true), { status: 200 });
        return new Response(JSON.stringify(method === 'POST' ? cancelled : booked), { status: 200 });
      });
      const store = makeStore();
      try {
        const unsubscribe = await readBoth(store);
        await store.dispatch(api.endpoints.cancelBooking.initiate({ token }));
        await settle();
        expect(api.endpoints.booking.select(token)(store.getState()).data).to.deep.equal(cancelled);
        const post = calls.find((call) => call.method === 'POST');
        expect(post?.url).to.equal(`/api/bookings/${token}/cancel`);
        expect(post?.body).to.equal('{}');
        expect(
          calls.filter((call) => call.url.startsWith('/api/slots')),
          'the freed slot',
        ).to.have.length(2);
        expect(calls.filter((call) => call.url === `/api/bookings/${token}`)).to.have.length(1);
        unsubscribe();
      } finally {
        restore();
      }
    });

    it('reads the booking and the slots again after a 409 or a 404, nothing after a 429 or a 503', async () => {
      let status = 429;
      const { calls, restore } = stubFetch(({ method, url }) => {
        if (url.startsWith('/api/slots')) return new Response(daySlots(true), { status: 200 });
        if (method === 'GET') return new Response(JSON.stringify(booked), { status: 200 });
        return new Response(JSON.stringify({ error: 'x', details: 'y' }), { status });
      });
      const store = makeStore();
      const reads = () => calls.filter((call) => call.method === 'GET').length;
      try {
        const unsubscribe = await readBoth(store);
        for (const [answer, readsAfter] of [
          [429, 2],
          [503, 2],
          [409, 4],
          [404, 6],
        ] as const) {
          status = answer;
          const result = await store.dispatch(
            api.endpoints.rescheduleBooking.initiate({ token, timeSlot: moved.timeSlot }),
          );
          await settle();
          expect(result.error, String(answer)).to.deep.include({ status: answer });
          expect(reads(), `reads after a ${answer}`).to.equal(readsAfter);
        }
        unsubscribe();
      } finally {
        restore();
      }
    });
  });
});
