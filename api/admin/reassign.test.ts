import { expect } from 'chai';
import { bookableSlots, icsOrganizer, icsProperties } from '../../test/booking.js';
import { eventIcs, storedDemoEvent, type CalDavServer } from '../../test/caldav-server.js';
import { startTeamCalendars, type TeamCalendars } from '../../test/team-calendars.js';
import { expectDocumented } from '../../test/documented.js';
import { startStack, type Stack } from '../../test/stack.js';
import { until } from '../../test/until.js';
import { startReceiver, type Receiver } from '../../test/webhook-receiver.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { newWebhookSecret, webhookEventSchema } from '../../server-shared/webhooks.js';
import type { RoutingRecord } from '../../domain/routing.js';
import type { BookingDetail } from '../../domain/sales.js';

const TOKEN = 'ops-secret-token-of-at-least-32-characters';
const SALES = 'sales@converge.test';
const compact = (iso: string) => iso.replace(/[-:]/g, '').replace('.000Z', 'Z');
const hourAfter = (iso: string) => new Date(new Date(iso).getTime() + 3_600_000).toISOString();

describe('handing a booking to another host from the sales page', function () {
  this.timeout(120_000);
  let caldav: CalDavServer;
  let receiver: Receiver;
  let stack: Stack;
  let team: TeamCalendars;
  let calendars: Readonly<Record<string, string>>;
  let session: { cookie: string; csrfToken: string };
  const [first, second, third] = bookableSlots(3);

  before(async () => {
    team = await startTeamCalendars({ hosts: ['Ana', 'Ben', 'Cy'] });
    ({ caldav, calendars } = team);
    receiver = await startReceiver(newWebhookSecret());
    stack = await startStack({
      env: {
        TEAM_FILE: team.teamFile,
        ADMIN_TOKEN: TOKEN,
        SALES_NOTIFY_EMAIL: SALES,
        WEBHOOK_URL: receiver.url,
        WEBHOOK_SECRET: receiver.secret,
        WEBHOOK_ALLOW_PRIVATE: 'true',
      },
      workerOptions: { sweepEveryMs: 500, sweepGraceMs: 2000 },
    });
    const signedIn = await fetch(`${stack.url}/api/admin/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: TOKEN }),
    });
    expect(signedIn.status).to.equal(201);
    session = {
      cookie: (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!,
      csrfToken: ((await signedIn.json()) as { csrfToken: string }).csrfToken,
    };
  });
  after(async () => {
    await stack?.close();
    await receiver?.close();
    await team?.stop();
  });

  const book = async (email: string, timeSlot: string) => {
    const answer = await fetch(`${stack.url}/api/demo-request`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Grace Hopper', email, company: 'Hopper Systems', timeSlot }),
    });
    expect(answer.status, await answer.clone().text()).to.equal(201);
    return String(((await answer.json()) as { id: string }).id);
  };
  const reassign = (
    id: string,
    host: string,
    headers: Record<string, string> = { 'X-CSRF-Token': session.csrfToken },
  ) =>
    fetch(`${stack.url}/api/admin/bookings/${id}/reassign`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: session.cookie, ...headers },
      body: JSON.stringify({ host }),
    });
  const detail = async (id: string) =>
    (await (
      await fetch(`${stack.url}/api/admin/bookings/${id}`, { headers: { Authorization: `Bearer ${TOKEN}` } })
    ).json()) as BookingDetail;
  const hostOf = async (id: string) =>
    ((await stack.db('bookings').where({ id }).first('host_email', 'sequence')) as {
      host_email: string;
      sequence: number;
    }) ?? undefined;
  const mailsTo = (address: string) => stack.smtp.messages.filter((mail) => mail.envelopeTo.includes(address));

  it("moves the event between the hosts' calendars, tells the prospect who they meet now and both hosts, and raises booking.reassigned", async () => {
    const prospect = 'grace@hopper-systems.com';
    const id = await book(prospect, first!.iso);
    const bookedWith = (await hostOf(id)).host_email;
    expect(bookedWith).to.equal('ana@converge.test');
    await until(() => storedDemoEvent(calendars.ana!, id), "the event in Ana's calendar");
    // The route's hosts are Ana and Ben (the booking path writes this record; written here directly).
    const routing: RoutingRecord = {
      rule: 0,
      label: 'companySize: 5000+',
      owner: null,
      ownerLookupFailed: false,
      candidates: [
        { email: 'ana@converge.test', name: 'Ana', outcome: 'chosen' },
        { email: 'ben@converge.test', name: 'Ben', outcome: 'fewer-demos-elsewhere' },
      ],
    };
    await stack
      .db('bookings')
      .where({ id })
      .update({ routing, answers: { companySize: '5000+' } });
    expect((await detail(id)).reassignTo).to.deep.equal([{ email: 'ben@converge.test', name: 'Ben' }]);

    // Cy is on the team but not on the route.
    const offRoute = await reassign(id, 'cy@converge.test');
    expect(offRoute.status).to.equal(422);
    expect(((await offRoute.json()) as { fields: Record<string, string> }).fields.host).to.match(/route/);

    const handed = await reassign(id, 'BEN@converge.test');
    const handedBody = (await handed.json()) as BookingDetail;
    expect(handed.status, JSON.stringify(handedBody)).to.equal(200);
    expectDocumented('/api/admin/bookings/{id}/reassign', 'post', 200, handedBody);
    expect(handedBody.host).to.deep.include({ name: 'Ben', email: 'ben@converge.test' });
    expect(handedBody.sequence).to.equal(1);
    expect(handedBody.routing?.reassignments).to.have.length(1);
    expect(handedBody.routing?.reassignments?.[0]).to.deep.include({
      from: 'ana@converge.test',
      to: 'ben@converge.test',
      by: 'sales page',
    });
    expect(handedBody.history.map((entry) => entry.what)).to.deep.equal(['booked', 'reassigned']);
    expect(handedBody.history[1]).to.deep.include({ fromHost: 'Ana', toHost: 'Ben' });

    // The event leaves Ana's calendar and lands in Ben's, one UID, SEQUENCE 1, Ben its organiser.
    const inBens = icsProperties(await until(() => storedDemoEvent(calendars.ben!, id), "the event in Ben's calendar"));
    expect(inBens).to.include({ DTSTART: compact(first!.iso), SEQUENCE: '1', UID: `demo-${id}@converge.localhost` });
    await until(
      async () => ((await storedDemoEvent(calendars.ana!, id)) === undefined ? true : undefined),
      "the event out of Ana's calendar",
    );

    // The prospect: an update of the same event naming Ben; Ana: a withdrawal; Ben: an invitation; the desk: a notice.
    const update = await until(
      async () => mailsTo(prospect).find((mail) => /is now with Ben/.test(mail.parsed.subject ?? '')),
      "the prospect's update",
    );
    const updateIcs = icsProperties(update.raw);
    expect(updateIcs).to.include({ METHOD: 'REQUEST', SEQUENCE: '1', UID: `demo-${id}@converge.localhost` });
    expect(icsOrganizer(update.raw)).to.contain('ben@converge.test');
    expect(update.parsed.text).to.contain('is now given by Ben, at the same time');
    const withdrawn = await until(
      async () => mailsTo('ana@converge.test').find((mail) => /method=CANCEL/i.test(mail.raw)),
      "Ana's withdrawal",
    );
    expect(withdrawn.parsed.text).to.contain('This demo was handed to another host');
    await until(
      async () => mailsTo('ben@converge.test').find((mail) => /method=REQUEST/i.test(mail.raw)),
      "Ben's invitation",
    );
    const notice = await until(
      async () => mailsTo(SALES).find((mail) => /^Demo handed to another host/.test(mail.parsed.subject ?? '')),
      "the sales desk's notice",
    );
    expect(notice.parsed.text).to.contain('Ben');
    // The desk's notice carries the answers and the route (by its place in the team file).
    expect(notice.parsed.text).to.contain('Route: 1 (companySize: 5000+)');
    expect(notice.parsed.text).to.match(/Their answers:\s+companySize: 5000\+/);

    const event = await until(
      async () => receiver.taken().find((taken) => taken.type === 'booking.reassigned'),
      'the booking.reassigned event',
    );
    expect(event.data.previousHost).to.deep.equal({
      name: 'Ana',
      title: 'Solutions Engineer',
      email: 'ana@converge.test',
    });
    expect(event.data.host).to.deep.include({ email: 'ben@converge.test' });
    expect(event.data.booking.sequence).to.equal(1);
    const valid = addFormats.default(new Ajv2020({ strict: false })).compile(webhookEventSchema('booking.reassigned'));
    expect(valid(event), JSON.stringify(valid.errors)).to.equal(true);
    expect(event.data.answers).to.deep.equal({ companySize: '5000+' });
    expect(event.data.route).to.deep.equal({ rule: 0, label: 'companySize: 5000+' });
    // The booking's first event, made by a team without questions or routes: every host's route, no answers.
    const created = receiver.taken().find((taken) => taken.type === 'booking.created' && taken.data.booking.id === id);
    expect(created?.data).to.not.have.any.keys('answers', 'previousHost');
    expect(created?.data.route).to.deep.equal({ rule: null, label: 'every host' });
  });

  it('refuses a host busy in their calendar with 409 and changes nothing; refuses a missing or forged CSRF token', async () => {
    const id = await book('ada@analytical-engines.com', second!.iso);
    const { host_email: host } = await hostOf(id);
    const other = host === 'ana@converge.test' ? 'cy' : 'ana';
    await caldav.putEvent(
      calendars[other]!,
      'busy-second',
      eventIcs('busy-second@test', `DTSTART:${compact(second!.iso)}`, `DTEND:${compact(hourAfter(second!.iso))}`),
    );
    const deliveriesBefore = await stack.db('deliveries').where({ booking_id: id }).count<{ count: string }[]>();
    const busy = await reassign(id, `${other}@converge.test`);
    expect(busy.status).to.equal(409);
    const busyBody = (await busy.json()) as { details: string };
    expectDocumented('/api/admin/bookings/{id}/reassign', 'post', 409, busyBody);
    expect(busyBody.details).to.match(/is not free at this demo's time: they are busy in their calendar/);
    for (const headers of [{}, { 'X-CSRF-Token': 'forged-token' }] as Record<string, string>[]) {
      const refused = await reassign(
        id,
        host === 'ben@converge.test' ? 'cy@converge.test' : 'ben@converge.test',
        headers,
      );
      expect(refused.status).to.equal(403);
    }
    expect(await hostOf(id)).to.deep.equal({ host_email: host, sequence: 0 });
    expect(await stack.db('deliveries').where({ booking_id: id }).count<{ count: string }[]>()).to.deep.equal(
      deliveriesBefore,
    );
  });

  it('answers 404, 410 and 409 as the other changes do, and 400 for a body without a host', async () => {
    expect((await reassign('00000000-0000-4000-8000-000000000000', 'ben@converge.test')).status).to.equal(404);
    const insert = async (fields: Record<string, unknown>) =>
      (
        (await stack
          .db('bookings')
          .insert({ name: 'X', email: 'x@old.example', company: 'Old', host_email: 'ana@converge.test', ...fields })
          .returning('id')) as { id: string }[]
      )[0]!.id;
    const begun = await insert({ time_slot: new Date(Date.now() - 3_600_000) });
    const started = await reassign(begun, 'ben@converge.test');
    expect(started.status).to.equal(409);
    expect(((await started.json()) as { details: string }).details).to.match(/already started/);
    const anonymised = await insert({ time_slot: new Date(Date.now() - 90 * 86_400_000), anonymised_at: new Date() });
    expect((await reassign(anonymised, 'ben@converge.test')).status).to.equal(410);
    const cancelled = await insert({ time_slot: new Date(first!.iso), status: 'cancelled', email: 'y@old.example' });
    expect((await reassign(cancelled, 'ben@converge.test')).status).to.equal(409);
    const noHost = await fetch(`${stack.url}/api/admin/bookings/${cancelled}/reassign`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ who: 'ben' }),
    });
    expect(noHost.status).to.equal(400);
  });

  it('reassignments racing end consistent: two for one host at one slot (one 200, one 409), two of one booking (in turn)', async () => {
    const one = await book('one@racing.example', third!.iso);
    const two = await book('two@racing.example', third!.iso);
    // Whoever is left free at that slot.
    const held = new Set([(await hostOf(one)).host_email, (await hostOf(two)).host_email]);
    const free = ['ana@converge.test', 'ben@converge.test', 'cy@converge.test'].find((email) => !held.has(email))!;
    const answers = await Promise.all([reassign(one, free), reassign(two, free)]);
    expect(answers.map((answer) => answer.status).sort()).to.deep.equal([200, 409]);
    const holders = await stack
      .db('bookings')
      .where({ time_slot: new Date(third!.iso), host_email: free, status: 'booked' })
      .pluck('id');
    expect(holders).to.have.length(1);

    // One booking handed to two hosts at once: they take turns under its lock, and it ends with the one that went second, its
    // sequence raised once each, one event per reassignment, its record naming both in order.
    const fourth = bookableSlots(4)[3]!;
    const id = await book('four@racing.example', fourth.iso);
    const { host_email: from } = await hostOf(id);
    const [a, b] = ['ana@converge.test', 'ben@converge.test', 'cy@converge.test'].filter((email) => email !== from);
    const both = await Promise.all([reassign(id, a!), reassign(id, b!)]);
    expect(both.map((answer) => answer.status)).to.deep.equal([200, 200]);
    const { host_email: ended, sequence } = await hostOf(id);
    expect(sequence).to.equal(2);
    const events = (await stack
      .db('webhook_events')
      .where({ booking_id: id, type: 'booking.reassigned' })
      .orderBy('position')
      .select(
        stack.db.raw("payload #>> '{data,previousHost,email}' AS previous"),
        stack.db.raw("payload #>> '{data,host,email}' AS host"),
      )) as {
      previous: string;
      host: string;
    }[];
    expect(events).to.have.length(2);
    expect(events[0]!.previous).to.equal(from);
    expect(events[1]!.previous).to.equal(events[0]!.host);
    expect(events[1]!.host).to.equal(ended);
    // Of the three calendars, only the last host's holds the event once the worker is done.
    const holding = async () => {
      const held = await Promise.all(
        Object.entries(calendars).map(async ([name, url]) => ((await storedDemoEvent(url, id)) ? name : undefined)),
      );
      const names = held.filter((name) => name !== undefined);
      return names.length === 1 && names[0] === ended.split('@')[0] ? names : undefined;
    };
    await until(holding, "the event in the last host's calendar alone");
  });
});
