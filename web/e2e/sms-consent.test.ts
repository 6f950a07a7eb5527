/**
 * The texts' consent in the dialog of a site that sends texts (SMPP_URL), in Chromium against the real API: an
 * unticked box under the phone, reached and ticked from the keyboard, named by its words; ticked without a phone it
 * asks for the number beside the phone; ticked with a mobile number the booking keeps the consent. Axe clean.
 */
import { expect } from 'chai';
import { SMS_CONSENT_TEXT, SMS_PHONE_REQUIRED } from '../../domain/demo-request.js';
import type { Stack, StackOptions } from '../../test/stack.js';
import { axeViolations, type WatchedPage } from './browser.js';
import { chooseFirstBookableSlot, fillRequired, openDialog } from './dialog.js';
import { useBrowserSuite, type Visit } from './suite.js';

const open: WatchedPage[] = [];

describe('the texts’ consent in the dialog, in Chromium', function () {
  this.timeout(60_000);
  // An SMSC nobody answers at: the API only needs to know that texts are sent.
  const stackOptions: StackOptions = { env: { SMPP_URL: 'smpp://converge:secret@127.0.0.1:9', SMS_FROM: 'Converge' } };
  let stack: Stack | undefined;
  const visit: Visit = useBrowserSuite(open, (parts) => (stack = parts.stack), { stack: stackOptions });

  it('offers an unticked consent under the phone, ticked from the keyboard, and books with it', async () => {
    const { page } = await visit();
    const dialog = await openDialog(page);
    const consent = dialog.getByRole('checkbox', { name: SMS_CONSENT_TEXT });
    expect(await consent.isChecked()).to.equal(false);
    await fillRequired(dialog, 'Ada Lovelace', 'ada@analytical-engines.com', 'Analytical Engines');
    await chooseFirstBookableSlot(dialog);
    // From the phone, the next stop of the keyboard is the consent; Space ticks it.
    await dialog.getByLabel('Phone').focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name)).to.equal('smsConsent');
    await page.keyboard.press('Space');
    expect(await consent.isChecked()).to.equal(true);
    expect(await axeViolations(page)).to.deep.equal([]);

    // Ticked without a number: asked for beside the phone, which takes the focus.
    await dialog.getByRole('button', { name: 'Request Demo' }).click();
    await dialog.getByText(SMS_PHONE_REQUIRED).waitFor();
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name)).to.equal('phone');
    expect(await axeViolations(page)).to.deep.equal([]);

    await dialog.getByLabel('Phone').fill('+33 6 12 34 56 78');
    const booked = page.waitForResponse((answer) => answer.url().endsWith('/api/demo-request'));
    await dialog.getByRole('button', { name: 'Request Demo' }).click();
    const answer = await booked;
    expect(answer.status()).to.equal(201);
    expect(JSON.parse(answer.request().postData() ?? '{}')).to.include({
      phone: '+33 6 12 34 56 78',
      smsConsent: true,
    });
    const row = await stack!.db('bookings').where({ email: 'ada@analytical-engines.com' }).first('sms_phone');
    expect(row).to.deep.equal({ sms_phone: '+33612345678' });
  });
});
