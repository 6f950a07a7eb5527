/**
 * The Request Demo dialog with routing questions (issue 38), in Chromium against the real API, PostgreSQL and a
 * CalDAV server (xandikos): the questions come before the calendar, the calendar shows only the slots of the route
 * the e-mail and the answers select, and a disqualified prospect reads the route's words instead of a calendar.
 */
import { expect } from 'chai';
import type { Locator, Page } from 'playwright-core';
import { eventIcs } from '../../test/caldav-server.js';
import { startTeamCalendars, type TeamCalendars } from '../../test/team-calendars.js';
import type { Stack, StackOptions } from '../../test/stack.js';
import { axeViolations, type WatchedPage } from './browser.js';
import { dayTile, fillRequired, firstBookableLabel } from './dialog.js';
import { useBrowserSuite, type Visit } from './suite.js';

const DISQUALIFIED = 'Thank you! Our team will reach out by e-mail.';
const HOUR_MS = 60 * 60_000;
/** An instant as iCalendar's UTC form (20261021T070000Z). */
const icsTime = (ms: number) => new Date(ms).toISOString().replace(/[-:]/g, '').replace('.000', '');

const open: WatchedPage[] = [];

describe('the dialog with routing questions, in Chromium', function () {
  this.timeout(60_000);
  let team: TeamCalendars;
  let stack: Stack;
  // The day booked on and its slots (the real clock's), and the one where Anna alone (outside the route) is free.
  const { label, slots } = firstBookableLabel();
  const onlyAnnaFree = slots[2]!;
  const stackOptions: StackOptions = {};
  before(async function () {
    this.timeout(30_000);
    const fullNames: Record<string, string> = { Anna: 'Anna Berg', Ben: 'Ben Okafor' };
    team = await startTeamCalendars({
      hosts: ['Anna', 'Ben'],
      hostName: (name) => fullNames[name]!,
      file: {
        questions: [
          { id: 'companySize', label: 'Company size', options: ['1-49', '50-499', '500-4999', '5000+'] },
          { id: 'region', label: 'Region', options: ['Europe', 'North America', 'Asia Pacific', 'Other'] },
        ],
        routes: [
          { when: { emailDomain: ['competitor.example'] }, disqualify: DISQUALIFIED },
          { when: { companySize: ['5000+'] }, hosts: ['ben@converge.test'] },
          { hosts: '*' },
        ],
      },
    });
    const server = team.caldav;
    const { anna, ben } = team.calendars as { anna: string; ben: string };
    const first = Date.parse(slots[0]!);
    const held = Date.parse(onlyAnnaFree);
    const last = Date.parse(slots[slots.length - 1]!) + HOUR_MS;
    // Anna is busy all day but at that slot; Ben, the big companies' host, is busy at that slot alone.
    await server.putEvent(
      anna,
      'before',
      eventIcs('before@test', `DTSTART:${icsTime(first)}`, `DTEND:${icsTime(held)}`),
    );
    await server.putEvent(
      anna,
      'after',
      eventIcs('after@test', `DTSTART:${icsTime(held + HOUR_MS)}`, `DTEND:${icsTime(last)}`),
    );
    await server.putEvent(
      ben,
      'held',
      eventIcs('held@test', `DTSTART:${icsTime(held)}`, `DTEND:${icsTime(held + HOUR_MS)}`),
    );
    stackOptions.env = { TEAM_FILE: team.teamFile };
  });
  const visit: Visit = useBrowserSuite(
    open,
    (parts) => {
      stack = parts.stack;
    },
    { stack: stackOptions },
  );
  after(async () => {
    await team?.stop();
  });

  /** Opens the dialog and waits for its questions (they follow GET /api/routing). */
  async function openWithQuestions(page: Page): Promise<Locator> {
    await page.getByRole('main').getByRole('link', { name: 'Request Demo' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Request Demo' });
    await dialog.getByRole('group', { name: 'Company size' }).waitFor();
    return dialog;
  }
  const slotInput = (dialog: Locator, iso: string) => dialog.locator(`input[name="timeSlot"][value="${iso}"]`);

  it('asks the questions before the calendar, accessibly, and says beside each what is missing', async () => {
    const { page } = await visit();
    const dialog = await openWithQuestions(page);
    expect(await dialog.getByRole('button', { name: 'Next month' }).count(), 'no calendar yet').to.equal(0);
    const size = dialog.getByRole('group', { name: 'Company size' });
    expect(await size.getByRole('radio').count()).to.equal(4);
    expect(await axeViolations(page)).to.deep.equal([]);
    await fillRequired(dialog, 'Ada Lovelace', 'ada@bank.example', 'Bank');
    await dialog.getByRole('button', { name: 'Show available times' }).click();
    await dialog.getByText('Please choose your company size.').waitFor();
    expect(await dialog.getByText('Please choose your region.').count()).to.equal(1);
    // The focus is on the first question, and the arrow keys choose within it.
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value)).to.equal('1-49');
    await page.keyboard.press('ArrowRight');
    expect(await size.getByRole('radio', { name: '50-499' }).isChecked()).to.equal(true);
    expect(await dialog.getByText('Please choose your company size.').count()).to.equal(0);
    expect(await axeViolations(page)).to.deep.equal([]);
  });

  it("shows only the route's slots (not one where only a host outside it is free) and books its host", async () => {
    const everyone = (await (await fetch(`${stack.url}/api/slots?date=${slots[0]!.slice(0, 10)}`)).json()) as {
      slots: { start: string; available: boolean }[];
    };
    expect(everyone.slots.find((slot) => slot.start === onlyAnnaFree)?.available, 'free for Anna').to.equal(true);
    const { page } = await visit();
    const urls: string[] = [];
    page.on('request', (request) => urls.push(request.url()));
    const dialog = await openWithQuestions(page);
    await fillRequired(dialog, 'Grace Hopper', 'grace@bank.example', 'Big Bank');
    await dialog.getByRole('group', { name: 'Company size' }).getByRole('radio', { name: '5000+' }).check();
    await dialog.getByRole('group', { name: 'Region' }).getByRole('radio', { name: 'Europe' }).check();
    await dialog.getByRole('button', { name: 'Show available times' }).click();
    await dialog.getByRole('button', { name: 'Next month' }).waitFor();
    for (let i = 0; i < 2 && (await dayTile(dialog, label).count()) === 0; i += 1)
      await dialog.getByRole('button', { name: 'Next month' }).click();
    await dayTile(dialog, label).click();
    await slotInput(dialog, slots[1]!).waitFor();
    await dialog.locator('fieldset[aria-busy="true"]').waitFor({ state: 'detached' });
    expect(await slotInput(dialog, onlyAnnaFree).isDisabled(), 'Anna is outside the route').to.equal(true);
    expect(await slotInput(dialog, slots[1]!).isDisabled()).to.equal(false);
    await slotInput(dialog, slots[1]!).check();
    const booked = page.waitForResponse((answer) => answer.url().endsWith('/api/demo-request'));
    await dialog.getByRole('button', { name: 'Request Demo' }).click();
    const answer = await booked;
    expect(answer.status()).to.equal(201);
    expect(JSON.parse(answer.request().postData() ?? '{}')).to.deep.include({
      answers: { companySize: '5000+', region: 'Europe' },
    });
    const status = page.getByRole('status').filter({ hasText: 'Demo Request Submitted' });
    await status.waitFor();
    expect(await status.textContent()).to.contain('You will meet Ben Okafor, Solutions Engineer.');
    expect(urls.some((url) => url.includes('route='))).to.equal(true);
    expect(
      urls.filter((url) => url.includes('@') || url.includes('%40')),
      'no address in a URL',
    ).to.deep.equal([]);
  });

  it("shows a disqualified prospect the route's words instead of a calendar, with the focus on them", async () => {
    const { page } = await visit();
    const dialog = await openWithQuestions(page);
    await fillRequired(dialog, 'Eve Analyst', 'eve@eu.competitor.example', 'Competitor');
    await dialog.getByRole('group', { name: 'Company size' }).getByRole('radio', { name: '5000+' }).check();
    await dialog.getByRole('group', { name: 'Region' }).getByRole('radio', { name: 'Other' }).check();
    await dialog.getByRole('button', { name: 'Show available times' }).click();
    const message = dialog.getByRole('alert').filter({ hasText: DISQUALIFIED });
    await message.waitFor();
    expect(await message.evaluate((element) => element === document.activeElement)).to.equal(true);
    expect(await dialog.getByRole('button', { name: 'Next month' }).count()).to.equal(0);
    expect(await dialog.locator('input[name="timeSlot"]').count()).to.equal(0);
    expect(await axeViolations(page)).to.deep.equal([]);
  });

  it('asks the questions again when the slot list refuses the route key, and forgets the route with the address', async () => {
    const { page } = await visit();
    // The key altered on its way, as a stale or forged one would be: the real slot list refuses it.
    const forged = /\/api\/slots\?.*route=/;
    await page.route(forged, (route) => {
      const url = new URL(route.request().url());
      url.searchParams.set('route', `${url.searchParams.get('route')!.slice(0, -3)}AAA`);
      return route.continue({ url: url.toString() });
    });
    const dialog = await openWithQuestions(page);
    await fillRequired(dialog, 'Grace Hopper', 'grace@bank.example', 'Big Bank');
    await dialog.getByRole('group', { name: 'Company size' }).getByRole('radio', { name: '5000+' }).check();
    await dialog.getByRole('group', { name: 'Region' }).getByRole('radio', { name: 'Europe' }).check();
    const showTimes = dialog.getByRole('button', { name: 'Show available times' });
    await showTimes.click();
    await dialog.getByRole('button', { name: 'Next month' }).waitFor();
    for (let i = 0; i < 2 && (await dayTile(dialog, label).count()) === 0; i += 1)
      await dialog.getByRole('button', { name: 'Next month' }).click();
    await dayTile(dialog, label).click();
    await dialog.getByText('Answer the questions again').waitFor();
    expect(await dialog.locator('input[name="timeSlot"]').count(), 'no slot of a refused key').to.equal(0);
    await page.unroute(forged);
    await showTimes.click();
    // The day stays chosen, and its slots come with the new key (the first: the route's host took the second above).
    await slotInput(dialog, slots[0]!).waitFor();
    await dialog.locator('fieldset[aria-busy="true"]').waitFor({ state: 'detached' });
    expect(await slotInput(dialog, slots[0]!).isDisabled()).to.equal(false);
    expect(await dialog.getByText('Answer the questions again').count()).to.equal(0);
    // Another address may have another route: the calendar goes until the times are asked for again.
    await dialog.getByLabel('Email', { exact: true }).fill('grace@other-bank.example');
    await showTimes.waitFor();
    expect(await dialog.getByRole('button', { name: 'Next month' }).count()).to.equal(0);
  });
});
