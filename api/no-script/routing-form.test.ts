/**
 * The booking form without script asks the team file's questions: a native select each, labelled, its error beside
 * it and the answer kept when the form comes back; a prospect the routes turn away reads their words as a page (422)
 * and nothing is stored. Needs the web build (`npm run build:web`).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { startAppUnderTest, type AppUnderTest } from '../../test/app-under-test.js';
import {
  CALDAV_PASSWORD,
  CALDAV_USER,
  eventIcs,
  startCalDavServer,
  type CalDavServer,
} from '../../test/caldav-server.js';
import { SLOT_TAKEN_MESSAGE } from '../../domain/booking.js';
import { silentLogger } from '../../test/stack.js';
import { HONEYPOT_FIELD } from '../../domain/demo-request.js';
import { parseTeam } from '../../server-shared/hosts/team.js';
import { HostCalendars } from '../hosts/calendars.js';
import { createProspectRouting } from '../routing/prospect-route.js';

const WEB_ROOT = path.resolve('dist/web');
const SITE = 'https://converge.test';
// Monday 23 November 2026, 10:30 in Berlin; the slot booked is Wednesday's 11:00.
const NOW = new Date('2026-11-23T09:30:00.000Z');
const SLOT = '2026-11-25T10:00:00.000Z';
// Thursday's 11:00, when Dana (the big companies' host) is busy in her calendar and Anna is free.
const DANA_BUSY = '2026-11-26T10:00:00.000Z';
const DISQUALIFY = 'Thank you! Our team will reach out by e-mail.';
const fromSite = { Origin: SITE, 'Sec-Fetch-Site': 'same-origin' };
const markup = (html: string) => html.replaceAll('<!-- -->', '');

describe('the booking form without script, with routing questions', function () {
  this.timeout(60_000);
  let server: CalDavServer;
  let app: AppUnderTest;
  let made = 0;

  before(async () => {
    if (!existsSync(path.join(WEB_ROOT, 'no-script.html')))
      throw new Error('No production build (no-script.html): run `npm run build:web` first.');
    server = await startCalDavServer();
    const hosts = await Promise.all(
      ['Anna', 'Dana'].map(async (name) => ({
        name,
        title: 'Solutions Engineer',
        email: `${name.toLowerCase()}@converge.test`,
        calendarUrl: await server.makeCalendar(name.toLowerCase()),
        calendarUsername: CALDAV_USER,
        calendarPassword: CALDAV_PASSWORD,
      })),
    );
    await server.putEvent(
      hosts[1]!.calendarUrl,
      'busy',
      eventIcs('busy@test', 'DTSTART:20261126T100000Z', 'DTEND:20261126T110000Z'),
    );
    const team = parseTeam(
      JSON.stringify({
        hosts,
        questions: [
          { id: 'companySize', label: 'Company size', options: ['1-49', '5000+'] },
          { id: 'region', label: 'Region', options: ['Europe', 'Other'] },
        ],
        routes: [
          { when: { emailDomain: ['competitor.example'] }, disqualify: DISQUALIFY },
          { when: { companySize: ['5000+'] }, hosts: ['dana@converge.test'] },
          { hosts: '*' },
        ],
      }),
      {},
    );
    app = await startAppUnderTest({
      now: () => NOW,
      webRoot: WEB_ROOT,
      publicUrl: SITE,
      hostCalendars: new HostCalendars(team.hosts, {
        logger: silentLogger,
        now: () => NOW,
        bookingTimeZone: 'Europe/Berlin',
        timeoutMs: 2000,
      }),
      routing: createProspectRouting(team, { accountsFile: undefined, ownerLookup: undefined }, silentLogger, () => {}),
    });
  });
  after(async () => {
    await app?.close();
    await server?.stop();
  });

  const visitor = (fields: Record<string, string>, domain?: string): Record<string, string> => {
    made += 1;
    return {
      name: 'Grace Hopper',
      email: `grace${made}@${domain ?? `compilers-${made}.com`}`,
      company: 'Compilers Inc',
      timeSlot: SLOT,
      phone: '',
      message: '',
      [HONEYPOT_FIELD]: '',
      idempotencyKey: `form-key-${made}-${Date.now()}`,
      ...fields,
    };
  };
  const post = async (fields: Record<string, string>) => {
    const answer = await fetch(`${app.url}/book`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...fromSite },
      body: new URLSearchParams(fields).toString(),
    });
    return { status: answer.status, location: answer.headers.get('location'), html: markup(await answer.text()) };
  };
  const count = async () => Number(((await app.db('bookings').count({ n: '*' }).first()) as { n: string }).n);

  it('asks each question as a labelled select, none chosen', async () => {
    const html = markup(await (await fetch(`${app.url}/book`)).text());
    expect(html).to.include('<label for="book-q-companySize">Company size</label>');
    expect(html).to.match(/<select [^>]*id="book-q-companySize"[^>]*name="answers.companySize"[^>]*required/);
    expect(html).to.include('<option value="" selected="">Choose…</option><option value="1-49">1-49</option>');
    expect(html).to.include('<label for="book-q-region">Region</label>');
  });

  it('shows the error beside an unanswered question and keeps what was chosen and typed', async () => {
    const answer = await post(visitor({ 'answers.companySize': '5000+' }));
    expect(answer.status).to.equal(400);
    expect(answer.html).to.match(
      /<select [^>]*id="book-q-region"[^>]*aria-invalid="true"[^>]*aria-describedby="book-q-region-error"/,
    );
    expect(answer.html).to.match(/<p [^>]*id="book-q-region-error"[^>]*>.*Please choose your region\./);
    expect(answer.html).to.include('<option value="5000+" selected="">5000+</option>');
    expect(answer.html).to.include('value="Grace Hopper"');
    expect(answer.html).to.include('href="#book-q-region"');
    const unknown = await post(visitor({ 'answers.companySize': 'huge', 'answers.region': 'Europe' }));
    expect(unknown.status).to.equal(400);
    expect(unknown.html).to.include('Company size must be one of: 1-49, 5000+.');
    expect(await count()).to.equal(0);
  });

  it("shows a competitor the route's words as a page, 422, and stores nothing", async () => {
    const answer = await post(
      visitor({ 'answers.companySize': '1-49', 'answers.region': 'Europe' }, 'competitor.example'),
    );
    expect(answer.status).to.equal(422);
    expect(answer.html).to.include('Thank you for your interest');
    expect(answer.html).to.include(DISQUALIFY);
    expect(answer.html).not.to.include('<form');
    expect(await count()).to.equal(0);
  });

  it("books with the answers, the host one of the route's", async () => {
    const answer = await post(visitor({ 'answers.companySize': '5000+', 'answers.region': 'Other' }));
    expect(answer.status, answer.html).to.equal(303);
    const rows = (await app.db('bookings').select('host_email', 'answers')) as {
      host_email: string;
      answers: object;
    }[];
    expect(rows).to.deep.equal([
      { host_email: 'dana@converge.test', answers: { companySize: '5000+', region: 'Other' } },
    ]);
  });

  it("offers the route's free slots, from that day on, when its hosts cannot take the slot posted", async () => {
    const everyone = markup(await (await fetch(`${app.url}/book`)).text());
    expect(everyone, 'the form first offers every host').to.include(`value="${DANA_BUSY}"`);
    const answer = await post(
      visitor({ 'answers.companySize': '5000+', 'answers.region': 'Europe', timeSlot: DANA_BUSY }),
    );
    expect(answer.status).to.equal(409);
    // Beside the slots, the first of them that day.
    expect(answer.html).to.match(
      new RegExp(
        `<p id="slot-error"[^>]*>.*?</svg>${SLOT_TAKEN_MESSAGE}</p><fieldset[^>]*><legend>Thursday, 26 November`,
      ),
    );
    const offered = [...answer.html.matchAll(/name="timeSlot" value="([^"]+)"/g)].map((match) => match[1]!);
    expect(offered, 'not the slot refused').not.to.include(DANA_BUSY);
    // That day's first: its other slots, each Dana's alone, and no day before it.
    expect(offered[0]!.slice(0, 10)).to.equal('2026-11-26');
    expect(offered).to.include('2026-11-26T09:00:00.000Z');
    expect(answer.html).not.to.match(/with Anna/);
    expect(answer.html).to.include('<option value="5000+" selected="">5000+</option>');
    expect(await count()).to.equal(1);
    // A prospect every host may take gets Anna at that slot, as before.
    const small = await post(
      visitor({ 'answers.companySize': '1-49', 'answers.region': 'Europe', timeSlot: DANA_BUSY }),
    );
    expect(small.status, small.html).to.equal(303);
  });
});
