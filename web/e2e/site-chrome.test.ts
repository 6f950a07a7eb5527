/**
 * What surrounds the sections, as a buyer meets it on a phone and on a desktop: the top bar's menu, the footer,
 * and the toasts of the Request Demo dialog, which must never lie over the top bar's button or the dialog's
 * controls. Real browser, real API. Needs the production build: `npm run build:web` (npm test runs it first).
 */
import path from 'node:path';
import { expect } from 'chai';
import type { Locator, Page } from 'playwright-core';
import { brand } from '../../domain/brand.js';
import type { Stack } from '../../test/stack.js';
import { axeViolations, type WatchedPage } from './browser.js';
import { ARTIFACTS, useBrowserSuite, type Visit } from './suite.js';
import { chooseFirstBookableSlot, fillRequired, openDialog } from './dialog.js';

const PHONE = { width: 375, height: 812 };
const DESKTOP = { width: 1440, height: 900 };
/** The widths a toast is tried at, each with a screen height such a device has. */
const TOAST_VIEWPORTS = [PHONE, { width: 768, height: 1024 }, { width: 1024, height: 768 }, DESKTOP];
const SECTION_LINKS = ['Platform', 'Architecture', 'Results', 'Industries'];

let stack: Stack;
const open: WatchedPage[] = [];
let visit: Visit;

type Box = { x: number; y: number; width: number; height: number };

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  if (!box) throw new Error(`${String(locator)} is not on screen`);
  return box;
}

function intersects(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** Whether a click at the element's centre reaches it: nothing, a toast included, lies over it. */
async function reachable(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return hit !== null && element.contains(hit);
  });
}

function menuParts(page: Page) {
  const banner = page.getByRole('banner');
  return {
    button: banner.getByRole('button', { name: 'Menu' }),
    links: banner.getByRole('navigation', { name: 'Sections' }).getByRole('link'),
  };
}

/** The animation the open menu panel runs. */
const menuAnimation = (page: Page) =>
  page.getByRole('navigation', { name: 'Sections' }).evaluate((nav) => getComputedStyle(nav).animationName);
const focusedText = (page: Page) =>
  page.evaluate(() => (document.activeElement as HTMLElement | null)?.innerText ?? '');
const isFocused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);

/** The toast on screen, once it has finished coming in. */
async function settledToast(page: Page): Promise<Locator> {
  const toast = page.locator('.Toastify__toast');
  await toast.waitFor();
  await page.waitForFunction(() => !document.querySelector('.Toastify__toast.Toastify--animate'));
  return toast;
}

/**
 * What the visitor needs while a toast shows: the top bar's Get Started and, when the dialog is open, its close
 * button, its fields and its submit button, each scrolled into the dialog's view as a visitor would. None may meet
 * the toast's box, and each must take a click.
 */
async function expectClearOf(page: Page, toast: Locator, label: string): Promise<void> {
  const toastBox = await boxOf(toast);
  const getStarted = page.getByRole('banner').getByRole('link', { name: 'Get Started' });
  expect(intersects(await boxOf(getStarted), toastBox), `Get Started under the toast ${label}`).to.equal(false);
  const dialog = page.getByRole('dialog', { name: 'Request Demo' });
  if (!(await dialog.isVisible())) return;
  // The dialog fills the screen, its toasts heading it: what must stay clear is its panel, the form's box.
  const panel = dialog.locator('form[novalidate]').locator('..');
  expect(intersects(await boxOf(panel), toastBox), `the dialog under the toast ${label}`).to.equal(false);
  const controls: [string, Locator][] = [
    ['Close', dialog.getByRole('button', { name: 'Close', exact: true })],
    ...['Name', 'Email', 'Company', 'Phone (Optional)', 'Message (Optional)'].map((field): [string, Locator] => [
      field,
      dialog.getByLabel(field, { exact: true }),
    ]),
    ['submit', dialog.getByRole('button', { name: 'Request Demo' })],
  ];
  for (const [name, control] of controls) {
    await control.scrollIntoViewIfNeeded();
    expect(intersects(await boxOf(control), toastBox), `${name} under the toast ${label}`).to.equal(false);
    expect(await reachable(control), `${name} takes a click ${label}`).to.equal(true);
  }
}

describe('the top bar, the footer and the toasts in Chromium', function () {
  this.timeout(60_000);

  visit = useBrowserSuite(open, (started) => ({ stack } = started));

  describe('the menu', () => {
    it('at 375 px: Enter or Space opens the section links, Tab reaches the first, Escape closes them and focus returns (axe-clean open and closed)', async () => {
      const { page, problems } = await visit({ viewport: PHONE });
      await page.waitForLoadState('networkidle');
      const { button, links } = menuParts(page);
      expect(await button.isVisible()).to.equal(true);
      expect(await button.getAttribute('aria-expanded')).to.equal('false');
      const controls = await button.getAttribute('aria-controls');
      expect(await page.locator(`#${controls ?? 'none'}`).getAttribute('aria-label')).to.equal('Sections');
      expect(await links.first().isVisible(), 'links before the menu opens').to.equal(false);
      expect(await axeViolations(page), 'menu closed').to.deep.equal([]);

      for (const key of ['Enter', 'Space']) {
        await button.focus();
        await page.keyboard.press(key);
        await page.locator('button[aria-expanded="true"]').waitFor();
        expect(await links.allInnerTexts(), `links after ${key}`).to.deep.equal(SECTION_LINKS);
        expect(await links.first().isVisible()).to.equal(true);
        await page.keyboard.press('Tab');
        expect(await focusedText(page), `Tab after ${key}`).to.equal('Platform');
        await page.keyboard.press('Escape');
        await page.locator('button[aria-expanded="false"]').waitFor();
        expect(await links.first().isVisible(), `links after Escape (${key})`).to.equal(false);
        expect(await isFocused(button), `focus back on the button (${key})`).to.equal(true);
      }

      // Pressed again, the button closes the menu it opened.
      await page.keyboard.press('Enter');
      await page.locator('button[aria-expanded="true"]').waitFor();
      expect(await menuAnimation(page), 'the panel slides in').to.equal('top-bar-menu-in');
      // The panel under the bar, not over it: the bar's buttons stay in reach.
      expect(await reachable(page.getByRole('banner').getByRole('link', { name: 'Get Started' }))).to.equal(true);
      expect(await axeViolations(page), 'menu open').to.deep.equal([]);
      await page.screenshot({ path: path.join(ARTIFACTS, 'menu-open-375.png') });
      await page.keyboard.press('Enter');
      await page.locator('button[aria-expanded="false"]').waitFor();
      expect(await links.first().isVisible()).to.equal(false);
      expect(problems).to.deep.equal([]);
    });

    it('at 375 px: choosing a link closes the menu and goes to the section; Tab goes on from there; a click outside closes it', async () => {
      const { page } = await visit({ viewport: PHONE, reducedMotion: 'reduce' });
      await page.waitForLoadState('networkidle');
      const { button, links } = menuParts(page);
      await button.click();
      await page.locator('button[aria-expanded="true"]').waitFor();
      expect(await menuAnimation(page), 'no slide with reduced motion').to.equal('none');
      await links.filter({ hasText: 'Results' }).click();
      await page.waitForURL(`${stack.url}/#results`);
      await page.locator('button[aria-expanded="false"]').waitFor();
      expect(await links.first().isVisible()).to.equal(false);
      // The section starts just under the sticky bar.
      expect((await boxOf(page.locator('#results'))).y).to.be.within(60, 70);
      await page.keyboard.press('Tab');
      const afterSection = await page.evaluate(() => {
        const section = document.getElementById('results');
        const focused = document.activeElement;
        return (
          section !== null &&
          focused !== null &&
          focused !== document.body &&
          (section.contains(focused) ||
            (section.compareDocumentPosition(focused) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0)
        );
      });
      expect(afterSection, 'Tab goes on from the section').to.equal(true);

      await button.click();
      await page.locator('button[aria-expanded="true"]').waitFor();
      await page.mouse.click(PHONE.width / 2, PHONE.height - 20);
      await page.locator('button[aria-expanded="false"]').waitFor();
      expect(await links.first().isVisible()).to.equal(false);
    });

    it('at 375 px: opens and closes from the prerendered page, without any script', async () => {
      const { page } = await visit({ viewport: PHONE, javaScriptEnabled: false });
      const { button, links } = menuParts(page);
      await button.click();
      await links.first().waitFor();
      expect(await links.allInnerTexts()).to.deep.equal(SECTION_LINKS);
      await page.keyboard.press('Escape');
      await links.first().waitFor({ state: 'hidden' });
      expect(await isFocused(button)).to.equal(true);
    });

    it('at 1440 px: the links are in the bar, each leading to its section, and there is no menu button', async () => {
      const { page } = await visit({ viewport: DESKTOP });
      await page.waitForLoadState('networkidle');
      const { button, links } = menuParts(page);
      expect(await button.isHidden()).to.equal(true);
      expect(await links.allInnerTexts()).to.deep.equal(SECTION_LINKS);
      for (const link of await links.all()) {
        expect(await link.isVisible()).to.equal(true);
        expect(await reachable(link)).to.equal(true);
        const href = (await link.getAttribute('href')) ?? '';
        expect(await page.locator(href).count(), href).to.equal(1);
      }
      await links.filter({ hasText: 'Architecture' }).click();
      await page.waitForURL(`${stack.url}/#architecture`);
      expect(await axeViolations(page)).to.deep.equal([]);
    });
  });

  describe('the footer', () => {
    const groups = {
      Product: ['Platform', 'Architecture', 'Capabilities', 'Results'],
      Company: ['Why Converge', 'Customer story', 'Industries', 'Contact'],
      Legal: brand.legalLinks.map((link) => link.label),
    };

    it('has the provider, the Product, Company and Legal groups, five social links, the address and the imprint, at 375 and 1440 px (screenshots)', async () => {
      for (const viewport of [PHONE, DESKTOP]) {
        const { page } = await visit({ viewport, reducedMotion: 'reduce' });
        const footer = page.getByRole('contentinfo');
        const text = await footer.innerText();
        expect(text).to.include(`${brand.product} is provided by ${brand.parentProvider}`);
        for (const [title, labels] of Object.entries(groups)) {
          const group = footer.getByRole('navigation', { name: title, exact: true });
          expect(await group.getByRole('heading', { name: title }).isVisible(), title).to.equal(true);
          expect(await group.getByRole('link').allInnerTexts(), title).to.deep.equal(labels);
        }
        const social = footer.getByRole('navigation', { name: 'Social media' }).getByRole('link');
        expect(await social.count()).to.equal(5);
        for (const [index, { network, href }] of brand.socialLinks.entries()) {
          const link = social.nth(index);
          expect(await link.getAttribute('aria-label')).to.equal(`${brand.product} on ${network}`);
          expect(await link.getAttribute('href')).to.equal(href);
          expect(await link.getAttribute('rel')).to.equal('noopener noreferrer');
        }
        const { company } = brand;
        const address = (await footer.locator('address').innerText()).replace(/\s+/g, ' ');
        expect(address).to.equal(
          [company.legalName, ...company.address, company.contact.email, company.contact.phone].join(' '),
        );
        expect(
          await footer
            .locator('address')
            .getByRole('link')
            .evaluateAll((links) => links.map((link) => link.getAttribute('href'))),
        ).to.deep.equal([`mailto:${company.contact.email}`, 'tel:+493055572100']);
        for (const part of [
          `registered office: ${company.registeredOffice}`,
          `${company.register.court}, ${company.register.number}`,
          `Managing directors: ${company.managingDirectors.join(', ')}`,
          `${brand.parentProvider}. All rights reserved.`,
        ]) {
          expect(text, part).to.include(part);
        }
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
          `overflow at ${viewport.width}px`,
        ).to.equal(0);
        // The social icons are lazy images: brought into view, each is drawn; then back to the top for the capture.
        await footer.scrollIntoViewIfNeeded();
        for (const icon of await social.locator('img').all()) {
          await page.waitForFunction((image) => (image as HTMLImageElement).complete, await icon.elementHandle());
          expect(await icon.evaluate((image) => (image as HTMLImageElement).naturalWidth)).to.equal(24);
        }
        await page.evaluate(() => window.scrollTo(0, 0));
        // Cut from the whole page, so the sticky top bar does not lie over the footer's top.
        const clip = await footer.evaluate((element) => {
          const box = element.getBoundingClientRect();
          return { x: 0, y: box.top + window.scrollY, width: box.width, height: box.height };
        });
        await page.screenshot({ path: path.join(ARTIFACTS, `footer-${viewport.width}.png`), fullPage: true, clip });
      }
    });

    it("draws the social icons in the links' colour, white on hover, and black with forced colours on a light theme", async () => {
      const filters = async (media: Parameters<Page['emulateMedia']>[0]) => {
        const { page } = await visit({ viewport: { width: 375, height: 800 } });
        await page.emulateMedia(media);
        const icon = page.locator('.site-footer-social img').first();
        await icon.scrollIntoViewIfNeeded();
        const filter = () => icon.evaluate((image) => getComputedStyle(image).filter);
        const still = await filter();
        await icon.hover();
        return [still, await filter()];
      };
      const white = 'brightness(0) invert(1)';
      expect(await filters({})).to.deep.equal(['none', white]);
      expect(await filters({ forcedColors: 'active', colorScheme: 'dark' })).to.deep.equal(['none', white]);
      expect(await filters({ forcedColors: 'active', colorScheme: 'light' })).to.deep.equal([
        'brightness(0)',
        'brightness(0)',
      ]);
    });

    it('leads only to what exists: sections of the landing page, its own address, legal pages that answer 200; the same on the legal and 404 pages', async () => {
      const { page } = await visit({ viewport: DESKTOP, reducedMotion: 'reduce' });
      const landingIds = new Set(await page.locator('[id]').evaluateAll((nodes) => nodes.map((node) => node.id)));
      const groupLinks = (footerPage: Page) =>
        footerPage
          .getByRole('contentinfo')
          .getByRole('navigation')
          .filter({ hasNot: footerPage.getByRole('link', { name: `${brand.product} on` }) })
          .getByRole('link')
          .evaluateAll((links) =>
            links.map((link) => ({ label: (link as HTMLElement).innerText, href: link.getAttribute('href') ?? '' })),
          );
      const onLanding = await groupLinks(page);
      expect(onLanding).to.have.length(Object.values(groups).flat().length);

      for (const pathname of ['/', '/legal/privacy', '/pricing/enterprise']) {
        await page.goto(stack.url + pathname);
        const links = await groupLinks(page);
        expect(
          links.map((link) => link.label),
          pathname,
        ).to.deep.equal(onLanding.map((link) => link.label));
        const ownIds = new Set(await page.locator('[id]').evaluateAll((nodes) => nodes.map((node) => node.id)));
        for (const { label, href } of links) {
          const where = `${label} (${href}) on ${pathname}`;
          if (href.startsWith('#')) {
            expect(ownIds.has(href.slice(1)), where).to.equal(true);
          } else if (href.startsWith('/#')) {
            expect(pathname, where).to.not.equal('/');
            expect(landingIds.has(href.slice(2)), where).to.equal(true);
          } else {
            expect(href, where).to.match(/^\/legal\/[a-z]+$/);
            expect((await fetch(stack.url + href)).status, where).to.equal(200);
          }
        }
      }

      // From a legal page, a section link leads to that section of the landing page.
      await page.goto(`${stack.url}/legal/terms`);
      await page.getByRole('contentinfo').getByRole('link', { name: 'Customer story' }).click();
      await page.waitForURL(`${stack.url}/#case-study`);
      await page.locator('#case-study').waitFor();
      expect((await boxOf(page.locator('#case-study'))).y).to.be.within(0, 120);
    });
  });

  describe('the time picker', () => {
    it('has one scroll area, the dialog, and its day heading inside the box, at 375 and 1440 px', async () => {
      for (const viewport of [PHONE, DESKTOP]) {
        const label = `at ${viewport.width}px`;
        const { page } = await visit({ viewport });
        const dialog = await openDialog(page);
        await chooseFirstBookableSlot(dialog);
        const group = dialog.getByRole('group', { name: /^Times on / });
        const layout = await group.evaluate((fieldset) => {
          const legend = fieldset.querySelector('legend')!;
          const box = fieldset.getBoundingClientRect();
          const border = parseFloat(getComputedStyle(fieldset).borderTopWidth);
          const heading = legend.getBoundingClientRect();
          // Any element of the group that scrolls on its own.
          const scrollers = [...fieldset.querySelectorAll('*')].filter((element) => {
            const { overflowY } = getComputedStyle(element);
            return (overflowY === 'auto' || overflowY === 'scroll') && element.scrollHeight > element.clientHeight;
          }).length;
          return {
            headingInside:
              heading.top >= box.top + border &&
              heading.bottom <= box.bottom &&
              heading.left >= box.left &&
              heading.right <= box.right,
            scrollers,
          };
        });
        expect(layout, label).to.deep.equal({ headingInside: true, scrollers: 0 });
        // Every slot of the day shows in the group: none cut off by a box of its own.
        const slots = dialog.locator('input[name="timeSlot"]');
        const last = await boxOf(slots.last().locator('..'));
        const groupBox = await boxOf(group);
        expect(last.y + last.height, label).to.be.at.most(groupBox.y + groupBox.height);
      }
    });
  });

  describe('the toasts', () => {
    it("an error toast lies over none of the dialog's controls nor Get Started, at 375, 768, 1024 and 1440 px (screenshots)", async () => {
      for (const viewport of TOAST_VIEWPORTS) {
        const label = `at ${viewport.width}px`;
        const { page } = await visit({ viewport });
        await page.route('**/api/demo-request', (route) =>
          route.fulfill({
            status: 400,
            contentType: 'application/json',
            body: JSON.stringify({
              error: 'Invalid request',
              details:
                'This request could not be booked. Please check the highlighted fields, choose another time or try again in a few minutes.',
            }),
          }),
        );
        const dialog = await openDialog(page, page.getByRole('banner').getByRole('link', { name: 'Get Started' }));
        await fillRequired(dialog, 'Ana Lima', 'ana@northwind-logistics.com', 'Northwind Logistics');
        await chooseFirstBookableSlot(dialog);
        await dialog.getByRole('button', { name: 'Request Demo' }).click();
        const toast = await settledToast(page);
        expect(await toast.getAttribute('role')).to.equal('alert');
        if (viewport.width === PHONE.width || viewport.width === DESKTOP.width) {
          await page.screenshot({ path: path.join(ARTIFACTS, `toast-error-${viewport.width}.png`) });
        }
        // The toast stays up while its box is compared: F8 takes focus to it, which holds its clock.
        await page.keyboard.press('F8');
        await expectClearOf(page, toast, label);
        if (viewport.width === PHONE.width) expect(await axeViolations(page), label).to.deep.equal([]);
      }
    });

    it('the success toast lies over neither Get Started nor, opened again at once, the dialog, at 375, 768, 1024 and 1440 px', async () => {
      for (const [index, viewport] of TOAST_VIEWPORTS.entries()) {
        const label = `at ${viewport.width}px`;
        const { page } = await visit({ viewport });
        const getStarted = page.getByRole('banner').getByRole('link', { name: 'Get Started' });
        const dialog = await openDialog(page, getStarted);
        await fillRequired(dialog, 'Lea Brandt', `lea.${index}@northwind-logistics.com`, 'Northwind Logistics');
        await chooseFirstBookableSlot(dialog);
        await dialog.getByRole('button', { name: 'Request Demo' }).click();
        await dialog.waitFor({ state: 'hidden' });
        const toast = await settledToast(page);
        expect(await toast.innerText()).to.include('Demo Request Submitted');
        if (viewport.width === PHONE.width || viewport.width === DESKTOP.width) {
          await page.screenshot({ path: path.join(ARTIFACTS, `toast-success-${viewport.width}.png`) });
        }
        await page.keyboard.press('F8');
        await expectClearOf(page, toast, `${label}, dialog closed`);
        expect(await reachable(getStarted), `Get Started takes a click ${label}`).to.equal(true);
        await openDialog(page, getStarted);
        expect(await toast.count(), `the toast still up ${label}`).to.equal(1);
        await expectClearOf(page, toast, `${label}, dialog open again`);
      }
    });
  });
});
