/**
 * The sales page shows a booking's texts (issue 40), in Chromium against the real API: the number the prospect
 * agreed to be texted at, the words they ticked and when, and the STOP the number sent; axe clean.
 * Needs the production build: `npm run build:web`.
 */
import { expect } from 'chai';
import type { Stack } from '../../test/stack.js';
import { DEFAULT_BOOKING_TIME_ZONE } from '../../domain/booking.js';
import { SMS_CONSENT_TEXT } from '../../domain/demo-request.js';
import { axeViolations, type WatchedPage } from './browser.js';
import { useBrowserSuite, type Visit } from './suite.js';

const TOKEN = 'sales-texts-operations-token-of-32-characters';
const DAY = 86_400_000;

let stack: Stack;
const open: WatchedPage[] = [];
const visit: Visit = useBrowserSuite(open, (parts) => ({ stack } = parts), {
  page: 'admin.html',
  stack: { worker: false, env: { ADMIN_TOKEN: TOKEN } },
});

/** As the sales page writes an instant: in the booking zone. */
const shown = (at: Date) =>
  new Intl.DateTimeFormat('en-GB', {
    timeZone: DEFAULT_BOOKING_TIME_ZONE,
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(at);

describe('the sales page shows a booking’s texts (Chromium)', () => {
  it('shows the number, the words ticked and when, and the STOP, as a list of terms under its own heading', async function () {
    this.timeout(90_000);
    const now = Date.now();
    const consentAt = new Date(now - 2 * DAY);
    const optedOutAt = new Date(now - DAY);
    await stack.db('bookings').insert([
      {
        name: 'Mary Jackson',
        email: 'mary@langley.org',
        company: 'Langley Research',
        phone: '+33612345678',
        time_slot: new Date(now + 3 * DAY),
        created_at: consentAt,
        sms_phone: '+33612345678',
        sms_consent_text: SMS_CONSENT_TEXT,
        sms_consent_at: consentAt,
      },
      {
        name: 'Annie Easley',
        email: 'annie@langley.org',
        company: 'Langley Research',
        time_slot: new Date(now + 4 * DAY),
      },
    ]);
    await stack.db('sms_opt_outs').insert({ phone: '+33612345678', opted_out_at: optedOutAt });

    const { page, cspViolations } = await visit({}, '/admin');
    await page.getByLabel('Operations token').fill(TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Mary Jackson' }).click();
    const texts = page.getByRole('region', { name: 'Texts', exact: true });
    await page.getByRole('heading', { name: 'Texts', level: 3 }).waitFor();
    // Each value by its term, as a screen reader pairs them.
    const definitions = await texts
      .locator('dl')
      .evaluate((list) =>
        Object.fromEntries(
          Array.from(list.querySelectorAll('dt'), (term) => [term.textContent, term.nextElementSibling?.textContent]),
        ),
      );
    expect(definitions).to.deep.equal({
      Number: '+33612345678',
      'Words agreed to': `“${SMS_CONSENT_TEXT}”`,
      Agreed: shown(consentAt),
      'Opted out (STOP)': `${shown(optedOutAt)}: no text goes to this number any more`,
    });
    // Without the texts in the answer (as the admin API gives it today), no table of them.
    expect(await page.getByRole('table', { name: 'Texts sent' }).count()).to.equal(0);
    expect(await axeViolations(page)).to.deep.equal([]);

    await page.getByRole('button', { name: 'Back to the bookings' }).click();
    await page.getByRole('button', { name: 'Annie Easley' }).click();
    await texts.getByText('The prospect did not agree to texts').waitFor();
    expect(await texts.locator('dl').count()).to.equal(0);
    expect(await cspViolations()).to.deep.equal([]);
  });

  it('shows the texts and their counts when the answer carries them, axe clean', async function () {
    this.timeout(90_000);
    // The admin API is being given the texts of a booking and their counts (issue 40, in parallel): until it gives
    // them, the real answer goes to the page with them added, as they are to come.
    const sentAt = new Date(Date.now() - DAY);
    const { page, cspViolations } = await visit({}, '/admin');
    await page.route(/\/api\/admin\/bookings\/[0-9a-f-]{36}$/, async (route) => {
      const answer = await route.fetch();
      const booking = (await answer.json()) as { sms: Record<string, unknown> | null };
      if (booking.sms)
        booking.sms = {
          ...booking.sms,
          delivered: 1,
          failed: 1,
          texts: [
            {
              kind: 'sms-confirmation',
              sentAt: sentAt.toISOString(),
              state: 'delivered',
              stateAt: sentAt.toISOString(),
            },
            { kind: 'sms-update', sentAt: sentAt.toISOString(), state: 'undeliverable', stateAt: sentAt.toISOString() },
          ],
        };
      await route.fulfill({ response: answer, json: booking });
    });
    await page.getByLabel('Operations token').fill(TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Mary Jackson' }).click();
    const table = page.getByRole('table', { name: 'Texts sent' });
    await table.waitFor();
    const rows = await table
      .getByRole('row')
      .evaluateAll((all) => all.map((row) => Array.from(row.children, (cell) => cell.textContent)));
    expect(rows).to.deep.equal([
      ['Kind', 'Sent', 'Receipt'],
      ['Confirmation', shown(sentAt), `delivered (${shown(sentAt)})`],
      ['Update', shown(sentAt), `undeliverable (${shown(sentAt)})`],
    ]);
    const texts = page.getByRole('region', { name: 'Texts', exact: true });
    await texts.getByText('Delivered', { exact: true }).waitFor();
    expect(await axeViolations(page)).to.deep.equal([]);
    expect(await cspViolations()).to.deep.equal([]);
  });
});
