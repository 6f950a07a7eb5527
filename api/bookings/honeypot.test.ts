/**
 * The honeypot answers as a real booking would for the same body: the same 400s, the same 409 for a full slot, the
 * same 201 shape, and an invitation link and booking page that open. Each case sends one body twice, once as a
 * person would (no `website`) and once as a bot (with it), and compares what comes back. A bot's own catches count
 * for it as bookings would (201 then 409, and its network's slot list shows them for an hour), and for nobody else.
 */
import { expect } from 'chai';
import { startAppUnderTest, type AppUnderTest } from '../../test/app-under-test.js';
import { randomUUID } from 'node:crypto';
import { purgeTrapped, storeTrapped } from './trapped-repository.js';
import { canonicalRecipient } from '../email-rules.js';
import { timeOfTimeOrderedId } from '../../test/time-ordered-id.js';
import { comparableAnswer, icsOrganizer } from '../../test/booking.js';

type Answer = Awaited<ReturnType<AppUnderTest['post']>>;

// Monday 23 November 2026, 10:30 in Berlin.
const NOW = new Date('2026-11-23T09:30:00.000Z');
const slot = (hourUtc: number) => new Date(Date.UTC(2026, 10, 24, hourUtc)).toISOString(); // Tuesday 24 November

let made = 0;
const person = (timeSlot: string) => {
  made += 1;
  return {
    name: 'Ada Lovelace',
    email: `ada${made}@analytical-engines-${made}.com`,
    company: 'Analytical Engines',
    timeSlot,
  };
};
const asBot = <T extends object>(body: T) => ({ ...body, website: 'http://spam.example' });
// Clients as the API tells them apart (a network: an IPv4 address, an IPv6 /64), through one trusted proxy.
const BOT = '203.0.113.7';
const PERSON = '198.51.100.20';
const from = (address: string) => ({ 'X-Forwarded-For': address });

describe('the honeypot answers as a real booking would', () => {
  let app: AppUnderTest;
  before(async () => {
    // One proxy in front: each request names its client in X-Forwarded-For, as the slot list's tests need.
    app = await startAppUnderTest({ now: () => NOW, trustProxy: 1 });
  });
  after(async () => {
    await app.close();
  });

  const bookings = async () => Number(((await app.db('bookings').count({ n: '*' }).first()) as { n: string }).n);
  /** Whether the slot list read from `address` offers `timeSlot` (a slot of Tuesday 24 November). */
  const availableFrom = async (address: string, timeSlot: string) => {
    const answer = await fetch(`${app.url}/api/slots?date=2026-11-24`, { headers: from(address) });
    const day = (await answer.json()) as { slots: { start: string; available: boolean }[] };
    return day.slots.find((each) => each.start === timeSlot)?.available;
  };

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
      expect({ status: trapped.status, body: trapped.body }, JSON.stringify(invalid)).to.deep.equal({
        status: real.status,
        body: real.body,
      });
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

    // A bot's booking of a free slot leaves it free for a person (on another network than the bot's).
    const free = slot(10);
    expect((await app.post('/api/demo-request', asBot(person(free)), from(BOT))).status).to.equal(201);
    expect(await availableFrom(PERSON, free)).to.equal(true);
    expect((await app.post('/api/demo-request', person(free), from(PERSON))).status).to.equal(201);
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
    const emailsBefore = await app.db('deliveries').count({ n: '*' }).first();
    const trapped = await app.post('/api/demo-request', asBot(person(slot(12))));
    expect(trapped.status).to.equal(real.status);
    expect(Object.keys(trapped.body).sort()).to.deep.equal(Object.keys(real.body).sort());
    expect(trapped.body.timeSlot).to.equal(slot(12));
    expect(Math.abs(Date.parse(String(trapped.body.createdAt)) - Date.parse(String(real.body.createdAt)))).to.be.below(
      60_000,
    );
    // Ids of one kind: time-ordered (UUID version 7), the time they carry that of their answer.
    for (const answer of [real, trapped]) {
      expect(
        Math.abs(timeOfTimeOrderedId(String(answer.body.id)) - Date.parse(String(answer.body.createdAt))),
      ).to.be.below(1000);
    }
    expect(await bookings(), 'nothing booked').to.equal(before);
    expect(await app.db('deliveries').count({ n: '*' }).first(), 'nothing to send').to.deep.equal(emailsBefore);

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
      expect(await page.json()).to.deep.equal({
        timeSlot,
        status: 'booked',
        name: 'Ada Lovelace',
        company: 'Analytical Engines',
        meetingUrl: answer.body.meetingUrl,
      });
      expect(String(answer.body.meetingUrl)).to.match(/^https:\/\/meet\.jit\.si\/ConvergeDemo-[a-z2-7]{20}$/);
    }
  });

  it('forgets a catch a week after its slot: its link then answers 404 as an unknown one', async () => {
    const trapped = await app.post('/api/demo-request', asBot(person(slot(14))));
    const page = `${app.url}${String(trapped.body.invitePath).replace(/\/invite\.ics$/, '')}`;
    await app
      .db('trapped_bookings')
      .where({ id: trapped.body.id })
      .update({ time_slot: app.db.raw("now() - interval '6 days'") });
    expect(await purgeTrapped(app.db)).to.equal(0);
    expect((await fetch(page)).status).to.equal(200);
    await app
      .db('trapped_bookings')
      .where({ id: trapped.body.id })
      .update({ time_slot: app.db.raw("now() - interval '8 days'") });
    expect(await purgeTrapped(app.db)).to.equal(1);
    expect((await fetch(page)).status).to.equal(404);
  });

  it('answers three bots booking one empty slot 201, 409, 409, as three people are answered, and leaves the slot to a person', async () => {
    const trapSlot = slot(17);
    const realSlot = slot(18);
    const real: Answer[] = [];
    const trapped: Answer[] = [];
    for (let n = 0; n < 3; n += 1) real.push(await app.post('/api/demo-request', person(realSlot), from(PERSON)));
    for (let n = 0; n < 3; n += 1)
      trapped.push(await app.post('/api/demo-request', asBot(person(trapSlot)), from(BOT)));
    expect(real.map((answer) => answer.status)).to.deep.equal([201, 409, 409]);
    expect(trapped.map((answer) => answer.status)).to.deep.equal([201, 409, 409]);
    real.forEach((answer, n) =>
      expect(comparableAnswer(trapped[n]!), `answer ${n + 1}`).to.deep.equal(comparableAnswer(answer)),
    );
    expect(await app.db('bookings').where({ time_slot: trapSlot }).pluck('id'), 'the bots took nothing').to.deep.equal(
      [],
    );
    // The slot is a person's all the same.
    expect((await app.post('/api/demo-request', person(trapSlot), from(PERSON))).status).to.equal(201);
  });

  it('gives 20 bots booking one empty slot at once one 201 and 19 409s, as 20 people would get', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => app.post('/api/demo-request', asBot(person(slot(6))), from(BOT))),
    );
    expect(answers.filter((answer) => answer.status === 201)).to.have.length(1);
    expect(answers.filter((answer) => answer.status === 409)).to.have.length(19);
    expect(
      await app
        .db('trapped_bookings')
        .where({ time_slot: slot(6) })
        .count({ n: '*' })
        .first(),
    ).to.deep.equal({ n: '1' });
  });

  it('makes a second catch of a slot wait for the first one to commit, and refuses it then, as a booking waits on the slot', async () => {
    const WEDNESDAY_NINE = '2026-11-25T08:00:00.000Z';
    const request = (n: number) => ({
      id: randomUUID(),
      input: person(WEDNESDAY_NINE),
      recipient: canonicalRecipient(`racer${n}@analytical-engines.com`),
      invitePath: '/api/bookings/t/invite.ics',
      meetingUrl: 'https://meet.jit.si/ConvergeDemo-test',
      slotCapacity: 1,
      hosts: undefined,
      clientNetwork: BOT,
    });
    const first = await app.db.transaction();
    try {
      expect(await storeTrapped(first, request(1))).to.have.property('timeSlot', WEDNESDAY_NINE);
      const second = storeTrapped(app.db, request(2));
      const early = await Promise.race([
        second.then(() => 'answered'),
        new Promise((resolve) => setTimeout(() => resolve('waiting'), 500)),
      ]);
      expect(early, 'the second waits on the first').to.equal('waiting');
      await first.commit();
      expect(await second).to.deep.equal({ reason: 'slot-taken' });
    } finally {
      if (!first.isCompleted()) await first.rollback();
    }
  });

  it('never holds a booking up behind a catch of its slot: the trap locks its own rows only', async () => {
    const wednesdayTen = '2026-11-25T09:00:00.000Z';
    const caught = await app.db.transaction();
    try {
      await storeTrapped(caught, {
        id: randomUUID(),
        input: person(wednesdayTen),
        recipient: canonicalRecipient('held@analytical-engines.com'),
        invitePath: '/api/bookings/t/invite.ics',
        meetingUrl: 'https://meet.jit.si/ConvergeDemo-test',
        slotCapacity: 1,
        hosts: undefined,
        clientNetwork: BOT,
      });
      expect((await app.post('/api/demo-request', person(wednesdayTen), from(PERSON))).status).to.equal(201);
    } finally {
      await caught.rollback();
    }
  });

  it('answers a bot booking the same slot again with the same 409 as a person who already holds it', async () => {
    const body = person(slot(19));
    const real = [
      await app.post('/api/demo-request', body, from(PERSON)),
      await app.post('/api/demo-request', body, from(PERSON)),
    ];
    const again = asBot(person(slot(7)));
    const trapped = [
      await app.post('/api/demo-request', again, from(BOT)),
      await app.post('/api/demo-request', again, from(BOT)),
    ];
    expect(real[1]!.body.error).to.equal('Already booked');
    real.forEach((answer, n) =>
      expect(comparableAnswer(trapped[n]!), `answer ${n + 1}`).to.deep.equal(comparableAnswer(answer)),
    );
  });

  it('shows the slot a bot took as taken to its own network for an hour, and to no other network', async () => {
    const taken = slot(20);
    const ipv6Bot = '2001:db8:1:2::5';
    expect((await app.post('/api/demo-request', asBot(person(taken)), from(ipv6Bot))).status).to.equal(201);
    expect(await availableFrom(ipv6Bot, taken), 'the bot itself').to.equal(false);
    expect(await availableFrom('2001:db8:1:2::99', taken), 'another address of its /64').to.equal(false);
    expect(await availableFrom('2001:db8:1:3::5', taken), 'the next /64').to.equal(true);
    expect(await availableFrom(PERSON, taken), 'a person').to.equal(true);
    expect(await availableFrom(ipv6Bot, slot(21)), 'the bot, another slot').to.equal(true);
    // An hour on, the bot's network is shown the slot as everyone is.
    await app
      .db('trapped_bookings')
      .where({ time_slot: taken })
      .update({ created_at: app.db.raw("now() - interval '61 minutes'") });
    expect(await availableFrom(ipv6Bot, taken)).to.equal(true);
    // The network is then of no more use, and the hourly purge forgets it; the catch itself is kept as before.
    await purgeTrapped(app.db);
    expect(await app.db('trapped_bookings').where({ time_slot: taken }).pluck('client_network')).to.deep.equal([null]);
  });

  it("gives the trapped booking an invitation organised as a real booking's is (without a team, by the product)", async () => {
    const real = await app.post('/api/demo-request', person(slot(21)), from(PERSON));
    const trapped = await app.post('/api/demo-request', asBot(person(slot(22))), from(BOT));
    const organizer = async (answer: Answer) =>
      icsOrganizer(await (await fetch(`${app.url}${String(answer.body.invitePath)}`)).text());
    expect(await organizer(real)).to.match(/^ORGANIZER;CN=[^:]+:mailto:demos@converge\.test$/);
    expect(await organizer(trapped)).to.equal(await organizer(real));
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
