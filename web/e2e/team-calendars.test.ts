/**
 * The Request Demo dialog with a team (TEAM_FILE), in a real browser against the real API and a real CalDAV server:
 * the success names the host and links the video room; with no calendar readable, the picker says so and names the
 * sales desk, instead of a day that looks fully booked, and stays accessible.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { startTeamCalendars, type TeamCalendars } from '../../test/team-calendars.js';
import type { StackOptions } from '../../test/stack.js';
import { axeViolations, type WatchedPage } from './browser.js';
import { chooseFirstBookableSlot, dayTile, fillRequired, firstBookableLabel, openDialog } from './dialog.js';
import { useBrowserSuite, type Visit } from './suite.js';

const SALES_DESK = 'sales@converge.test';
const open: WatchedPage[] = [];

/** A team of one host whose calendar server refuses every connection (nothing listens on port 1). */
function unreachableTeamFile(): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'converge-team-')), 'team.json');
  const host = {
    name: 'Dana Whitfield',
    title: 'Solutions Engineer',
    email: 'dana@converge.test',
    calendarUrl: 'http://127.0.0.1:1/dana/',
    calendarUsername: 'dana',
    calendarPassword: 'unused',
  };
  writeFileSync(file, JSON.stringify({ hosts: [host] }));
  return file;
}

describe("the dialog when no host's calendar can be read, in Chromium", function () {
  this.timeout(30_000);
  const visit: Visit = useBrowserSuite(open, () => undefined, {
    stack: { env: { TEAM_FILE: unreachableTeamFile(), SALES_NOTIFY_EMAIL: SALES_DESK } },
  });

  it("says it cannot see the team's calendars and names the sales desk, offers no time, and is axe clean", async () => {
    const { page } = await visit();
    const dialog = await openDialog(page);
    const { label } = firstBookableLabel();
    for (let i = 0; i < 2 && (await dayTile(dialog, label).count()) === 0; i += 1)
      await dialog.getByRole('button', { name: 'Next month' }).click();
    await dayTile(dialog, label).click();
    // Said once on screen and once in the picker's live region for screen readers.
    const notice = dialog
      .getByText("We cannot see our team's calendars right now, so we cannot show free times.")
      .first();
    await notice.waitFor();
    const mailto = dialog.getByRole('link', { name: SALES_DESK });
    expect(await mailto.getAttribute('href')).to.equal(`mailto:${SALES_DESK}`);
    expect(await dialog.getByRole('radio').count(), 'no time offered').to.equal(0);
    expect(await dialog.getByText(/fully booked/i).count()).to.equal(0);
    expect(await axeViolations(page)).to.deep.equal([]);
  });
});

describe('the dialog with a team whose calendars read, in Chromium', function () {
  this.timeout(30_000);
  let team: TeamCalendars;
  // Filled in before the suite's stack starts (hooks run in the order they are registered).
  const stackOptions: StackOptions = {};
  before(async function () {
    this.timeout(30_000);
    team = await startTeamCalendars({ hosts: ['Dana'], hostName: () => 'Dana Whitfield' });
    stackOptions.env = { TEAM_FILE: team.teamFile };
  });
  const visit: Visit = useBrowserSuite(open, () => undefined, { stack: stackOptions });
  after(async () => {
    await team?.stop();
  });

  it('says whom the prospect will meet and links the video room in the success message', async () => {
    const { page } = await visit();
    const dialog = await openDialog(page);
    await chooseFirstBookableSlot(dialog);
    await fillRequired(dialog, 'Ada Lovelace', 'ada@analytical-engines.com', 'Analytical Engines');
    await dialog.getByRole('button', { name: 'Request Demo' }).click();
    const status = page.getByRole('status').filter({ hasText: 'Demo Request Submitted' });
    await status.waitFor();
    expect(await status.textContent()).to.contain('You will meet Dana Whitfield, Solutions Engineer.');
    const room = status.getByRole('link', { name: 'Join the video call' });
    expect(await room.getAttribute('href')).to.match(/^https:\/\/meet\.jit\.si\/ConvergeDemo-[a-z2-7]{20}$/);
    expect(await room.getAttribute('target')).to.equal('_blank');
  });
});
