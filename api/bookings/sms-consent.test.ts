/**
 * The texts' consent in POST /api/demo-request (issue 40): with texts on, a ticked consent needs a mobile number, kept
 * in E.164 with the words and the time; without consent, or without texts, the phone is the free text it always was
 * and nothing of the consent is kept.
 */
import { expect } from 'chai';
import { SMS_CONSENT_TEXT, SMS_PHONE_REQUIRED } from '../../domain/demo-request.js';
import { startAppUnderTest, type AppUnderTest } from '../../test/app-under-test.js';
import { DEFAULT_FOLLOW_UPS } from './emails.js';
import { SMS_PHONE_NOT_MOBILE } from './sms-consent.js';

// Monday 23 November 2026, 10:30 in Berlin.
const NOW = new Date('2026-11-23T09:30:00.000Z');

const request = (slotHour: number) => ({
  name: 'Ada Lovelace',
  email: `ada${slotHour}@analytical-engines.com`,
  company: 'Analytical Engines Ltd',
  timeSlot: `2026-11-24T${String(slotHour).padStart(2, '0')}:00:00.000Z`,
});

describe('the texts’ consent of a demo request', () => {
  let texting: AppUnderTest;
  let silent: AppUnderTest;

  before(async () => {
    texting = await startAppUnderTest({
      now: () => NOW,
      followUps: { ...DEFAULT_FOLLOW_UPS, texts: { zone: 'Europe/Berlin', perNumberPerDay: 5, perBooking: 8 } },
    });
    silent = await startAppUnderTest({ now: () => NOW });
  });
  after(async () => {
    await texting.close();
    await silent.close();
  });

  const consentOf = (app: AppUnderTest, id: unknown) =>
    app.db('bookings').where({ id }).first('phone', 'sms_phone', 'sms_consent_text', 'sms_consent_at', 'created_at');

  it('keeps the number in E.164 with the words and the time of the booking', async () => {
    const response = await texting.post('/api/demo-request', {
      ...request(8),
      phone: '+33 6 12 34 56 78',
      smsConsent: true,
    });
    expect(response.status, JSON.stringify(response.body)).to.equal(201);
    const row = await consentOf(texting, response.body.id);
    expect(row).to.include({ phone: '+33612345678', sms_phone: '+33612345678', sms_consent_text: SMS_CONSENT_TEXT });
    expect(row.sms_consent_at.getTime()).to.equal(row.created_at.getTime());
  });

  it('refuses a consent without a phone, or with a number no text reaches, beside the phone', async () => {
    for (const [phone, message] of [
      [undefined, SMS_PHONE_REQUIRED],
      ['+44 20 7946 0001', SMS_PHONE_NOT_MOBILE],
      ['0612345678', SMS_PHONE_NOT_MOBILE],
      ['+999 1234', SMS_PHONE_NOT_MOBILE],
    ] as const) {
      const response = await texting.post('/api/demo-request', {
        ...request(9),
        ...(phone ? { phone } : {}),
        smsConsent: true,
      });
      expect(response.status, String(phone)).to.equal(400);
      expect(response.body.fields).to.deep.equal({ phone: message });
    }
    expect(await texting.db('bookings').where({ email: 'ada9@analytical-engines.com' }).first()).to.equal(undefined);
  });

  it('keeps a phone without consent as typed, and no consent', async () => {
    for (const body of [
      { ...request(10), phone: 'office, ext. 12' },
      { ...request(11), phone: 'office, ext. 12', smsConsent: false },
    ]) {
      const response = await texting.post('/api/demo-request', body);
      expect(response.status, JSON.stringify(response.body)).to.equal(201);
      expect(await consentOf(texting, response.body.id)).to.include({
        phone: 'office, ext. 12',
        sms_phone: null,
        sms_consent_text: null,
      });
    }
  });

  it('takes no consent when the site sends no texts: the phone stays as typed', async () => {
    const response = await silent.post('/api/demo-request', {
      ...request(12),
      phone: '+44 20 7946 0001',
      smsConsent: true,
    });
    expect(response.status, JSON.stringify(response.body)).to.equal(201);
    expect(await consentOf(silent, response.body.id)).to.include({ phone: '+44 20 7946 0001', sms_phone: null });
  });

  it('tells the dialog whether to offer the consent (GET /api/routing)', async () => {
    expect(((await (await fetch(`${texting.url}/api/routing`)).json()) as { texts: boolean }).texts).to.equal(true);
    expect(((await (await fetch(`${silent.url}/api/routing`)).json()) as { texts: boolean }).texts).to.equal(false);
  });

  it('refuses a consent that is not true or false', async () => {
    const response = await texting.post('/api/demo-request', {
      ...request(13),
      phone: '+33612345678',
      smsConsent: 'yes',
    });
    expect(response.status).to.equal(400);
    expect(response.body.fields).to.deep.equal({ smsConsent: 'smsConsent must be true or false.' });
  });

  it('moves a text’s reminder out of the night on the prospect’s clock, to 20:00 the evening before', async () => {
    const due = async (at: string, zone: string) =>
      (
        (await texting.db.raw('SELECT sms_reminder_due(?::timestamptz, ?) AS due', [at, zone])) as {
          rows: { due: Date | null }[];
        }
      ).rows[0]!.due?.toISOString() ?? null;
    const la = 'America/Los_Angeles';
    // 09:00 and 08:00 there stay; 23:00 and 06:00 go to 20:00 the evening before; 21:00 to 20:00 that evening.
    expect(await due('2026-12-01T17:00:00Z', la)).to.equal('2026-12-01T17:00:00.000Z');
    expect(await due('2026-12-01T16:00:00Z', la)).to.equal('2026-12-01T16:00:00.000Z');
    expect(await due('2026-12-01T07:00:00Z', la)).to.equal('2026-12-01T04:00:00.000Z');
    expect(await due('2026-12-01T14:00:00Z', la)).to.equal('2026-12-01T04:00:00.000Z');
    expect(await due('2026-12-02T05:00:00Z', la)).to.equal('2026-12-02T04:00:00.000Z');
    expect(await due('2026-12-01T07:00:00Z', 'Nowhere/Else')).to.equal(null);
  });
});
