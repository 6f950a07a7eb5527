/**
 * The dialog of a team that routes without questions (routes and an accounts file alone), in Chromium against the
 * real API, PostgreSQL and xandikos: the calendar waits for the e-mail, is asked for once the address is accepted
 * (without taking the focus from the field being typed in), and offers only the account owner's and the route's
 * slots; the booking goes to the owner.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import type { Locator, Page } from 'playwright-core';
import { eventIcs } from '../../test/caldav-server.js';
import { startTeamCalendars, type TeamCalendars } from '../../test/team-calendars.js';
import type { StackOptions } from '../../test/stack.js';
import { axeViolations, type WatchedPage } from './browser.js';
import { dayTile, fillRequired, firstBookableLabel } from './dialog.js';
import { useBrowserSuite, type Visit } from './suite.js';

const HOUR_MS = 60 * 60_000;
/** An instant as iCalendar's UTC form (20261021T070000Z). */
const icsTime = (ms: number) => new Date(ms).toISOString().replace(/[-:]/g, '').replace('.000', '');

const open: WatchedPage[] = [];

describe('the dialog of a team that routes by the e-mail alone, in Chromium', function () {
  this.timeout(60_000);
  let team: TeamCalendars;
  const { label, slots } = firstBookableLabel();
  // At each of these one host alone is free: Anna (the owner of owned.example), Ben (the route's), Cleo (neither's);
  // Anna again at a fourth, for the second test (the first books her at the first).
  const [annaAlone, benAlone, cleoAlone, annaAgain] = [slots[2]!, slots[3]!, slots[4]!, slots[5]!];
  const stackOptions: StackOptions = {};
  before(async function () {
    this.timeout(30_000);
    team = await startTeamCalendars({
      hosts: ['Anna', 'Ben', 'Cleo'],
      hostName: (name) => `${name} Host`,
      file: { routes: [{ label: 'Everyone to Ben', hosts: ['ben@converge.test'] }] },
    });
    const server = team.caldav;
    const busyAt = async (calendar: string, starts: string[]) => {
      for (const start of starts) {
        const at = Date.parse(start);
        await server.putEvent(
          calendar,
          `busy-${at}`,
          eventIcs(`busy-${at}@test`, `DTSTART:${icsTime(at)}`, `DTEND:${icsTime(at + HOUR_MS)}`),
        );
      }
    };
    const calendars = team.calendars as { anna: string; ben: string; cleo: string };
    await busyAt(calendars.anna, [benAlone, cleoAlone]);
    await busyAt(calendars.ben, [annaAlone, cleoAlone, annaAgain]);
    await busyAt(calendars.cleo, [annaAlone, benAlone, annaAgain]);
    const accountsFile = path.join(team.folder, 'accounts.csv');
    await writeFile(accountsFile, 'domain,owner\nowned.example,anna@converge.test\n');
    stackOptions.env = { TEAM_FILE: team.teamFile, ACCOUNTS_FILE: accountsFile };
  });
  const visit: Visit = useBrowserSuite(open, () => {}, { stack: stackOptions });
  after(async () => {
    await team?.stop();
  });

  async function openDialog(page: Page): Promise<Locator> {
    await page.getByRole('main').getByRole('link', { name: 'Request Demo' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Request Demo' });
    await dialog.getByText('Enter your email above to see the times our team has for you.').waitFor();
    return dialog;
  }
  const slotInput = (dialog: Locator, iso: string) => dialog.locator(`input[name="timeSlot"][value="${iso}"]`);
  async function showDay(dialog: Locator): Promise<void> {
    await dialog.getByRole('button', { name: 'Next month' }).waitFor();
    for (let i = 0; i < 2 && (await dayTile(dialog, label).count()) === 0; i += 1)
      await dialog.getByRole('button', { name: 'Next month' }).click();
    await dayTile(dialog, label).click();
    await slotInput(dialog, annaAlone).waitFor();
    await dialog.locator('fieldset[aria-busy="true"]').waitFor({ state: 'detached' });
  }
  const enabled = async (dialog: Locator) =>
    Object.fromEntries(
      await Promise.all(
        [annaAlone, benAlone, cleoAlone, annaAgain].map(async (iso) => [
          iso,
          !(await slotInput(dialog, iso).isDisabled()),
        ]),
      ),
    );

  it("shows an owned domain the owner's and the route's slots once its address is accepted, and books the owner", async () => {
    const { page } = await visit();
    const urls: string[] = [];
    page.on('request', (request) => urls.push(request.url()));
    const dialog = await openDialog(page);
    expect(await dialog.getByRole('button', { name: 'Next month' }).count(), 'no calendar before the e-mail').to.equal(
      0,
    );
    expect(await dialog.getByRole('group', { name: 'Company size' }).count(), 'no questions').to.equal(0);
    await fillRequired(dialog, 'Grace Hopper', 'grace@eu.owned.example', 'Owned Inc');
    await dialog.getByRole('button', { name: 'Next month' }).waitFor();
    // Asked on its own: the focus stays in the field being typed in.
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name)).to.equal('company');
    await showDay(dialog);
    expect(await enabled(dialog)).to.deep.equal({
      [annaAlone]: true,
      [benAlone]: true,
      [cleoAlone]: false,
      [annaAgain]: true,
    });
    expect(await axeViolations(page)).to.deep.equal([]);
    await slotInput(dialog, annaAlone).check();
    const booked = page.waitForResponse((answer) => answer.url().endsWith('/api/demo-request'));
    await dialog.getByRole('button', { name: 'Request Demo' }).click();
    const answer = await booked;
    expect(answer.status()).to.equal(201);
    expect(JSON.parse(answer.request().postData() ?? '{}')).not.to.have.property('answers');
    const status = page.getByRole('status').filter({ hasText: 'Demo Request Submitted' });
    await status.waitFor();
    expect(await status.textContent()).to.contain('You will meet Anna Host, Solutions Engineer.');
    expect(
      urls.filter((url) => url.includes('@') || url.includes('%40')),
      'no address in a URL',
    ).to.deep.equal([]);
  });

  it("shows another prospect the route's slots alone, and asks again for a changed address", async () => {
    const { page } = await visit();
    const dialog = await openDialog(page);
    await fillRequired(dialog, 'Ada Lovelace', 'ada@startup.example', 'Startup');
    await dialog.getByRole('button', { name: 'Next month' }).waitFor();
    await showDay(dialog);
    expect(await enabled(dialog)).to.deep.equal({
      [annaAlone]: false,
      [benAlone]: true,
      [cleoAlone]: false,
      [annaAgain]: false,
    });
    // Another address may have another route: the calendar goes, and comes back with it once it is accepted.
    await dialog.getByLabel('Email', { exact: true }).fill('ada@owned.example');
    await dialog.getByText('Enter your email above to see the times our team has for you.').waitFor();
    await dialog.getByLabel('Company', { exact: true }).focus();
    await showDay(dialog);
    // Anna holds the first test's demo at the first slot; the fourth is hers.
    expect(await enabled(dialog)).to.deep.equal({
      [annaAlone]: false,
      [benAlone]: true,
      [cleoAlone]: false,
      [annaAgain]: true,
    });
  });
});
