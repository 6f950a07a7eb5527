import { expect } from 'chai';
import { KIND_WRITERS } from '../kind-writers.js';
import type { ChangeRow, Lead } from '../delivery-row.js';
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
// As long as the manage links are: the site's address and a 43-character token.
const manageUrl = 'https://demo.northstar-converge.com/booking/aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5zA7bC9d';

describe('the texts’ words', () => {
  it('names the host by their first name and the time on the prospect’s clock, with the manage link', () => {
    expect(writeText('sms-confirmation', lead, { zone: 'Europe/Paris', manageUrl })).to.equal(
      `Converge demo with Dana booked: Tue 1 Dec, 09:00 CET. Manage: ${manageUrl}`,
    );
    expect(writeText('sms-reminder', lead, { zone: 'America/New_York', manageUrl })).to.equal(
      `Reminder: Converge demo with Dana, Tue 1 Dec, 03:00 GMT-5. Manage: ${manageUrl}`,
    );
  });

  it('fits each text in one GSM-7 message with a link of this length', () => {
    for (const kind of ['sms-confirmation', 'sms-update', 'sms-cancellation', 'sms-reminder'] as TextKind[]) {
      const size = textSize(writeText(kind, lead, { zone: 'Europe/Paris', manageUrl }));
      expect(size, kind).to.include({ encoding: 'GSM-7', parts: 1 });
    }
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
