import { expect } from 'chai';
import { renderCancellation } from './booking-changes.js';
import { renderConfirmation } from './confirmation.js';
import { SAMPLE_BOOKING, SAMPLE_RENDERING } from './sample-booking.js';

const booking = SAMPLE_BOOKING;
const options = SAMPLE_RENDERING;

describe('the confirmation e-mail', () => {
  it('names the booking zone as configured: "Europe Time" for a European one', () => {
    const email = renderConfirmation(booking, { ...options, timeZone: 'Europe/Berlin' });
    expect(email.text).to.contain(
      '  Europe Time: Tuesday, 24 November 2026, 15:00–16:00 (CET)\n  UTC:         Tuesday, 24 November 2026, 14:00–15:00 UTC',
    );
    expect(email.html).to.contain('>Europe Time</td>');
  });

  it("and the zone's own name for another, in the text and the HTML", () => {
    const email = renderConfirmation(booking, { ...options, timeZone: 'America/New_York' });
    expect(email.text).to.contain(
      '  Eastern Time: Tuesday, 24 November 2026, 09:00–10:00 (GMT-5)\n  UTC:          Tuesday, 24 November 2026, 14:00–15:00 UTC',
    );
    expect(email.html).to.contain('>Eastern Time</td>').and.not.contain('Europe Time');
    expect(email.subject).to.equal('Your Converge demo is booked: Tuesday, 24 November 2026, 09:00–10:00 (GMT-5)');
  });

  it("adds the slot in the visitor's own zone when the page sent one whose clock differs, in the text and the HTML", () => {
    const email = renderConfirmation(
      { ...booking, visitorTimeZone: 'America/Los_Angeles' },
      { ...options, timeZone: 'Europe/Berlin' },
    );
    expect(email.text).to.contain(
      '  Europe Time: Tuesday, 24 November 2026, 15:00–16:00 (CET)\n  UTC:         Tuesday, 24 November 2026, 14:00–15:00 UTC\n  Your time:   Tuesday, 24 November 2026, 06:00–07:00 (GMT-8)',
    );
    expect(email.html).to.contain(
      '>Your time</td><td style="padding:4px 0">Tuesday, 24 November 2026, 06:00–07:00 (GMT-8)</td>',
    );
    // The booking zone stays the subject's and the bold row's: the visitor's is an aid.
    expect(email.subject).to.equal('Your Converge demo is booked: Tuesday, 24 November 2026, 15:00–16:00 (CET)');
  });

  it("leaves the visitor's zone out when its clock reads as the booking zone's, or none was sent", () => {
    for (const visitorTimeZone of ['Europe/Paris', null, undefined]) {
      const email = renderConfirmation({ ...booking, visitorTimeZone }, { ...options, timeZone: 'Europe/Berlin' });
      expect(email.text, String(visitorTimeZone)).not.to.contain('Your time');
      expect(email.html).not.to.contain('Your time');
    }
  });

  it("shares the layout: greeting, sign-off, the site address and the company's legal details in both parts, with the configured contact", () => {
    const email = renderConfirmation(
      { ...booking, name: '<b>Ada</b> Lovelace' },
      { ...options, timeZone: 'Europe/Berlin' },
    );
    expect(email.text)
      .to.match(/^Hi <b>Ada<\/b>,\n/)
      .and.match(/The Converge team\n\nConverge by .+ · https:\/\/converge\.example\.com\n/);
    expect(email.html)
      .to.contain('<p>Hi &lt;b&gt;Ada&lt;/b&gt;,</p>')
      .and.contain(`<a href="https://converge.example.com" style=`);
    const legal = [
      'Northstar Telecom GmbH · Nordsternplatz 1, 10117 Berlin, Germany · sales@converge.example.com · +1 555 0100',
      'Registered office: Berlin · Amtsgericht Charlottenburg, HRB 248117 B · Managing directors: Helena Marsh, Jonas Reiter',
    ];
    expect(email.text.endsWith(legal.join('\n'))).to.equal(true);
    for (const line of legal) expect(email.html).to.contain(line);
    expect(`${email.text}${email.html}`).not.to.contain('northstar-converge.com').and.not.contain('5557 2100');
  });

  it('says the call lasts 60 minutes, not that it starts in 60 minutes', () => {
    const email = renderConfirmation(booking, options);
    expect(email.text).to.contain('In a 60-minute call we walk through').and.not.contain('In 60 minutes');
  });
});

describe('the confirmation e-mail, its calendar links', () => {
  it('offers Google Calendar, Outlook and the .ics download, in the text and as buttons', () => {
    const email = renderConfirmation(booking, { ...options, timeZone: 'Europe/Berlin' });
    const google = / {2}Google Calendar: (\S+)/.exec(email.text)?.[1] ?? '';
    const outlook = / {2}Outlook: (\S+)/.exec(email.text)?.[1] ?? '';
    expect(new URL(google).searchParams.get('dates')).to.equal('20261124T140000Z/20261124T150000Z');
    expect(new URL(google).searchParams.get('text')).to.equal('Converge demo for Analytical Engines');
    expect(new URL(outlook).searchParams.get('startdt')).to.equal('2026-11-24T14:00:00.000Z');
    expect(email.text).to.contain(`  Other calendars (.ics): ${options.inviteUrl}`);
    for (const [href, label] of [
      [google, 'Google Calendar'],
      [outlook, 'Outlook'],
      [options.inviteUrl, 'Other calendars (.ics)'],
    ] as const) {
      expect(email.html)
        .to.contain(`href="${href.replace(/&/g, '&amp;')}"`)
        .and.contain(`>${label}</a>`);
    }
  });
});

describe('the cancellation e-mail', () => {
  it('says what was cancelled, how to book again, and whom to reach (mail and phone), in the text and the HTML', () => {
    const email = renderCancellation(booking, options);
    expect(email.text).to.contain('Your demo of Converge for Analytical Engines at this time is cancelled:');
    expect(email.text).to.contain('  Book a new demo: https://converge.example.com/');
    expect(email.text).to.contain('Write to sales@converge.example.com or call +1 555 0100');
    expect(email.text).to.contain('https://converge.example.com/legal/privacy');
    expect(email.html).to.contain('<a href="mailto:sales@converge.example.com">sales@converge.example.com</a>');
    expect(email.html).to.contain('<a href="tel:+15550100">+1 555 0100</a>');
    expect(email.html).to.contain('<a href="https://converge.example.com/legal/privacy">privacy policy</a>');
  });
});
