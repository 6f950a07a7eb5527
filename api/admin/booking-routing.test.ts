import { expect } from 'chai';
import { startAppUnderTest, type AppUnderTest } from '../../test/app-under-test.js';
import { expectDocumented } from '../../test/documented.js';
import { silentLogger } from '../../test/stack.js';
import type { HostShareReport, RoutingRecord } from '../../domain/routing.js';
import type { BookingDetail } from '../../domain/sales.js';
import { HostCalendars } from '../hosts/calendars.js';
import type { Host } from '../../server-shared/hosts/team.js';
import { createProspectRouter, routedTeam } from '../routing/prospect-route.js';

const TOKEN = 'ops-secret-token-of-at-least-32-characters';
const hostNamed = (index: number, name: string): Host => ({
  index,
  name,
  title: 'Account Executive',
  email: `${name.split(' ')[0]!.toLowerCase()}@example.com`,
  calendarUrl: `http://127.0.0.1:9/${index}/`,
  calendarUsername: 'host',
  calendarPassword: 'password',
  dailyLimit: undefined,
  weight: 1,
  workingHours: undefined,
});
const TEAM = [hostNamed(0, 'Dana Whitfield'), hostNamed(1, 'Anna Berg'), hostNamed(2, 'Lina Okafor')];

// Written as the booking path stores it (helper of the booking: bookings.routing, domain/routing.ts).
const ROUTING: RoutingRecord = {
  rule: 0,
  label: 'companySize: 5000+',
  owner: { email: 'anna@example.com', source: 'accounts' },
  ownerLookupFailed: false,
  candidates: [
    { email: 'anna@example.com', name: 'Anna Berg', outcome: 'busy' },
    { email: 'dana@example.com', name: 'Dana Whitfield', outcome: 'chosen' },
  ],
};

describe("a booking's answers and routing record, as sales reads them", () => {
  let app: AppUnderTest;
  before(async () => {
    app = await startAppUnderTest({
      adminToken: TOKEN,
      hostCalendars: new HostCalendars(TEAM, { logger: silentLogger, bookingTimeZone: 'Europe/Berlin' }),
      // The file asks the company's size alone now: the region answered before keeps its id for a label.
      routing: {
        questions: [{ id: 'companySize', label: 'Company size', options: ['1-49', '5000+'] }],
        routed: false,
        router: createProspectRouter({ hosts: TEAM, routes: undefined }, {}),
        team: routedTeam({ hosts: TEAM, routes: undefined }),
        close: () => {},
      },
    });
  });
  after(() => app.close());

  const insert = async (fields: Record<string, unknown>) => {
    const [row] = (await app
      .db('bookings')
      .insert({
        name: 'Ada Lovelace',
        email: 'ada@bigbank.example',
        company: 'Big Bank',
        time_slot: new Date('2026-12-01T09:00:00Z'),
        ...fields,
      })
      .returning('id')) as { id: string }[];
    return row!.id;
  };
  const detail = async (id: string) => {
    const answer = await fetch(`${app.url}/api/admin/bookings/${id}`, {
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    expect(answer.status).to.equal(200);
    const body = (await answer.json()) as BookingDetail;
    expectDocumented('/api/admin/bookings/{id}', 'get', 200, body);
    return body;
  };

  it('answers the answers and the routing record, and offers only the route’s other hosts', async () => {
    const id = await insert({
      host_email: 'dana@example.com',
      host_name: 'Dana Whitfield',
      host_title: 'Account Executive',
      answers: { companySize: '5000+', region: 'Europe' },
      routing: ROUTING,
    });
    const body = await detail(id);
    expect(body.answers).to.deep.equal({ companySize: '5000+', region: 'Europe' });
    expect(body.labelledAnswers).to.deep.equal([
      { id: 'companySize', label: 'Company size', answer: '5000+' },
      { id: 'region', label: 'region', answer: 'Europe' },
    ]);
    expect(body.routing).to.deep.equal(ROUTING);
    // Lina is on the team but not on the route; Dana has it already.
    expect(body.reassignTo).to.deep.equal([{ email: 'anna@example.com', name: 'Anna Berg' }]);
  });

  it('without routes every other host may take it; without a record or when cancelled, as shown', async () => {
    const everyHost = await insert({
      host_email: 'lina@example.com',
      host_name: 'Lina Okafor',
      routing: { ...ROUTING, rule: null, label: 'every host', owner: null },
    });
    expect((await detail(everyHost)).reassignTo.map((host) => host.email)).to.deep.equal([
      'dana@example.com',
      'anna@example.com',
    ]);
    const bare = await detail(await insert({ time_slot: new Date('2026-12-01T10:00:00Z') }));
    expect(bare).to.deep.include({ answers: null, labelledAnswers: [], routing: null });
    expect(bare.reassignTo).to.have.length(3);
    const cancelled = await detail(
      await insert({ status: 'cancelled', time_slot: new Date('2026-12-01T11:00:00Z'), routing: ROUTING }),
    );
    expect(cancelled.reassignTo).to.deep.equal([]);
  });
});

describe("each host's share of the demos, across routes, for the last 28 days", () => {
  let app: AppUnderTest;
  before(async () => {
    app = await startAppUnderTest({
      adminToken: TOKEN,
      hostCalendars: new HostCalendars(TEAM, { logger: silentLogger, bookingTimeZone: 'Europe/Berlin' }),
    });
  });
  after(() => app.close());

  it('counts the bookings made in the window and not cancelled, by host and by route, each host listed', async () => {
    const slot = new Date('2026-12-01T09:00:00Z');
    const route = (rule: number, label: string) => ({ ...ROUTING, rule, label });
    const rows = [
      { host: 'dana', routing: route(0, 'companySize: 5000+') },
      { host: 'dana', routing: route(0, 'companySize: 5000+') },
      { host: 'anna', routing: route(0, 'companySize: 5000+') },
      { host: 'anna', routing: route(2, 'everyone') },
      // Outside the window, cancelled: not counted.
      { host: 'dana', routing: route(0, 'companySize: 5000+'), created_at: new Date(Date.now() - 29 * 86_400_000) },
      { host: 'lina', routing: route(2, 'everyone'), status: 'cancelled' },
    ];
    for (const [index, { host, ...fields }] of rows.entries())
      await app.db('bookings').insert({
        name: 'Someone',
        email: `someone${index}@example.org`,
        company: 'Example',
        time_slot: new Date(slot.getTime() + index * 3_600_000),
        host_email: `${host}@example.com`,
        host_name: host,
        ...fields,
      });
    const answer = await fetch(`${app.url}/api/admin/hosts/share`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(answer.status).to.equal(200);
    const body = (await answer.json()) as HostShareReport;
    expectDocumented('/api/admin/hosts/share', 'get', 200, body);
    expect(body.total).to.equal(4);
    expect(body.hosts.map(({ email, demos, share }) => ({ email, demos, share }))).to.deep.equal([
      { email: 'dana@example.com', demos: 2, share: 0.5 },
      { email: 'anna@example.com', demos: 2, share: 0.5 },
      { email: 'lina@example.com', demos: 0, share: 0 },
    ]);
    expect(body.hosts[1]!.routes).to.deep.equal([
      { rule: 0, label: 'companySize: 5000+', demos: 1 },
      { rule: 2, label: 'everyone', demos: 1 },
    ]);
    expect((await fetch(`${app.url}/api/admin/hosts/share`)).status).to.equal(401);
  });
});
