/**
 * Every kind of e-mail as Chromium shows it, for comparing the look before and after a change to the templates.
 *
 *   npx tsx scripts/email-screenshots.ts shoot DIR     renders each kind to DIR/KIND.html, .txt and -WIDTH.png
 *   npx tsx scripts/email-screenshots.ts compare A B   compares the PNGs of A and B pixel by pixel
 *
 * Shoot on the old commit, then on the new one, then compare: a difference names the kind, the width, how many pixels
 * differ and where. Full-page shots at a phone's width and a desktop's; the mark is answered with the PNG the build draws.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brand, EMAIL_LOGO } from '../domain/brand.js';
import { emailLogoPng } from '../web/app/brand-images.js';
import { launchBrowser } from '../web/e2e/browser.js';
import { renderCancellation, renderReminder, renderUpdate } from '../worker/email/booking-changes.js';
import { renderConfirmation } from '../worker/email/confirmation.js';
import { renderHostCancellation, renderHostInvitation } from '../worker/email/host-emails.js';
import { renderSalesNotice } from '../worker/email/sales-notice.js';
import type { Lead } from '../worker/delivery-row.js';

const WIDTHS = [375, 1440];

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
const lead: Lead = {
  id: '5b7a2f1e-0c1d-4e2f-8a9b-0c1d2e3f4a5b',
  name: 'Grace Hopper',
  email: 'grace@hopper-systems.com',
  company: 'Hopper Systems & Sons <Europe>',
  timeSlot: new Date('2026-11-24T14:00:00Z'),
  visitorTimeZone: 'America/Los_Angeles',
  meetingUrl: 'https://meet.jit.si/ConvergeDemo-abcdefghij2345672345',
  host: { name: 'Dana Whitfield', title: 'Solutions Engineer', email: 'dana@converge.example.com' },
  phone: '+49 30 1234 5678',
  message: 'We run forty contact centres across Europe.\nSMS, WhatsApp & voice: "one inbox" <please>.',
  attribution: { utm_source: 'newsletter', referrer: 'https://news.example.com/a-path?x=1&y=2' },
  status: 'booked',
  sequence: 1,
};
const cancelled: Lead = { ...lead, status: 'cancelled' };
const bare: Lead = { ...lead, host: null, meetingUrl: null, visitorTimeZone: null, message: null, attribution: null };
const hostile: Lead = { ...lead, name: '<script>alert(1)</script> Ada', company: '<b>Evil</b> "Corp" & Co' };
const before = new Date('2026-11-20T09:00:00Z');

const EMAILS: Record<string, () => { html: string; text: string }> = {
  confirmation: () => renderConfirmation(lead, options),
  'confirmation-bare': () => renderConfirmation(bare, options),
  'confirmation-hostile': () => renderConfirmation(hostile, options),
  update: () => renderUpdate(lead, options, before),
  'update-bare': () => renderUpdate(bare, options),
  cancellation: () => renderCancellation(cancelled, options),
  reminder: () => renderReminder(lead, options),
  'host-invitation': () => renderHostInvitation(lead, options),
  'host-invitation-bare': () => renderHostInvitation(bare, options),
  'host-cancellation': () => renderHostCancellation(cancelled, options),
  'host-cancellation-moved': () => renderHostCancellation(lead, options),
  'sales-notice': () => renderSalesNotice(lead, 'booked', options),
  'sales-notice-moved': () => renderSalesNotice(lead, 'rescheduled', options, before),
  'sales-notice-cancelled': () => renderSalesNotice(cancelled, 'cancelled', options),
  'sales-notice-bare': () => renderSalesNotice(bare, 'booked', options),
  'sales-notice-hostile': () => renderSalesNotice(hostile, 'booked', options),
};

async function shoot(dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const browser = await launchBrowser();
  const logo = `${options.publicUrl}${EMAIL_LOGO.path}`;
  const logoPng = emailLogoPng();
  try {
    for (const [kind, render] of Object.entries(EMAILS)) {
      const { html, text } = render();
      writeFileSync(join(dir, `${kind}.html`), html);
      writeFileSync(join(dir, `${kind}.txt`), text);
      for (const width of WIDTHS) {
        const context = await browser.newContext({ viewport: { width, height: 800 } });
        const page = await context.newPage();
        await page.route(logo, (route) => route.fulfill({ contentType: 'image/png', body: logoPng }));
        await page.setContent(html, { waitUntil: 'load' });
        writeFileSync(join(dir, `${kind}-${width}.png`), await page.screenshot({ fullPage: true }));
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
}

interface Difference {
  width: number;
  height: number;
  differing: number;
  box: [number, number, number, number] | null;
}

/** Draws both PNGs on canvases in Chromium and counts the pixels whose colour differs. */
async function compare(a: string, b: string): Promise<number> {
  const browser = await launchBrowser();
  let failures = 0;
  try {
    const page = await browser.newPage();
    for (const file of readdirSync(a).filter((name) => name.endsWith('.png'))) {
      const urls = [a, b].map((dir) => `data:image/png;base64,${readFileSync(join(dir, file)).toString('base64')}`);
      const result = await page.evaluate(async ([first, second]): Promise<Difference | string> => {
        // No named function in here: tsx would wrap it in a helper the page does not have.
        const drawn: ImageData[] = [];
        for (const url of [first!, second!]) {
          const image = new Image();
          image.src = url;
          await image.decode();
          const canvas = document.createElement('canvas');
          canvas.width = image.naturalWidth;
          canvas.height = image.naturalHeight;
          const context = canvas.getContext('2d')!;
          context.drawImage(image, 0, 0);
          drawn.push(context.getImageData(0, 0, canvas.width, canvas.height));
        }
        const [x, y] = drawn as [ImageData, ImageData];
        if (x.width !== y.width || x.height !== y.height)
          return `size ${x.width}×${x.height} against ${y.width}×${y.height}`;
        let differing = 0;
        let box: [number, number, number, number] | null = null;
        for (let i = 0; i < x.data.length; i += 4) {
          if (
            x.data[i] === y.data[i] &&
            x.data[i + 1] === y.data[i + 1] &&
            x.data[i + 2] === y.data[i + 2] &&
            x.data[i + 3] === y.data[i + 3]
          )
            continue;
          differing += 1;
          const px = (i / 4) % x.width;
          const py = Math.floor(i / 4 / x.width);
          box = box
            ? [Math.min(box[0], px), Math.min(box[1], py), Math.max(box[2], px), Math.max(box[3], py)]
            : [px, py, px, py];
        }
        return { width: x.width, height: x.height, differing, box };
      }, urls);
      if (typeof result === 'string' || result.differing > 0) failures += 1;
      console.warn(
        typeof result === 'string'
          ? `${file}: ${result}`
          : `${file}: ${result.width}×${result.height}, ${result.differing} pixels differ${result.box ? ` in ${result.box.join(',')}` : ''}`,
      );
    }
  } finally {
    await browser.close();
  }
  return failures;
}

const [command, first, second] = process.argv.slice(2);
if (command === 'shoot' && first) await shoot(first);
else if (command === 'compare' && first && second) process.exitCode = (await compare(first, second)) > 0 ? 1 : 0;
else {
  console.error('usage: email-screenshots.ts shoot DIR | compare DIR DIR');
  process.exitCode = 2;
}
