/**
 * A booking's texts when its host hands it over or withdraws (issue 40), against real PostgreSQL through the
 * statements the API calls (booking_reassign, booking_host_answer): the phone's earlier texts are overtaken as its
 * e-mails are, so a reminder of the old host's demo is dropped and the update stored; a withdrawal with nobody to
 * take the demo leaves the phone no reminder of it, and sends it nothing.
 */
import { expect } from 'chai';
import { startAppUnderTest, type AppUnderTest } from '../../test/app-under-test.js';
import { bookableSlots } from '../../test/booking.js';
import { DEFAULT_FOLLOW_UPS, emailRows, emailsParameter, type FollowUpSettings } from '../bookings/emails.js';

const SETTINGS: FollowUpSettings = {
  ...DEFAULT_FOLLOW_UPS,
  texts: { zone: 'Europe/Berlin', perNumberPerDay: 5, perBooking: 8 },
};
const BEN = 'ben@converge.test';

interface TextRow {
  kind: string;
  sequence: number;
  dropped_at: Date | null;
}

describe('a booking’s texts when its host hands it over or withdraws', function () {
  this.timeout(60_000);
  let app: AppUnderTest;
  const [slot] = bookableSlots(1);

  before(async () => {
    app = await startAppUnderTest({ followUps: SETTINGS });
  });
  after(async () => {
    await app?.close();
  });

  const textsOf = async (id: string) =>
    (await app
      .db('deliveries')
      .where({ booking_id: id, channel: 'sms' })
      .orderBy(['sequence', 'kind'])
      .select('kind', 'sequence', 'dropped_at')) as TextRow[];
  const live = (rows: TextRow[]) =>
    rows.filter((row) => row.dropped_at === null).map(({ kind, sequence }) => ({ kind, sequence }));

  it('drops the phone’s earlier reminder on a handover and stores the update; a withdrawal leaves no reminder', async () => {
    const booked = await app.post('/api/demo-request', {
      name: 'Ada Lovelace',
      email: 'ada@analytical-engines.com',
      company: 'Analytical Engines',
      timeSlot: slot!.iso,
      phone: '+33 6 12 34 58 00',
      smsConsent: true,
    });
    expect(booked.status, JSON.stringify(booked.body)).to.equal(201);
    const id = String(booked.body.id);
    expect(live(await textsOf(id))).to.deep.equal([
      { kind: 'sms-confirmation', sequence: 0 },
      { kind: 'sms-reminder', sequence: 0 },
    ]);
    // The confirmation went out before the change: it stays as it was.
    await app.db('deliveries').where({ booking_id: id, kind: 'sms-confirmation' }).update({ sent_at: new Date() });

    const now = new Date();
    const timeSlot = new Date(slot!.iso);
    const hosts = [{ email: BEN, name: 'Ben', title: 'Solutions Engineer', weight: 1, daily_limit: null, position: 0 }];
    const { rows: handed } = (await app.db.raw('SELECT * FROM booking_reassign(?, ?, ?::jsonb, ?, ?, 0, ?::jsonb)', [
      id,
      timeSlot,
      JSON.stringify(hosts),
      'sales page',
      now,
      emailsParameter(emailRows('reassigned', SETTINGS, now, timeSlot)),
    ])) as { rows: { changed: boolean; webhooks: unknown[] }[] };
    expect(handed[0]!.changed).to.equal(true);
    const afterHandover = await textsOf(id);
    expect(live(afterHandover)).to.deep.equal([
      { kind: 'sms-confirmation', sequence: 0 },
      { kind: 'sms-reminder', sequence: 1 },
      { kind: 'sms-update', sequence: 1 },
    ]);
    expect(afterHandover.find((row) => row.kind === 'sms-reminder' && row.sequence === 0)!.dropped_at).to.be.instanceOf(
      Date,
    );

    const { rows: answered } = (await app.db.raw(
      "SELECT * FROM booking_host_answer(?, ?, ?, 'host-deleted', '[]'::jsonb, ?, ?::jsonb, ?::jsonb)",
      [
        id,
        BEN,
        timeSlot,
        now,
        emailsParameter(emailRows('reassigned', SETTINGS, now, timeSlot)),
        emailsParameter(emailRows('needs-new-time', SETTINGS, now, timeSlot)),
      ],
    )) as { rows: { outcome: string }[] };
    expect(answered[0]!.outcome).to.equal('needs-new-time');
    // No reminder of a demo that has no host, nor any text of the withdrawal.
    expect(live(await textsOf(id))).to.deep.equal([{ kind: 'sms-confirmation', sequence: 0 }]);
  });
});
