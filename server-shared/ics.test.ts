import { expect } from 'chai';
import ICAL from 'ical.js';
import { buildInvitation } from './ics.js';

describe('the invitation (.ics)', () => {
  const event = {
    method: 'CANCEL' as const,
    uid: 'demo-1@converge.example.com',
    sequence: 2,
    status: 'CANCELLED' as const,
    start: new Date('2026-11-24T14:00:00Z'),
    end: new Date('2026-11-24T15:00:00Z'),
    stamp: new Date('2026-11-23T10:00:00Z'),
    summary: 'Demo; for "Acme, Inc."',
    description: `Line one\nline two ${'é'.repeat(60)}`,
    organizer: { name: 'Converge', address: 'demos@converge.example.com' },
    attendee: { name: 'Ada "The Countess" Lovelace', address: 'ada@analytical-engines.com' },
  };

  it('writes the method, UID, sequence and status it is given, with CRLF lines', () => {
    const ics = buildInvitation(event);
    expect(ics).to.contain('\r\nMETHOD:CANCEL\r\n').and.contain('\r\nUID:demo-1@converge.example.com\r\n');
    expect(ics).to.contain('\r\nSEQUENCE:2\r\n').and.contain('\r\nSTATUS:CANCELLED\r\n');
    expect(ics)
      .to.contain('\r\nDTSTART:20261124T140000Z\r\n')
      .and.match(/\r\nEND:VCALENDAR\r\n$/);
  });

  it('escapes text, encodes quotes in parameters (RFC 6868), and folds lines at 75 octets', () => {
    const ics = buildInvitation(event);
    expect(ics).to.contain('SUMMARY:Demo\\; for "Acme\\, Inc."');
    expect(ics).to.contain("ATTENDEE;CN=Ada ^'The Countess^' Lovelace;");
    // A calendar reads the name back as it was typed.
    const read = new ICAL.Component(ICAL.parse(ics)).getFirstSubcomponent('vevent');
    expect(read?.getFirstProperty('attendee')?.getParameter('cn')).to.equal('Ada "The Countess" Lovelace');
    expect(read?.getFirstPropertyValue('summary')).to.equal('Demo; for "Acme, Inc."');
    const lines = ics.split('\r\n');
    for (const line of lines) expect(Buffer.byteLength(line, 'utf8'), line).to.be.at.most(75);
    const description = lines.slice(lines.findIndex((line) => line.startsWith('DESCRIPTION:')));
    const unfolded = [
      description[0],
      ...description
        .slice(1)
        .filter((line) => line.startsWith(' '))
        .map((line) => line.slice(1)),
    ].join('');
    expect(unfolded).to.contain(`Line one\\nline two ${'é'.repeat(60)}`);
  });
});
