/**
 * The texts' limits (issue 40, docs/sms.md "Limits"), against real PostgreSQL: a number is texted about one
 * prospect's bookings a day (its owner: the e-mail of the booking first texted there), so two bookings by different
 * e-mails racing for one number end with exactly one of them texted; the owner's next booking is texted; a booking's
 * own limit holds its later texts back. Every text held back is kept with why, and the booking's detail shows it.
 */
import { expect } from 'chai';
import type { SmsView } from '../../domain/sales.js';
import { startAppUnderTest, type AppUnderTest } from '../../test/app-under-test.js';
import { bookableSlots } from '../../test/booking.js';
import { expectDocumented } from '../../test/documented.js';
import { DEFAULT_FOLLOW_UPS } from './emails.js';

const ADMIN = 'an-admin-token-of-at-least-32-characters';

describe('the texts’ limits', function () {
  this.timeout(60_000);
  let app: AppUnderTest;
  let tight: AppUnderTest;
  const [slot, other] = bookableSlots(2);

  before(async () => {
    const texts = (perBooking: number) => ({
      ...DEFAULT_FOLLOW_UPS,
      texts: { zone: 'Europe/Berlin', perNumberPerDay: 5, perBooking },
    });
    // Many bookings of one slot, so that the bookings race for the number alone.
    const bookingLimits = { slotCapacity: 50, perDomainPerDay: 0 };
    app = await startAppUnderTest({ adminToken: ADMIN, followUps: texts(8), bookingLimits });
    tight = await startAppUnderTest({ adminToken: ADMIN, followUps: texts(1), bookingLimits });
  });
  after(async () => {
    await app?.close();
    await tight?.close();
  });

  const book = async (on: AppUnderTest, email: string, phone: string, timeSlot = slot!.iso) => {
    const answer = await on.post('/api/demo-request', {
      name: 'Ada Lovelace',
      email,
      company: 'Analytical Engines',
      timeSlot,
      phone,
      smsConsent: true,
    });
    expect(answer.status, JSON.stringify(answer.body)).to.equal(201);
    return String(answer.body.id);
  };
  const textKinds = async (on: AppUnderTest, id: string) =>
    (
      (await on.db('deliveries').where({ booking_id: id, channel: 'sms' }).orderBy('kind').select('kind')) as {
        kind: string;
      }[]
    ).map((row) => row.kind);
  const smsOf = async (on: AppUnderTest, id: string) => {
    const answer = await fetch(`${on.url}/api/admin/bookings/${id}`, { headers: { Authorization: `Bearer ${ADMIN}` } });
    expect(answer.status).to.equal(200);
    const detail = (await answer.json()) as { sms: SmsView };
    expectDocumented('/api/admin/bookings/{id}', 'get', 200, detail);
    return detail.sms;
  };

  it('texts one of two prospects booking at once with the same number, and keeps why the other was not', async () => {
    for (let round = 0; round < 4; round += 1) {
      const phone = `+33 6 12 34 57 ${String(10 + round)}`;
      const ids = await Promise.all([
        book(app, `ada${round}@analytical-engines.com`, phone),
        book(app, `eve${round}@difference-engines.com`, phone, other!.iso),
      ]);
      const kinds = await Promise.all(ids.map((id) => textKinds(app, id)));
      const texted = kinds.filter((those) => those.length > 0);
      expect(texted, `round ${round}: ${JSON.stringify(kinds)}`).to.have.length(1);
      expect(texted[0]).to.deep.equal(['sms-confirmation', 'sms-reminder']);
      const loser = ids[kinds.findIndex((those) => those.length === 0)]!;
      const sms = await smsOf(app, loser);
      expect(sms.texts).to.deep.equal([]);
      expect(sms.withheld.map(({ kind, reason }) => ({ kind, reason }))).to.deep.equal([
        { kind: 'sms-confirmation', reason: 'number-of-another-prospect' },
        { kind: 'sms-reminder', reason: 'number-of-another-prospect' },
      ]);
    }
  });

  it('texts the owner’s own next booking at that number, whatever the case of their address', async () => {
    const phone = '+33 6 12 34 57 20';
    const first = await book(app, 'grace@analytical-engines.com', phone);
    const second = await book(app, 'Grace@Analytical-Engines.com', phone, other!.iso);
    expect(await textKinds(app, first)).to.deep.equal(['sms-confirmation', 'sms-reminder']);
    expect(await textKinds(app, second)).to.deep.equal(['sms-confirmation', 'sms-reminder']);
    const sms = await smsOf(app, second);
    expect(sms.withheld).to.deep.equal([]);
    expect(sms.texts.map((text) => ({ kind: text.kind, sentAt: text.sentAt, state: text.state }))).to.deep.equal([
      { kind: 'sms-confirmation', sentAt: null, state: null },
      { kind: 'sms-reminder', sentAt: null, state: null },
    ]);
    expect(sms).to.include({ delivered: 0, failed: 0 });
  });

  it('holds back a booking’s texts past SMS_PER_BOOKING, and says so on its detail', async () => {
    const id = await book(tight, 'barbara@analytical-engines.com', '+33 6 12 34 57 30');
    expect(await textKinds(tight, id)).to.deep.equal(['sms-confirmation']);
    const sms = await smsOf(tight, id);
    expect(sms.texts.map((text) => text.kind)).to.deep.equal(['sms-confirmation']);
    expect(sms.withheld.map(({ kind, reason }) => ({ kind, reason }))).to.deep.equal([
      { kind: 'sms-reminder', reason: 'booking-limit' },
    ]);
  });
});
