/** GET and POST /api/routing against the real app (PostgreSQL, Redis for the rate limit). */
import { expect } from 'chai';
import pino from 'pino';
import { startAppUnderTest, type AppUnderTest } from '../../test/app-under-test.js';
import { TEST_LINK_SECRET } from '../../test/stack.js';
import type { RouteRule } from '../../domain/routing.js';
import { createProspectRouter, routedTeam, type ProspectRouting } from './prospect-route.js';
import { routeOfKey } from './route-key.js';

const NOW = new Date('2026-11-18T09:30:00Z');
const questions = [
  { id: 'companySize', label: 'Company size', options: ['1-49', '50-499', '5000+'] },
  { id: 'region', label: 'Region', options: ['Europe', 'Other'] },
];
const hosts = ['anna', 'dana', 'lina'].map((name) => ({ email: `${name}@converge.test` }));
const routes: RouteRule[] = [
  { when: { emailDomain: ['competitor.example'] }, disqualify: 'Thank you! Our team will reach out by e-mail.' },
  { when: { companySize: ['5000+'] }, hosts: ['dana@converge.test'] },
  { when: { region: ['Europe'] }, hosts: ['anna@converge.test', 'lina@converge.test'] },
];
const routing: ProspectRouting = {
  questions,
  routed: true,
  router: createProspectRouter(
    { hosts, routes },
    {
      accounts: {
        ownerOf: (domain) => (domain === 'owned.example' ? 'lina@converge.test' : undefined),
        size: 1,
        close: () => {},
      },
    },
  ),
  team: routedTeam({ hosts, routes }),
  close: () => {},
};

describe('/api/routing: the questions, and the route key from the e-mail and the answers', function () {
  this.timeout(30_000);
  let app: AppUnderTest;
  let bare: AppUnderTest;
  const lines: string[] = [];
  before(async () => {
    const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) });
    [app, bare] = await Promise.all([
      startAppUnderTest({
        now: () => NOW,
        routing,
        logger,
        limits: { demoRequestsPerHour: 100, emailChecksPerMinute: 10 },
      }),
      startAppUnderTest({ now: () => NOW }),
    ]);
  });
  after(async () => {
    await Promise.all([app?.close(), bare?.close()]);
  });
  const hostsOf = (route: unknown) => routeOfKey(String(route), routing.team, NOW, TEST_LINK_SECRET)?.hosts;

  it("answers the team file's questions and that it routes, kept briefly by any cache; none without a team", async () => {
    const answer = await fetch(`${app.url}/api/routing`);
    expect(answer.status).to.equal(200);
    expect(answer.headers.get('cache-control')).to.equal('public, max-age=60');
    expect(await answer.json()).to.deep.equal({ questions, routed: true, texts: false });
    expect(await (await fetch(`${bare.url}/api/routing`)).json()).to.deep.equal({
      questions: [],
      routed: false,
      texts: false,
    });
  });

  it("gives a key to the matching route's hosts, the account owner's first", async () => {
    const big = await app.post('/api/routing', {
      email: 'cfo@bank.example',
      answers: { companySize: '5000+', region: 'Other' },
    });
    expect(big.status).to.equal(200);
    expect(big.headers.get('cache-control')).to.equal('no-store');
    expect(hostsOf(big.body.route)).to.deep.equal(['dana@converge.test']);
    const owned = await app.post('/api/routing', {
      email: ' cto@owned.example ',
      answers: { companySize: '50-499', region: 'Europe' },
    });
    expect(owned.status).to.equal(200);
    expect(hostsOf(owned.body.route)).to.deep.equal(['lina@converge.test', 'anna@converge.test']);
  });

  it('refuses a missing or unknown answer beside its question, and a bad address beside the e-mail (400)', async () => {
    const missing = await app.post('/api/routing', { email: 'cfo@bank.example', answers: { companySize: '10' } });
    expect(missing.status).to.equal(400);
    expect(missing.body.fields).to.deep.equal({
      'answers.companySize': 'Company size must be one of: 1-49, 50-499, 5000+.',
      'answers.region': 'Please choose your region.',
    });
    const badEmail = await app.post('/api/routing', { email: 'not-an-address', answers: {} });
    expect(badEmail.status).to.equal(400);
    expect(Object.keys(badEmail.body.fields as object)).to.deep.equal(['email']);
    const extra = await app.post('/api/routing', { email: 'cfo@bank.example', answers: {}, isAdmin: true });
    expect(extra.status).to.equal(400);
    expect(extra.body.fields).to.have.property('isAdmin');
  });

  it('answers 422 with the words to show when disqualified or unrouted, and 404 without a team', async () => {
    await app.db('funnel_daily_counts').del();
    const competitor = await app.post('/api/routing', {
      email: 'analyst@competitor.example',
      answers: { companySize: '5000+', region: 'Europe' },
      source: 'Newsletter',
    });
    expect(competitor.status).to.equal(422);
    expect(competitor.body).to.deep.include({
      disqualified: true,
      message: 'Thank you! Our team will reach out by e-mail.',
    });
    // The funnel counts the prospect the routes turned away, under the visit's source ('other': not a known one).
    expect(
      await app
        .db('funnel_daily_counts')
        .select(app.db.raw("to_char(day, 'YYYY-MM-DD') AS day"), 'source', 'step', 'count'),
    ).to.deep.equal([{ day: '2026-11-18', source: 'other', step: 'disqualified', count: '1' }]);
    const small = await app.post('/api/routing', {
      email: 'founder@shop.example',
      answers: { companySize: '1-49', region: 'Other' },
    });
    expect(small.status).to.equal(422);
    expect(small.body.unrouted).to.equal(true);
    expect(await app.db('funnel_daily_counts').sum({ n: 'count' }).first()).to.deep.equal({ n: '1' });
    expect(small.body.message).to.match(
      /^No one on our team takes this kind of request online yet; please write to \S+@\S+\.$/,
    );
    const none = await bare.post('/api/routing', { email: 'cfo@bank.example', answers: {} });
    expect(none.status).to.equal(404);
  });

  it('writes no e-mail address into a log line', () => {
    expect(lines.length).to.be.greaterThan(0);
    expect(lines.join('\n')).not.to.match(/bank\.example|owned\.example|competitor\.example|shop\.example/);
  });

  it('is rate limited per network like the e-mail check', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1)
      statuses.push((await app.post('/api/routing', { email: 'cfo@bank.example', answers: {} })).status);
    expect(statuses).to.include(429);
  });
});
