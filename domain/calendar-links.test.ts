import { expect } from 'chai';
import { demoEvent, googleCalendarLink, outlookCalendarLink } from './calendar-links.js';

const event = {
  title: 'Converge demo for Acme & Sons',
  details: 'A 60-minute walkthrough.\nSee you then.',
  start: new Date('2026-11-24T09:00:00.000Z'),
  end: new Date('2026-11-24T10:00:00.000Z'),
};

describe('add-to-calendar links', () => {
  it("fill in Google Calendar's event template", () => {
    const url = new URL(googleCalendarLink(event));
    expect(`${url.origin}${url.pathname}`).to.equal('https://calendar.google.com/calendar/render');
    expect(Object.fromEntries(url.searchParams)).to.deep.equal({
      action: 'TEMPLATE',
      text: 'Converge demo for Acme & Sons',
      dates: '20261124T090000Z/20261124T100000Z',
      details: 'A 60-minute walkthrough.\nSee you then.',
    });
  });

  it("fill in Outlook's compose page, times in UTC", () => {
    const url = new URL(outlookCalendarLink(event));
    expect(`${url.origin}${url.pathname}`).to.equal('https://outlook.office.com/calendar/0/deeplink/compose');
    expect(Object.fromEntries(url.searchParams)).to.deep.equal({
      path: '/calendar/action/compose',
      rru: 'addevent',
      subject: 'Converge demo for Acme & Sons',
      startdt: '2026-11-24T09:00:00.000Z',
      enddt: '2026-11-24T10:00:00.000Z',
      body: 'A 60-minute walkthrough.\nSee you then.',
    });
  });
});

describe('a booked demo in the calendar links', () => {
  const room = 'https://meet.example.com/converge-demo-7f3a';
  const demo = demoEvent('Acme', new Date('2026-11-24T09:00:00.000Z'), room);

  it('carries the video room in the location and the details of both links, as the invitation does', () => {
    const google = new URL(googleCalendarLink(demo)).searchParams;
    expect(google.get('location')).to.equal(room);
    expect(google.get('details')).to.match(new RegExp(`^Join the video call: ${room}\\n`));
    const outlook = new URL(outlookCalendarLink(demo)).searchParams;
    expect(outlook.get('location')).to.equal(room);
    expect(outlook.get('body')).to.equal(google.get('details'));
  });

  it('has no location for a booking made before rooms were given', () => {
    const old = demoEvent('Acme', new Date('2026-11-24T09:00:00.000Z'), null);
    expect(new URL(googleCalendarLink(old)).searchParams.has('location')).to.equal(false);
    expect(old.details).not.to.include('Join');
  });
});
