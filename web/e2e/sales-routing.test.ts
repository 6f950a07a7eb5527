/**
 * The sales page's routing, in Chromium against the real API and a real CalDAV server: a booking's answers and its
 * "Why <host>?" disclosure, handing it to another host of its route with the keyboard (a select, then a confirmation),
 * and each host's share of the demos; axe clean throughout.
 * Needs the production build: `npm run build:web`.
 */
import { expect } from 'chai';
import { startTeamCalendars, type TeamCalendars } from '../../test/team-calendars.js';
import { bookableSlots } from '../../test/booking.js';
import type { Stack, StackOptions } from '../../test/stack.js';
import type { RoutingRecord } from '../../domain/routing.js';
import { axeViolations, type WatchedPage } from './browser.js';
import { useBrowserSuite, type Visit } from './suite.js';

const TOKEN = 'sales-routing-operations-token-of-32-characters';
const open: WatchedPage[] = [];

describe("the sales page's routing: why a host, handing a demo on, each host's share (Chromium)", function () {
  this.timeout(90_000);
  let team: TeamCalendars;
  let stack: Stack;
  const stackOptions: StackOptions = { worker: false };
  before(async function () {
    this.timeout(30_000);
    const fullNames: Record<string, string> = { Dana: 'Dana Whitfield', Anna: 'Anna Berg', Lina: 'Lina Okafor' };
    team = await startTeamCalendars({
      hosts: ['Dana', 'Anna', 'Lina'],
      hostName: (name) => fullNames[name]!,
      title: 'Account Executive',
      file: {
        questions: [
          { id: 'companySize', label: 'Company size', options: ['1-49', '5000+'] },
          { id: 'region', label: 'Region', options: ['Europe', 'Other'] },
        ],
      },
    });
    stackOptions.env = { TEAM_FILE: team.teamFile, ADMIN_TOKEN: TOKEN };
  });
  const visit: Visit = useBrowserSuite(open, (parts) => ({ stack } = parts), {
    page: 'admin.html',
    stack: stackOptions,
  });
  after(async () => {
    await team?.stop();
  });

  it('shows the answers and why Dana, hands the demo to Anna from the keyboard, and counts it in the shares', async () => {
    const [slot] = bookableSlots(1);
    const routing: RoutingRecord = {
      rule: 0,
      label: 'companySize: 5000+',
      owner: { email: 'anna@converge.test', source: 'accounts' },
      ownerLookupFailed: false,
      candidates: [
        { email: 'anna@converge.test', name: 'Anna Berg', outcome: 'calendar-unreadable' },
        { email: 'dana@converge.test', name: 'Dana Whitfield', outcome: 'chosen' },
      ],
    };
    await stack.db('bookings').insert({
      name: 'Ada Lovelace',
      email: 'ada@bigbank.example',
      company: 'Big Bank',
      time_slot: new Date(slot!.iso),
      host_email: 'dana@converge.test',
      host_name: 'Dana Whitfield',
      host_title: 'Account Executive',
      answers: { companySize: '5000+', region: 'Europe' },
      routing,
    });

    const { page } = await visit({}, '/admin');
    await page.getByLabel('Operations token').fill(TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const share = page.getByRole('table', { name: /Demos per host/ });
    await share.waitFor();
    const shareOf = (name: string) =>
      share
        .getByRole('row')
        .filter({ has: page.getByRole('rowheader', { name, exact: true }) })
        .locator('td')
        .allTextContents();
    expect(await shareOf('Dana Whitfield')).to.deep.equal(['1', '100%', '1. companySize: 5000+: 1']);
    expect(await shareOf('Lina Okafor')).to.deep.equal(['0', '0%', '—']);

    await page.getByRole('button', { name: 'Ada Lovelace' }).click();
    await page.getByRole('heading', { name: 'Ada Lovelace, Big Bank' }).waitFor();
    const answers = page.getByRole('list', { name: "The prospect's answers" });
    // By the questions' labels, in the team file's order.
    expect(await answers.getByRole('listitem').allTextContents()).to.deep.equal([
      'Company size: 5000+',
      'Region: Europe',
    ]);
    // A native disclosure: closed until asked, opened from the keyboard.
    const why = page.locator('summary', { hasText: 'Why Dana?' });
    await why.focus();
    await page.keyboard.press('Enter');
    const explained = page.locator('details[open]');
    await explained.waitFor();
    expect(await explained.textContent()).to.contain(
      "Route 1 matched: companySize: 5000+. The account's owner is anna@converge.test (found in the accounts file).",
    );
    expect(await page.getByRole('list', { name: 'Candidates' }).getByRole('listitem').allTextContents()).to.deep.equal([
      'Anna Berg (anna@converge.test): their calendar could not be read',
      'Dana Whitfield (dana@converge.test): chosen',
    ]);
    expect(await axeViolations(page)).to.deep.equal([]);

    // Only the route's other host is offered (Lina is on the team, not on the route).
    const select = page.getByLabel('Hand to');
    expect(await select.locator('option').allTextContents()).to.deep.equal([
      'Choose a host',
      'Anna Berg (anna@converge.test)',
    ]);
    await select.focus();
    await select.selectOption('anna@converge.test');
    // Tab to the form's button, and Enter.
    await page.keyboard.press('Tab');
    await page.waitForFunction(() => document.activeElement?.textContent === 'Hand over…');
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('button', { name: 'Confirm: hand to Anna Berg' });
    await confirm.waitFor();
    // The confirmation takes the focus: Enter again hands it over.
    await page.waitForFunction(() => document.activeElement?.textContent === 'Confirm: hand to Anna Berg');
    expect(await page.getByRole('group', { name: 'Confirm the handover' }).textContent()).to.contain(
      'Hand this demo to Anna Berg instead of Dana Whitfield?',
    );
    expect(await axeViolations(page)).to.deep.equal([]);
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Handed to Anna Berg.' }).waitFor();
    await page.getByText('Anna Berg (anna@converge.test)', { exact: true }).waitFor();
    await page.getByText(/Handed from Dana Whitfield to Anna Berg/).waitFor();
    // The disclosure stays open, now about Anna.
    await page.locator('details[open] summary', { hasText: 'Why Anna?' }).waitFor();
    expect(await page.getByRole('list', { name: 'Reassignments' }).textContent()).to.match(
      /handed from dana@converge\.test to anna@converge\.test \(sales page\)/,
    );
    expect(await axeViolations(page)).to.deep.equal([]);

    await page.getByRole('button', { name: 'Back to the bookings' }).click();
    await page.waitForFunction(() =>
      [...document.querySelectorAll('tr')].some((row) => /^Anna Berg1100%/.test(row.textContent ?? '')),
    );
  });
});
