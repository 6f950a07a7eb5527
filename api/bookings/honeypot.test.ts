/**
 * The honeypot answers as a real booking would for the same body: the same 400s, the same 409 for a full slot, the
 * same 201 shape, and an invitation link and booking page that open. Each case sends one body twice, once as a
 * person would (no `website`) and once as a bot (with it), and compares what comes back.
 */
import { expect } from 'chai';
import { startAppUnderTest, type AppUnderTest } from '../../test/app-under-test.js';
import { purgeTrapped } from './trapped-repository.js';
import { timeOfTimeOrderedId } from '../../test/time-ordered-id.js';

// Monday 23 November 2026, 10:30 in Berlin.
const NOW = new Date('2026-11-23T09:30:00.000Z');
const slot = (hourUtc: number) => new Date(Date.UTC(2026, 10, 24, hourUtc)).toISOString(); // Tuesday 24 November

let made = 0;
const person = (timeSlot: string) => {
  made += 1;
  return { name: 'Ada Lovelace', email: `ada${made}@analytical-engines-${made}.com`, company: 'Analytical Engines', timeSlot };
};
const asBot = <T extends object>(body: T) => ({ ...body, website: 'http://spam.example' });

describe('the honeypot answers as a real booking would', () => {
  let app: AppUnderTest;
  before(async () => {
    app = await startAppUnderTest({ now: () => NOW });
  });
  after(async () => {
    await app.close();
  });

  const bookings = async () => Number(((await app.db('bookings').count({ n: '*' }).first()) as { n: string }).n);

  it('refuses an invalid body with the same 400 and the same field messages', async () => {
    for (const invalid of [
      { ...person(slot(8)), email: 'not-an-address' },
      { ...person(slot(8)), name: '' },
      { ...person(slot(8)), timeSlot: '2026-11-28T08:00:00.000Z' }, // a Saturday
      { ...person(slot(8)), timeSlot: '2027-03-02T08:00:00.000Z' }, // past the window
      { ...person(slot(8)), timeSlot: '2026-11-23T10:00:00.000Z' }, // too soon
    ]) {
      const real = await app.post('/api/demo-request', invalid);
      const trapped = await app.post('/api/demo-request', asBot(invalid));
      expect(real.status, JSON.stringify(invalid)).to.be.within(400, 499);
      expect({ status: trapped.status, body: trapped.body }, JSON.stringify(invalid)).to.deep.equal({ status: real.status, body: real.body });
    }
    expect(await bookings()).to.equal(0);
  });

  it('refuses a full slot with the same 409, and takes no place in a slot itself', async () => {
    const full = slot(9);
    expect((await app.post('/api/demo-request', person(full))).status).to.equal(201);
    const real = await app.post('/api/demo-request', person(full));
    const trapped = await app.post('/api/demo-request', asBot(person(full)));
    expect(real.status).to.equal(409);
    expect({ status: trapped.status, body: trapped.body }).to.deep.equal({ status: real.status, body: real.body });

    // A bot's booking of a free slot leaves it free for a person.
    const free = slot(10);
    expect((await app.post('/api/demo-request', asBot(person(free)))).status).to.equal(201);
    const slots = (await (await fetch(`${app.url}/api/slots?date=2026-11-24`)).json()) as { slots: { start: string; available: boolean }[] };
    expect(slots.slots.find((each) => each.start === free)?.available).to.equal(true);
    expect((await app.post('/api/demo-request', person(free))).status).to.equal(201);
  });

  it('refuses a slot the address already holds (in any of its forms) with the same 409 as a booking', async () => {
    const booked = person(slot(16));
    expect((await app.post('/api/demo-request', booked)).status).to.equal(201);
    const again = { ...booked, email: booked.email.replace('@', '+again@').toUpperCase() };
    const real = await app.post('/api/demo-request', again);
    const trapped = await app.post('/api/demo-request', asBot(again));
    expect(real.body.error).to.equal('Already booked');
    expect({ status: trapped.status, body: trapped.body }).to.deep.equal({ status: real.status, body: real.body });
  });

  it('answers 201 in the same shape, with an invitation link and a booking page that open like a real one', async () => {
    const real = await app.post('/api/demo-request', person(slot(11)));
    const before = await bookings();
    const emailsBefore = await app.db('booking_emails').count({ n: '*' }).first();
    const trapped = await app.post('/api/demo-request', asBot(person(slot(12))));
    expect(trapped.status).to.equal(real.status);
    expect(Object.keys(trapped.body).sort()).to.deep.equal(Object.keys(real.body).sort());
    expect(trapped.body.timeSlot).to.equal(slot(12));
    expect(Math.abs(Date.parse(String(trapped.body.createdAt)) - Date.parse(String(real.body.createdAt)))).to.be.below(60_000);
    // Ids of one kind: time-ordered (UUID version 7), the time they carry that of their answer.
    for (const answer of [real, trapped]) {
      expect(Math.abs(timeOfTimeOrderedId(String(answer.body.id)) - Date.parse(String(answer.body.createdAt)))).to.be.below(1000);
    }
    expect(await bookings(), 'nothing booked').to.equal(before);
    expect(await app.db('booking_emails').count({ n: '*' }).first(), 'nothing to send').to.deep.equal(emailsBefore);

    for (const [answer, timeSlot] of [
      [real, slot(11)],
      [trapped, slot(12)],
    ] as const) {
      const invite = await fetch(`${app.url}${String(answer.body.invitePath)}`);
      expect(invite.status).to.equal(200);
      expect(invite.headers.get('content-type')).to.equal('text/calendar; charset=utf-8; method=PUBLISH');
      expect(invite.headers.get('content-disposition')).to.equal('attachment; filename="invite.ics"');
      const ics = await invite.text();
      expect(ics).to.match(/BEGIN:VEVENT[\s\S]*STATUS:CONFIRMED[\s\S]*END:VEVENT/);
      expect(ics).to.include(`DTSTART:${timeSlot.replace(/[-:]/g, '').replace('.000', '')}`);
      const page = await fetch(`${app.url}${String(answer.body.invitePath).replace(/\/invite\.ics$/, '')}`);
      expect(page.status).to.equal(200);
      // Its own video room, as a booking's page shows one.
      expect(await page.json()).to.deep.equal({ timeSlot, status: 'booked', name: 'Ada Lovelace', company: 'Analytical Engines', meetingUrl: answer.body.meetingUrl });
      expect(String(answer.body.meetingUrl)).to.match(/^https:\/\/meet\.jit\.si\/ConvergeDemo-[a-z2-7]{20}$/);
    }
  });

  it('forgets a catch a week after its slot: its link then answers 404 as an unknown one', async () => {
    const trapped = await app.post('/api/demo-request', asBot(person(slot(14))));
    const page = `${app.url}${String(trapped.body.invitePath).replace(/\/invite\.ics$/, '')}`;
    await app.db('trapped_bookings').where({ id: trapped.body.id }).update({ time_slot: app.db.raw("now() - interval '6 days'") });
    expect(await purgeTrapped(app.db)).to.equal(0);
    expect((await fetch(page)).status).to.equal(200);
    await app.db('trapped_bookings').where({ id: trapped.body.id }).update({ time_slot: app.db.raw("now() - interval '8 days'") });
    expect(await purgeTrapped(app.db)).to.equal(1);
    expect((await fetch(page)).status).to.equal(404);
  });

  it('answers 503 with the same body as a booking while PostgreSQL is unreachable', async () => {
    const down = await startAppUnderTest({ now: () => NOW, databaseUrl: 'postgres://postgres@127.0.0.1:1/none' });
    try {
      const real = await down.post('/api/demo-request', person(slot(13)));
      const trapped = await down.post('/api/demo-request', asBot(person(slot(13))));
      expect(real.status).to.equal(503);
      expect({ status: trapped.status, body: trapped.body }).to.deep.equal({ status: real.status, body: real.body });
    } finally {
      await down.close();
    }
  });
});
