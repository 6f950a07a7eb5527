import { expect } from 'chai';
import { pino } from 'pino';
import { startAppUnderTest, type AppUnderTest } from '../test/app-under-test.js';
import { availableSlots, calendarDayOf } from '../domain/booking.js';
import { bookingToken } from '../server-shared/booking-link.js';
import { TEST_LINK_SECRET } from '../test/stack.js';
import { anonymiseBatch, applyRetention, deletePastFreedSlots } from './retention.js';
import { startSweepTimer } from './sweep.js';

const TOKEN = 'ops-secret-token-of-at-least-32-characters';
const DAY_MS = 86_400_000;

/** Slots the API takes now, from the day after tomorrow on. */
function upcomingSlots(): string[] {
  const now = new Date();
  const slots: string[] = [];
  for (let day = 2; day <= 20; day += 1) {
    for (const slot of availableSlots(
      calendarDayOf(new Date(now.getTime() + day * DAY_MS), 'Europe/Berlin'),
      now,
      'Europe/Berlin',
    ))
      slots.push(slot.iso);
  }
  return slots;
}

describe('retention (RETENTION_DAYS)', () => {
  let app: AppUnderTest;
  const slots = upcomingSlots();
  let booked = 0;

  before(async () => {
    app = await startAppUnderTest({ adminToken: TOKEN });
  });
  after(async () => {
    await app.close();
  });

  /** A booking made through the API, then moved in the database so that its slot lies `daysAgo` days back. */
  async function bookingFrom(daysAgo: number): Promise<string> {
    booked += 1;
    const response = await app.post('/api/demo-request', {
      name: `Ada Lovelace ${booked}`,
      email: `ada${booked}@analytical-engines.com`,
      company: 'Analytical Engines',
      phone: '+1 555 0100',
      message: 'Call me on my mobile.',
      timeSlot: slots[booked],
      attribution: {
        utm_source: 'newsletter',
        utm_medium: 'email',
        utm_campaign: 'q4',
        utm_term: 'ada lovelace',
        referrer: 'https://mail.example.org/?user=ada',
      },
      visitorTimeZone: 'America/Chicago',
    });
    expect(response.status, JSON.stringify(response.body)).to.equal(201);
    const id = String(response.body.id);
    await app.db.raw(
      'UPDATE bookings SET time_slot = now() - make_interval(days => ?), created_at = now() - make_interval(days => ? + 7) WHERE id = ?',
      [daysAgo, daysAgo, id],
    );
    // Its confirmation went out after a first failure; its reminder is still to send.
    await app
      .db('deliveries')
      .where({ booking_id: id, kind: 'confirmation' })
      .update({ sent_at: app.db.fn.now(), last_error: '450 ada@analytical-engines.com: mailbox busy' });
    return id;
  }

  const row = (id: string) => app.db('bookings').where({ id }).first();

  it('removes the personal data of bookings whose slot ended more than RETENTION_DAYS ago, in batches, and leaves the rest as it was', async () => {
    const old = [await bookingFrom(800), await bookingFrom(731), await bookingFrom(1000)];
    const recent = [await bookingFrom(10), await bookingFrom(729)];
    const recentBefore = await app.db('bookings').whereIn('id', recent).orderBy('id');
    const recentEmailsBefore = await app.db('deliveries').whereIn('booking_id', recent).orderBy('id');
    const recentEventsBefore = await app.db('webhook_events').whereIn('booking_id', recent).orderBy('position');

    // The texts' consent (issue 40) is personal data too: its number goes, and the consent with it.
    await app.db('bookings').whereIn('id', old).update({
      sms_phone: '+33612345678',
      sms_consent_text: 'Text me a confirmation and a reminder',
      sms_consent_at: app.db.fn.now(),
    });
    expect(await applyRetention(app.db, 730, { batchSize: 2 })).to.equal(3);

    for (const id of old) {
      const anonymised = await row(id);
      expect(anonymised).to.include({
        name: '',
        email: '',
        company: '',
        phone: null,
        message: null,
        recipient: null,
        recipient_domain: null,
        meeting_url: null,
        visitor_time_zone: null,
        sms_phone: null,
        sms_consent_text: null,
        sms_consent_at: null,
        status: 'booked',
      });
      expect(anonymised.attribution, 'the campaign stays, the person goes').to.deep.equal({
        utm_source: 'newsletter',
        utm_medium: 'email',
        utm_campaign: 'q4',
      });
      expect(anonymised.anonymised_at).to.be.instanceOf(Date);
      expect(anonymised.time_slot.getTime(), 'the dates stay').to.be.below(Date.now() - 730 * DAY_MS);
      const emails = await app.db('deliveries').where({ booking_id: id });
      expect(emails.length).to.be.greaterThan(1);
      for (const email of emails) {
        expect(email).to.include({ recipient: null, last_error: null });
        // Sent stays sent; what was still to send never goes.
        expect(email.sent_at !== null || email.dropped_at !== null, `${email.kind} settled`).to.equal(true);
      }
      // (Not /ada/ alone: a UUID's hex may spell it.)
      expect(JSON.stringify(await app.db('deliveries').where({ booking_id: id }))).not.to.match(
        /Lovelace|analytical-engines/i,
      );
      // Its webhook event keeps what a receiver's figures need, not the person.
      const [event] = await app.db('webhook_events').where({ booking_id: id });
      expect(event.payload.data.booking)
        .to.include({ id, status: 'booked' })
        .and.not.have.any.keys('name', 'email', 'company', 'phone', 'message', 'meetingUrl');
      expect(event.payload.data.attribution).to.deep.equal({
        utm_source: 'newsletter',
        utm_medium: 'email',
        utm_campaign: 'q4',
      });
      expect(JSON.stringify(event.payload)).not.to.match(/Lovelace|analytical-engines|mobile|555 0100|ada lovelace/i);
    }
    expect(await app.db('bookings').whereIn('id', recent).orderBy('id')).to.deep.equal(recentBefore);
    expect(await app.db('deliveries').whereIn('booking_id', recent).orderBy('id')).to.deep.equal(recentEmailsBefore);
    expect(recentEventsBefore).to.have.length(2);
    expect(await app.db('webhook_events').whereIn('booking_id', recent).orderBy('position')).to.deep.equal(
      recentEventsBefore,
    );
    expect(await applyRetention(app.db, 730), 'nothing is left to do').to.equal(0);
  });

  it("answers an anonymised booking's link as gone (410), its invitation and changes too, and lists it as anonymised", async () => {
    const id = await bookingFrom(800);
    const token = bookingToken(id, TEST_LINK_SECRET);
    expect((await fetch(`${app.url}/api/bookings/${token}`)).status, 'before: the booking').to.equal(200);
    await applyRetention(app.db, 730);

    const shown = await fetch(`${app.url}/api/bookings/${token}`);
    expect(shown.status).to.equal(410);
    expect(await shown.json()).to.deep.equal({
      error: 'Gone',
      details:
        'This demo took place long ago and its details are no longer kept. Please book a new demo from our home page.',
    });
    expect((await fetch(`${app.url}/api/bookings/${token}/invite.ics`)).status).to.equal(410);
    expect((await app.post(`/api/bookings/${token}/cancel`, {})).status).to.equal(410);
    expect((await app.post(`/api/bookings/${token}/reschedule`, { timeSlot: slots[0] })).status).to.equal(410);

    let cursor: string | null = null;
    let listed: { id: string; name: string; anonymisedAt: string | null } | undefined;
    do {
      const page = (await (
        await fetch(`${app.url}/api/demo-requests${cursor ? `?cursor=${cursor}` : ''}`, {
          headers: { Authorization: `Bearer ${TOKEN}` },
        })
      ).json()) as { demoRequests: { id: string; name: string; anonymisedAt: string | null }[]; next: string | null };
      listed = page.demoRequests.find((request) => request.id === id);
      cursor = page.next;
    } while (!listed && cursor);
    expect(listed?.name).to.equal('');
    expect(Number.isNaN(Date.parse(String(listed?.anonymisedAt))), 'anonymisedAt is a date').to.equal(false);
  });

  it('skips a booking another transaction holds, and keeps no booking waiting while a batch is open', async () => {
    const held = await bookingFrom(900);
    const free = await bookingFrom(900);
    const move = await app.db.transaction();
    try {
      await move('bookings').where({ id: held }).forUpdate().first();
      const started = Date.now();
      expect(await applyRetention(app.db, 730)).to.equal(1);
      expect(Date.now() - started, 'no wait on the held row').to.be.below(2000);
      expect((await row(held)).name).to.match(/^Ada/);
      expect((await row(free)).name).to.equal('');
    } finally {
      await move.commit();
    }
    expect(await applyRetention(app.db, 730), 'a later round takes the row once free').to.equal(1);

    // A batch left open (the longest a batch could ever take) does not hold up a new booking nor the operations list.
    const last = await bookingFrom(900);
    const batch = await app.db.transaction();
    try {
      expect(await anonymiseBatch(batch, 730)).to.equal(1);
      const booking = app.post('/api/demo-request', {
        name: 'Grace Hopper',
        email: 'grace@analytical-engines.com',
        company: 'Analytical Engines',
        timeSlot: slots.at(-1),
      });
      const waited = await Promise.race([
        booking.then((answer) => answer.status),
        new Promise((resolve) => setTimeout(() => resolve('blocked'), 5000)),
      ]);
      expect(waited).to.equal(201);
    } finally {
      await batch.commit();
    }
    expect((await row(last)).name).to.equal('');
  });

  it('gives up within a moment on an e-mail row a worker holds, changing nothing, and finishes in a later round', async () => {
    const id = await bookingFrom(800);
    const claim = await app.db.transaction();
    const started = Date.now();
    try {
      await claim('deliveries').where({ booking_id: id, kind: 'confirmation' }).forUpdate().first();
      const failure = await applyRetention(app.db, 730).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(String(failure)).to.match(/lock timeout/);
      expect(Date.now() - started).to.be.below(3000);
      expect((await row(id)).name, 'the batch was undone').to.match(/^Ada/);
    } finally {
      await claim.commit();
    }
    expect(await applyRetention(app.db, 730)).to.equal(1);
  });

  it('is applied by the sweep timer, whose log line says how many and names nobody; the funnel counts of days past it go, and the slots hosts gave up once ended', async () => {
    await bookingFrom(800);
    await bookingFrom(800);
    const funnelDay = (daysAgo: number) => app.db.raw('current_date - ?::int', [daysAgo]);
    // A slot a host gave up an hour and a half ago (ended), one under way (begun 30 minutes ago), one tomorrow.
    const minutesFromNow = (minutes: number) => app.db.raw('now() + make_interval(mins => ?)', [minutes]);
    const freed = (host: string, minutes: number) => ({
      host_email: `${host}@converge.test`,
      time_slot: minutesFromNow(minutes),
      booking_id: '00000000-0000-4000-8000-000000000001',
      reason: 'host-deleted',
      freed_at: minutesFromNow(-3 * 24 * 60),
    });
    await app.db('host_freed_slots').insert([freed('ana', -90), freed('ben', -30), freed('cy', 24 * 60)]);
    await app.db('funnel_daily_counts').insert([
      { day: funnelDay(731), source: 'newsletter', step: 'booked', count: 3 },
      { day: funnelDay(731), source: '', step: 'dialogOpened', count: 9 },
      { day: funnelDay(730), source: 'newsletter', step: 'booked', count: 2 },
      { day: funnelDay(0), source: 'newsletter', step: 'booked', count: 1 },
    ]);
    const lines: string[] = [];
    const timer = startSweepTimer(
      app.db,
      async () => {},
      pino({ level: 'info' }, { write: (line: string) => void lines.push(line) }),
      {
        everyMs: 60_000,
        retentionDays: 730,
      },
    );
    await timer.stop();
    const logged = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((line) => line.msg === 'retention removed the personal data of old bookings');
    expect(logged).to.include({ anonymised: 2, retentionDays: 730 });
    expect(lines.join('\n')).not.to.match(/Lovelace|analytical-engines/i);
    expect(
      ((await app.db('funnel_daily_counts').orderBy('count').pluck('count')) as string[]).map(Number),
    ).to.deep.equal([1, 2]);
    expect(
      lines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .find((line) => line.msg === 'retention deleted old funnel counts'),
    ).to.include({ funnelCounts: 2 });
    expect(await app.db('host_freed_slots').orderBy('host_email').pluck('host_email')).to.deep.equal([
      'ben@converge.test',
      'cy@converge.test',
    ]);
    expect(
      lines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .find((line) => line.msg === 'retention deleted the past slots hosts gave up'),
    ).to.include({ freedSlots: 1 });
    // Once the slot under way has ended, it goes too; the one to come stays.
    await app
      .db('host_freed_slots')
      .update({ time_slot: minutesFromNow(-61) })
      .where({ host_email: 'ben@converge.test' });
    expect(await deletePastFreedSlots(app.db)).to.equal(1);
    expect(await app.db('host_freed_slots').pluck('host_email')).to.deep.equal(['cy@converge.test']);
  });
});
