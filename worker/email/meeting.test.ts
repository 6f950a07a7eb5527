import { expect } from 'chai';
import { icsProperties } from '../../test/booking.js';
import { TEST_LINK_SECRET } from '../../test/stack.js';
import { composeEmail } from '../channels/email.js';
import type { ComposeDeps } from '../kind-writers.js';
import type { ChangeRow, Lead } from '../delivery-row.js';

const deps: ComposeDeps = {
  mailFrom: 'Converge Demos <demos@converge.test>',
  timeZone: 'Europe/Berlin',
  publicUrl: 'https://converge.test',
  linkSecret: TEST_LINK_SECRET,
  now: () => new Date('2026-11-20T10:00:00Z'),
};
const slot = new Date('2026-11-26T09:00:00Z');
const room = 'https://meet.jit.si/ConvergeDemo-abcdefghij2345672345';
const lead: Lead = {
  id: '6f1c1f0e-2c1a-4d8e-9a57-0b9f1c2d3e4f',
  name: 'Grace Hopper',
  email: 'grace@hopper-systems.com',
  company: 'Hopper Systems',
  phone: null,
  message: null,
  attribution: null,
  timeSlot: slot,
  status: 'booked',
  sequence: 0,
  meetingUrl: room,
  host: { name: 'Dana Whitfield', title: 'Solutions Engineer', email: 'dana@converge.test' },
};
const row = (kind: string, overrides: Partial<ChangeRow> = {}): ChangeRow => ({
  id: '0c0e7a2b-5d4f-4f7e-8b1a-2c3d4e5f6a7b',
  booking_id: lead.id,
  kind,
  time_slot: slot,
  sequence: 0,
  recipient: null,
  change: null,
  ...overrides,
});
const calendarText = (content: unknown) => (typeof content === 'string' ? content : '');

describe('the meeting in every e-mail: whom the prospect meets and the video room', () => {
  for (const kind of ['confirmation', 'update', 'reminder'] as const) {
    it(`names the host and the room in the ${kind}, in text and HTML`, () => {
      const mail = composeEmail(deps, row(kind), lead)!;
      expect(mail.text)
        .to.contain('You will meet Dana Whitfield, Solutions Engineer.')
        .and.contain(`Video call: ${room}`);
      expect(mail.html).to.contain('You will meet Dana Whitfield, Solutions Engineer.').and.contain(`href="${room}"`);
    });
  }

  it('names the host of a cancelled demo without a room to join', () => {
    const mail = composeEmail(deps, row('cancellation', { sequence: 1 }), {
      ...lead,
      status: 'cancelled',
      sequence: 1,
    })!;
    expect(mail.text).to.contain('You will meet Dana Whitfield');
    expect(mail.text).to.not.contain('Video call');
  });

  it('puts the room in the invitation (LOCATION, URL, CONFERENCE) and the host as ORGANIZER and chair', () => {
    const ics = calendarText(composeEmail(deps, row('confirmation'), lead)!.icalEvent?.content);
    expect(icsProperties(ics)).to.include({ LOCATION: room, URL: room });
    const unfolded = ics.replace(/\r\n /g, '');
    expect(unfolded).to.contain(`CONFERENCE;FEATURE=VIDEO;LABEL=Video call;VALUE=URI:${room}`);
    expect(unfolded).to.contain('ORGANIZER;CN=Dana Whitfield:mailto:dana@converge.test');
    expect(unfolded).to.contain('ATTENDEE;CN=Dana Whitfield;ROLE=CHAIR;PARTSTAT=ACCEPTED:mailto:dana@converge.test');
    expect(unfolded).to.contain('ATTENDEE;CN=Grace Hopper;ROLE=REQ-PARTICIPANT');
  });

  it('tells the sales desk the host and the room', () => {
    const mail = composeEmail(deps, row('sales-notice', { recipient: 'sales@converge.test', change: 'booked' }), lead)!;
    expect(mail.text)
      .to.contain('Host: Dana Whitfield, Solutions Engineer <dana@converge.test>')
      .and.contain(`Video call: ${room}`);
  });

  it('sends the host the event as an invitation to act on, with the prospect, and withdraws it from a host the demo left', () => {
    const invitation = composeEmail(
      deps,
      row('host-invitation', { recipient: 'dana@converge.test', change: 'booked' }),
      lead,
    )!;
    expect(invitation.to).to.deep.equal({ name: 'Dana Whitfield', address: 'dana@converge.test' });
    expect(invitation.replyTo).to.deep.equal({ name: 'Grace Hopper', address: 'grace@hopper-systems.com' });
    expect(invitation.icalEvent?.method).to.equal('REQUEST');
    expect(invitation.text)
      .to.contain('Prospect: Grace Hopper')
      .and.contain('Company: Hopper Systems')
      .and.contain(`Video call: ${room}`);
    // Handed to Dana since: the earlier host's copy is withdrawn, and an invitation to them is no longer true.
    const withdrawn = composeEmail(
      deps,
      row('host-cancellation', { recipient: 'sam@converge.test', sequence: 1, change: 'rescheduled' }),
      { ...lead, sequence: 1 },
    )!;
    expect(withdrawn.to.address).to.equal('sam@converge.test');
    expect(withdrawn.icalEvent?.method).to.equal('CANCEL');
    expect(icsProperties(calendarText(withdrawn.icalEvent?.content))).to.include({
      METHOD: 'CANCEL',
      SEQUENCE: '1',
      STATUS: 'CANCELLED',
    });
    expect(
      composeEmail(deps, row('host-invitation', { recipient: 'sam@converge.test', change: 'booked' }), {
        ...lead,
        sequence: 1,
      }),
    ).to.equal(null);
  });

  it('without a team names nobody, and the product organises the event', () => {
    const mail = composeEmail(deps, row('confirmation'), { ...lead, host: null })!;
    expect(mail.text).to.not.contain('You will meet');
    expect(mail.text).to.contain(`Video call: ${room}`);
    expect(calendarText(mail.icalEvent?.content).replace(/\r\n /g, '')).to.contain(
      'ORGANIZER;CN=Converge:mailto:demos@converge.test',
    );
  });
});
