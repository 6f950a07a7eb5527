import { expect } from 'chai';
import { bookingToken } from './booking-link.js';
import { bookableSlots } from '../test/booking.js';
import { TEST_LINK_SECRET, startStack, type Stack } from '../test/stack.js';
import { until } from '../test/until.js';
import { sample } from '../test/prometheus.js';

describe('the metrics endpoints (METRICS_PORT), after real traffic', function () {
  this.timeout(60_000);
  let stack: Stack;
  const prospect = { name: 'Grace Hopper', email: 'grace@hopper-systems.com', company: 'Hopper Systems' };
  const [first, second] = bookableSlots(2);
  before(async () => {
    stack = await startStack({ env: { METRICS_PORT: '0' } });
  });
  after(async () => {
    await stack.close();
  });
  const scrape = async (url: string | undefined) => {
    expect(url, 'a metrics endpoint').to.be.a('string');
    const answer = await fetch(url!);
    expect(answer.status).to.equal(200);
    expect(answer.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
    return answer.text();
  };
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${stack.url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  it('counts requests by route pattern and status, and bookings by outcome; no address, token or id in a label', async () => {
    const before = await scrape(stack.apiMetricsUrl);
    const booked = await post(
      '/api/demo-request',
      { ...prospect, timeSlot: first!.iso },
      { 'Idempotency-Key': 'metrics-test-key-0001' },
    );
    expect(booked.status).to.equal(201);
    const { id } = (await booked.json()) as { id: string };
    expect(
      (
        await post(
          '/api/demo-request',
          { ...prospect, timeSlot: first!.iso },
          { 'Idempotency-Key': 'metrics-test-key-0001' },
        )
      ).status,
    ).to.equal(201);
    expect(
      (await post('/api/demo-request', { ...prospect, email: 'alan@turing-machines.com', timeSlot: first!.iso }))
        .status,
    ).to.equal(409);
    expect(
      (
        await post('/api/demo-request', {
          ...prospect,
          email: 'bot@spam-house.com',
          timeSlot: second!.iso,
          website: 'x',
        })
      ).status,
    ).to.equal(201);
    const token = bookingToken(id, TEST_LINK_SECRET);
    expect((await fetch(`${stack.url}/api/bookings/${token}`)).status).to.equal(200);
    expect((await fetch(`${stack.url}/api/slots?date=nope`)).status).to.equal(400);

    const after = await scrape(stack.apiMetricsUrl);
    const moved = (name: string, labels: Record<string, string>) =>
      sample(after, name, labels) - sample(before, name, labels);
    expect(moved('converge_bookings_total', { outcome: 'created' })).to.equal(1);
    expect(moved('converge_bookings_total', { outcome: 'replayed' })).to.equal(1);
    expect(moved('converge_bookings_total', { outcome: 'slot_taken' })).to.equal(1);
    expect(moved('converge_bookings_total', { outcome: 'honeypot' })).to.equal(1);
    expect(
      moved('converge_http_requests_total', { method: 'POST', route: '/api/demo-request', status: '201' }),
    ).to.equal(3);
    expect(
      moved('converge_http_requests_total', { method: 'POST', route: '/api/demo-request', status: '409' }),
    ).to.equal(1);
    expect(
      moved('converge_http_requests_total', { method: 'GET', route: '/api/bookings/:token', status: '200' }),
    ).to.equal(1);
    expect(moved('converge_http_requests_total', { method: 'GET', route: '/api/slots', status: '400' })).to.equal(1);
    expect(
      moved('converge_http_request_duration_seconds_count', {
        method: 'POST',
        route: '/api/demo-request',
        status: '201',
      }),
    ).to.equal(3);
    expect(sample(after, 'process_cpu_seconds_total', { program: 'api' })).to.be.greaterThan(0);
    for (const secret of [prospect.email, token, id, 'grace']) expect(after, secret).to.not.include(secret);
  });

  it('the worker counts its deliveries and the time from a booking to its confirmation, and reads its outbox and queue', async () => {
    const worker = await scrape(stack.worker?.metricsUrl);
    expect(
      sample(worker, 'converge_outbox_deliveries_total', { kind: 'confirmation', outcome: 'sent' }),
    ).to.be.at.least(0);
    const sent = await until(async () => {
      const text = await scrape(stack.worker?.metricsUrl);
      return sample(text, 'converge_speed_to_lead_seconds_count') >= 1 ? text : undefined;
    }, 'the confirmation counted');
    expect(sample(sent, 'converge_outbox_deliveries_total', { kind: 'confirmation', outcome: 'sent' })).to.equal(1);
    expect(sample(sent, 'converge_speed_to_lead_seconds_bucket', { le: '60' })).to.equal(1);
    expect(sample(sent, 'converge_queue_jobs', { state: 'waiting' })).to.equal(0);

    // A backlog the worker cannot send (its job never queued): the gauges show it, and its age grows.
    await stack
      .db('deliveries')
      .update({ sent_at: null, due_at: stack.db.raw("now() - interval '90 seconds'") })
      .where({ kind: 'confirmation' });
    const backlog = await scrape(stack.worker?.metricsUrl);
    expect(sample(backlog, 'converge_outbox_backlog', { kind: 'confirmation' })).to.equal(1);
    expect(sample(backlog, 'converge_outbox_oldest_seconds', { kind: 'confirmation' })).to.be.within(89, 120);
    expect(sample(backlog, 'process_cpu_seconds_total', { program: 'worker' })).to.be.greaterThan(0);
  });
});
