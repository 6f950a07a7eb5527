import { expect } from 'chai';
import { googleCalendarLink, outlookCalendarLink } from './calendar-links.js';

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
