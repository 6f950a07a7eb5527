/**
 * The sales page shows a booking's texts (issue 40), in Chromium against the real API: the number the prospect
 * agreed to be texted at, the words they ticked and when, the STOP the number sent, how many texts were delivered or
 * failed, each text with its receipt, and the ones a limit held back; axe clean.
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
const NUMBER = '+33612345678';

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
  it('shows the consent, the STOP, the texts with their receipts and counts, and those held back, as labelled lists and tables', async function () {
    this.timeout(90_000);
    const now = Date.now();
    const consentAt = new Date(now - 3 * DAY);
    const deliveredAt = new Date(now - 3 * DAY + 60_000);
    const movedAt = new Date(now - 2 * DAY);
    const optedOutAt = new Date(now - DAY);
    const slot = new Date(now + 3 * DAY);
    const stored = (await stack
      .db('bookings')
      .insert([
        {
          name: 'Mary Jackson',
          email: 'mary@langley.org',
          company: 'Langley Research',
          phone: NUMBER,
          time_slot: slot,
          created_at: consentAt,
          sms_phone: NUMBER,
          sms_consent_text: SMS_CONSENT_TEXT,
          sms_consent_at: consentAt,
        },
        { name: 'Annie Easley', email: 'annie@langley.org', company: 'Langley Research', time_slot: slot },
      ])
      .returning(['id', 'name'])) as { id: string; name: string }[];
    const mary = stored.find((row) => row.name === 'Mary Jackson')!.id;
    // Its texts as the worker leaves them: the confirmation delivered, the move's update undeliverable, and the
    // reminder the limit of texts to the number held back; then the number's STOP.
    const text = { channel: 'sms', booking_id: mary, recipient: NUMBER, time_slot: slot };
    await stack.db('deliveries').insert([
      {
        ...text,
        kind: 'sms-confirmation',
        sequence: 0,
        created_at: consentAt,
        sent_at: consentAt,
        sms_state: 'delivered',
        sms_state_at: deliveredAt,
      },
      {
        ...text,
        kind: 'sms-update',
        sequence: 1,
        created_at: movedAt,
        sent_at: movedAt,
        sms_state: 'undeliverable',
        sms_state_at: movedAt,
      },
    ]);
    await stack
      .db('sms_withheld')
      .insert({ booking_id: mary, kind: 'sms-reminder', reason: 'number-per-day', at: movedAt });
    await stack.db('sms_opt_outs').insert({ phone: NUMBER, opted_out_at: optedOutAt });

    const { page, cspViolations } = await visit({}, '/admin');
    await page.getByLabel('Operations token').fill(TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Mary Jackson' }).click();
    await page.getByRole('heading', { name: 'Texts', level: 3 }).waitFor();
    const texts = page.getByRole('region', { name: 'Texts', exact: true });
    // Each value by its term, as a screen reader pairs them.
    const definitions = await texts
      .locator('dl')
      .evaluate((list) =>
        Object.fromEntries(
          Array.from(list.querySelectorAll('dt'), (term) => [term.textContent, term.nextElementSibling?.textContent]),
        ),
      );
    expect(definitions).to.deep.equal({
      Number: NUMBER,
      'Words agreed to': `“${SMS_CONSENT_TEXT}”`,
      Agreed: shown(consentAt),
      'Opted out (STOP)': `${shown(optedOutAt)}: no text goes to this number any more`,
      Delivered: '1',
      Failed: '1',
    });
    const rowsOf = (name: string) =>
      texts
        .getByRole('table', { name })
        .getByRole('row')
        .evaluateAll((rows) => rows.map((row) => Array.from(row.children, (cell) => cell.textContent)));
    expect(await rowsOf('Texts sent')).to.deep.equal([
      ['Kind', 'Sent', 'Receipt'],
      ['Confirmation', shown(consentAt), `delivered (${shown(deliveredAt)})`],
      ['Update', shown(movedAt), `undeliverable (${shown(movedAt)})`],
    ]);
    expect(await rowsOf('Texts held back by a limit')).to.deep.equal([
      ['Kind', 'When', 'Why'],
      ['Reminder', shown(movedAt), 'The number had its texts for the day'],
    ]);
    expect(await axeViolations(page)).to.deep.equal([]);

    await page.getByRole('button', { name: 'Back to the bookings' }).click();
    await page.getByRole('button', { name: 'Annie Easley' }).click();
    await texts.getByText('The prospect did not agree to texts').waitFor();
    expect(await texts.locator('dl, table').count()).to.equal(0);
    expect(await axeViolations(page)).to.deep.equal([]);
    expect(await cspViolations()).to.deep.equal([]);
  });
});
