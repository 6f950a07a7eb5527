import { expect } from 'chai';
import { KIND_WRITERS } from '../kind-writers.js';
import type { ChangeRow, Lead } from '../delivery-row.js';
import { smsLinkCode, smsLinkPath } from '../../server-shared/booking-link.js';
import { textSize, writeText, type TextKind } from './texts.js';

const lead = {
  id: '0190d5c8-0000-7000-8000-000000000001',
  name: 'Ada Lovelace',
  email: 'ada@analytical-engines.com',
  company: 'Analytical Engines',
  phone: '+33612345678',
  message: null,
  attribution: null,
  timeSlot: new Date('2026-12-01T08:00:00Z'),
  visitorTimeZone: 'Europe/Paris',
  status: 'booked',
  sequence: 0,
  meetingUrl: 'https://meet.jit.si/ConvergeDemo-abc',
  host: { email: 'dana@converge.test', name: 'Dana Scully', title: 'Solutions Engineer' },
} as Lead;
// A site's address of a realistic length, and a short link as the worker makes it.
const PUBLIC_URL = 'https://demo.northstar-converge.com';
const smsLink = `${PUBLIC_URL}${smsLinkPath(smsLinkCode(lead.id, 'a-link-secret-of-32-characters-at-least'))}`;

describe('the texts’ words', () => {
  it('names the host by their first name and the time on the prospect’s clock, with the short link', () => {
    expect(smsLink).to.match(/^https:\/\/demo\.northstar-converge\.com\/m\/[A-Za-z0-9_-]{22}$/);
    expect(writeText('sms-confirmation', lead, { zone: 'Europe/Paris', smsLink })).to.equal(
      `Converge demo with Dana booked: Tue 1 Dec, 09:00 CET. Manage: ${smsLink}`,
    );
    expect(writeText('sms-reminder', lead, { zone: 'America/New_York', smsLink })).to.equal(
      `Reminder: Converge demo with Dana, Tue 1 Dec, 03:00 GMT-5. Manage: ${smsLink}`,
    );
  });

  it('fits each text in one GSM-7 message with a long first name and the longest zone names', () => {
    const long = { ...lead, host: { ...lead.host!, name: 'Maximilian-Alexander Featherstonehaugh' } };
    // Offsets with minutes are the longest names the short time zone style gives ("GMT+10:30").
    for (const zone of ['Europe/Paris', 'America/Los_Angeles', 'Asia/Kolkata', 'Australia/Adelaide']) {
      for (const kind of ['sms-confirmation', 'sms-update', 'sms-cancellation', 'sms-reminder'] as TextKind[]) {
        const text = writeText(kind, long, { zone, smsLink });
        expect(text, kind).to.contain(smsLink);
        expect(textSize(text), `${kind} in ${zone}: ${text}`).to.include({ encoding: 'GSM-7', parts: 1 });
      }
    }
    // The manage page's own link would not have left room for the words: the longest of them took two parts.
    const manageUrl = `${PUBLIC_URL}/booking/${'x'.repeat(43)}`;
    const withManageUrl = writeText('sms-reminder', long, { zone: 'Australia/Adelaide', smsLink: manageUrl });
    expect(textSize(withManageUrl).parts).to.equal(2);
  });

  it('counts GSM-7 septets, its extension characters twice, and UCS-2 parts for anything else', () => {
    expect(textSize('a'.repeat(160))).to.deep.equal({ encoding: 'GSM-7', units: 160, parts: 1 });
    expect(textSize('a'.repeat(161))).to.deep.equal({ encoding: 'GSM-7', units: 161, parts: 2 });
    expect(textSize('€'.repeat(80))).to.deep.equal({ encoding: 'GSM-7', units: 160, parts: 1 });
    expect(textSize('Zoë ł'.padEnd(70, 'x'))).to.deep.equal({ encoding: 'UCS-2', units: 70, parts: 1 });
    expect(textSize('ł'.repeat(71))).to.deep.equal({ encoding: 'UCS-2', units: 71, parts: 2 });
  });

  it('sends a reminder of its own change alone: a later change (a handover) drops it', () => {
    const row = { kind: 'sms-reminder', time_slot: lead.timeSlot, sequence: 0, recipient: '+33612345678' } as ChangeRow;
    const now = new Date('2026-11-30T12:00:00Z');
    const reminder = KIND_WRITERS['sms-reminder'];
    if (!('stillTrue' in reminder)) throw new Error('a reminder has a truth');
    expect(reminder.stillTrue(row, lead, now)).to.equal(true);
    expect(reminder.stillTrue(row, { ...lead, sequence: 1 }, now)).to.equal(false);
    expect(reminder.stillTrue(row, { ...lead, status: 'cancelled' }, now)).to.equal(false);
  });
});
