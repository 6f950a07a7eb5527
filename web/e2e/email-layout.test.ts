/**
 * The e-mails as a phone shows them: every kind rendered by the worker's templates, opened in Chromium at 375 px
 * and at a desktop width. Nothing may run off the side, the brand's mark and the buttons must show, nothing but the
 * mark's PNG is fetched (from the site, here answered with the one the build draws), and the HTML passes axe-core.
 */
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { renderCancellation, renderReminder, renderUpdate } from '../../worker/email/booking-changes.js';
import { renderConfirmation } from '../../worker/email/confirmation.js';
import { renderHostCancellation, renderHostInvitation } from '../../worker/email/host-emails.js';
import { renderSalesNotice } from '../../worker/email/sales-notice.js';
import { brand, EMAIL_LOGO } from '../../domain/brand.js';
import { emailLogoPng } from '../app/brand-images.js';
import { axeViolations, launchBrowser, openPage } from './browser.js';

const booking = {
  id: '5b7a2f1e-0c1d-4e2f-8a9b-0c1d2e3f4a5b',
  // Long words are what overflow a narrow column.
  name: 'Maximilian Alexander Featherstonehaugh-Wolfeschlegelsteinhausen',
  email: 'maximilian.featherstonehaugh@international-telecommunications-consortium.com',
  company: 'International Telecommunications Consortium Holdings',
  timeSlot: new Date('2026-11-24T14:00:00Z'),
};
const options = {
  timeZone: 'Europe/Berlin',
  mailFrom: 'Converge Demos <demos@converge.example.com>',
  publicUrl: 'https://converge.example.com',
  contact: brand.company.contact,
  now: new Date('2026-11-23T10:00:00Z'),
  inviteUrl: 'https://converge.example.com/api/bookings/aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5zA7bC9d/invite.ics',
  manageUrl: 'https://converge.example.com/booking/aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5zA7bC9d',
  sequence: 1,
};
const lead = {
  ...booking,
  phone: '+49 30 1234 5678',
  message: 'We run forty contact centres across Europe and want to consolidate SMS, WhatsApp and voice.',
  attribution: {
    utm_source: 'newsletter',
    referrer: 'https://news.example.com/a-very-long-path/with-many-segments/and-a-query?x=1',
  },
  status: 'booked' as const,
  sequence: 1,
};

const EMAILS: [string, string, boolean][] = [
  ['confirmation', renderConfirmation(booking, options).html, true],
  ['update', renderUpdate(booking, options).html, true],
  ['reminder', renderReminder(booking, options).html, true],
  ['cancellation', renderCancellation(booking, options).html, false],
  ['sales notice', renderSalesNotice(lead, 'booked', options).html, false],
];

describe('the e-mails on a phone and on a desktop', function () {
  this.timeout(60_000);
  let browser: Browser;
  const logo = `${options.publicUrl}${EMAIL_LOGO.path}`;
  const logoPng = emailLogoPng();
  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    await browser.close();
  });

  for (const [kind, html, manages] of EMAILS) {
    for (const width of [375, 1280]) {
      it(`shows the ${kind} whole at ${width} px: mark, buttons, nothing off the side or fetched but the mark`, async () => {
        const { page, close } = await openPage(browser, { viewport: { width, height: 800 } });
        try {
          const requests: string[] = [];
          page.on('request', (request) => requests.push(request.url()));
          await page.route(logo, (route) => route.fulfill({ contentType: 'image/png', body: logoPng }));
          await page.setContent(html, { waitUntil: 'load' });
          const layout = await page.evaluate(() => ({
            scrollWidth: document.documentElement.scrollWidth,
            mark: [...document.images].map((image) => ({
              width: image.getBoundingClientRect().width,
              drawn: image.naturalWidth,
              alt: image.alt,
            })),
            buttons: [...document.querySelectorAll('a')].map((link) => {
              const box = link.getBoundingClientRect();
              return { text: link.textContent ?? '', right: box.right, width: box.width };
            }),
            smallestText: Math.min(
              ...[...document.querySelectorAll('p, td, li, h1, h2')].map((element) =>
                parseFloat(getComputedStyle(element).fontSize),
              ),
            ),
          }));
          expect(layout.scrollWidth, 'page width').to.be.at.most(width);
          expect(layout.mark, 'the mark, drawn from its PNG at twice its size').to.deep.equal([
            { width: EMAIL_LOGO.size, drawn: EMAIL_LOGO.size * EMAIL_LOGO.scale, alt: 'Converge logo' },
          ]);
          for (const button of layout.buttons) expect(button.right, button.text).to.be.at.most(width);
          expect(layout.buttons.some((button) => button.text === 'Reschedule or cancel')).to.equal(manages);
          expect(layout.smallestText).to.be.at.least(12);
          expect(requests.filter((url) => !url.startsWith('about:') && !url.startsWith('data:'))).to.deep.equal([logo]);
          if (width === 375) expect(await axeViolations(page)).to.deep.equal([]);
        } finally {
          await close();
        }
      });
    }
  }
});

// What a person typed, made to look like markup: every e-mail shows it as the words it is.
const HOSTILE_NAME = '<script>document.title="owned"</script> Eve';
const HOSTILE_COMPANY = '<b>Evil</b> & "Co" <img src=x onerror=alert(1)>';
const HOSTILE_MESSAGE = '</p><a href="https://evil.example/">Log in here</a>';
const hostile = {
  ...lead,
  name: HOSTILE_NAME,
  company: HOSTILE_COMPANY,
  message: HOSTILE_MESSAGE,
  host: { name: 'Dana Whitfield', title: 'Solutions Engineer', email: 'dana@converge.example.com' },
};
const HOSTILE_EMAILS: [string, string, string[]][] = [
  ['confirmation', renderConfirmation(hostile, options).html, [`Hi ${HOSTILE_NAME.split(' ')[0]},`, HOSTILE_COMPANY]],
  ['update', renderUpdate(hostile, options).html, [HOSTILE_COMPANY]],
  ['reminder', renderReminder(hostile, options).html, [HOSTILE_COMPANY]],
  ['cancellation', renderCancellation(hostile, options).html, [HOSTILE_COMPANY]],
  ['host invitation', renderHostInvitation(hostile, options).html, [HOSTILE_NAME, HOSTILE_COMPANY, HOSTILE_MESSAGE]],
  ['host cancellation', renderHostCancellation(hostile, options).html, [HOSTILE_NAME, HOSTILE_COMPANY]],
  [
    'sales notice',
    renderSalesNotice(hostile, 'booked', options).html,
    [HOSTILE_NAME, HOSTILE_COMPANY, HOSTILE_MESSAGE],
  ],
];

describe('the e-mails, given a name, a company and a message that look like markup', function () {
  this.timeout(60_000);
  let browser: Browser;
  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    await browser.close();
  });

  for (const [kind, html, shown] of HOSTILE_EMAILS) {
    it(`shows them as text in the ${kind}: no script, no element or link of theirs`, async () => {
      const { page, close } = await openPage(browser, {
        viewport: { width: 375, height: 800 },
        javaScriptEnabled: true,
      });
      try {
        await page.route('**/*', (route) => route.abort());
        await page.setContent(html, { waitUntil: 'load' });
        const seen = await page.evaluate(() => ({
          text: document.body.innerText,
          title: document.title,
          scripts: document.querySelectorAll('script').length,
          bold: document.querySelectorAll('b').length,
          images: document.images.length,
          links: [...document.querySelectorAll('a')].map((link) => link.href),
        }));
        for (const words of shown) expect(seen.text, words).to.contain(words);
        expect(seen.title).not.to.equal('owned');
        expect({ scripts: seen.scripts, bold: seen.bold, images: seen.images }).to.deep.equal({
          scripts: 0,
          bold: 0,
          images: 1,
        });
        expect(seen.links.filter((href) => href.includes('evil.example'))).to.deep.equal([]);
      } finally {
        await close();
      }
    });
  }
});
