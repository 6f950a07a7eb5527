/**
 * The landing page's sections in Chromium at a phone's and a desktop's width, against the real API: one demo length,
 * counters that never show a row of zeros, neighbouring sections of different shapes, the customers' wordmarks and
 * the case study's quote. Needs the production build: `npm run build:web` (npm test runs it first).
 */
import path from 'node:path';
import { expect } from 'chai';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { SLOT_DURATION_MINUTES } from '../../domain/booking.js';
import { countUpValue } from '../features/metrics/count-up.js';
import { axeViolations, type WatchedPage } from './browser.js';
import { ARTIFACTS, useBrowserSuite, type Visit } from './suite.js';
import { openDialog } from './dialog.js';

const FINAL = ['40%', '2x', '100%', '30%', '1 platform'];
const TARGETS = FINAL.map((value) => Number.parseInt(value, 10));
const SHOWN = '#results ul > li p:first-child > span[aria-hidden]';
const CUSTOMERS = ['Valmora Pay', 'Corvane', 'Harbrook Health', 'Quillon', 'Tessaline Air', 'Lumetra'];
/** Headless Chromium paints at 60 Hz; timings are checked to a few frames, with room for a busy machine. */
const TOLERANCE_MS = 120;

const open: WatchedPage[] = [];
let visitSite: Visit;

/** The landing page at `width` px. */
function visit(width: number, options: BrowserContextOptions = {}): Promise<WatchedPage> {
  return visitSite({ viewport: { width, height: 900 }, ...options });
}

/**
 * Waits until the page's script has started the counters (it marks their list: armed, or still) and their first report
 * is in, and the text is in its font (the swap after the first paint), so captures of two pages compare alike.
 */
async function started(page: Page): Promise<void> {
  await page.locator('#results ul:is([data-count-up="armed"], [data-count-up="still"])').waitFor({ state: 'attached' });
  await page.locator('html:not(.font-later)').waitFor({ state: 'attached' });
  await page.waitForTimeout(300);
}

const shownValues = (page: Page): Promise<string[]> => page.locator(SHOWN).allInnerTexts();

interface Sample {
  at: number;
  values: string[];
}

/**
 * From now on, every change of the counters' text, with its frame's time: the document timeline's, which is the time
 * the frame's animation callbacks were given. The clock when the change is seen may run far behind it on a busy
 * machine (a frame's callbacks can start long after its time), and the count is worked out from the frame's time.
 */
async function recordCounts(page: Page): Promise<() => Promise<Sample[]>> {
  await page.evaluate((selector) => {
    const samples: Sample[] = [];
    (window as unknown as { countSamples: Sample[] }).countSamples = samples;
    new MutationObserver(() => {
      const at = Number(document.timeline.currentTime ?? performance.now());
      samples.push({ at, values: Array.from(document.querySelectorAll(selector), (node) => node.textContent ?? '') });
    }).observe(document.querySelector('#results ul') as Node, { subtree: true, characterData: true, childList: true });
  }, SHOWN);
  return () => page.evaluate(() => (window as unknown as { countSamples: Sample[] }).countSamples);
}

/** Until the counters show their final values again: the count has run to its end, however long this machine took. */
async function countEnded(page: Page): Promise<void> {
  await page.waitForFunction(
    ({ selector, final }) =>
      Array.from(document.querySelectorAll(selector), (node) => node.textContent ?? '').join('|') === final.join('|'),
    { selector: SHOWN, final: FINAL },
    { timeout: 20_000 },
  );
}

async function scrollToMetrics(page: Page): Promise<void> {
  await page.locator('#results ul').evaluate((list) => list.scrollIntoView({ block: 'center', behavior: 'instant' }));
}

describe('the landing page sections in Chromium', function () {
  this.timeout(30_000);

  visitSite = useBrowserSuite(open, () => {}, { stack: { worker: false } });

  for (const width of [375, 1440]) {
    describe(`at ${width} px`, () => {
      it('gives the demo one length, SLOT_DURATION_MINUTES, on the page and in the dialog', async () => {
        const { page } = await visit(width);
        const lengths = (text: string) => [...text.matchAll(/(\d+)[- ]minutes?\b/g)].map((match) => Number(match[1]));
        const finalCta = page.getByRole('region', { name: 'See Converge on your own customer journeys' });
        expect(await finalCta.innerText()).to.include(`${SLOT_DURATION_MINUTES}-minute demo`);
        const pageLengths = lengths(await page.locator('body').innerText());
        expect(pageLengths.length, 'mentions of the length on the page').to.be.greaterThan(0);
        expect(new Set(pageLengths)).to.deep.equal(new Set([SLOT_DURATION_MINUTES]));
        const dialog = await openDialog(page);
        const dialogLengths = lengths(await dialog.innerText());
        expect(dialogLengths, 'in the dialog').to.deep.equal([SLOT_DURATION_MINUTES]);
      });

      it('shows the final metrics once the page has started, before any scrolling, in a full-page capture and on paper', async () => {
        const { page } = await visit(width);
        await started(page);
        const samples = await recordCounts(page);
        expect(await shownValues(page), 'started, not scrolled').to.deep.equal(FINAL);

        // A full-page capture draws the counters as the reduced-motion page does, where they never move.
        const capture = async (target: Page) => {
          const box = await target.locator('#results ul').evaluate((list) => {
            const rect = list.getBoundingClientRect();
            return { x: rect.x + window.scrollX, y: rect.y + window.scrollY, width: rect.width, height: rect.height };
          });
          return target.screenshot({ fullPage: true, clip: box, animations: 'disabled' });
        };
        await page.screenshot({ fullPage: true });
        const still = await visit(width, { reducedMotion: 'reduce' });
        await started(still.page);
        expect((await capture(page)).equals(await capture(still.page)), 'the counters in a full-page capture').to.equal(
          true,
        );
        expect(await shownValues(page), 'after the capture').to.deep.equal(FINAL);
        expect(await samples(), 'changes while nobody scrolled').to.deep.equal([]);

        // Printed in the middle of a count, the paper still carries the final values. The page's clock is held and
        // moved by hand, so the count stands where 300 ms of it put it however busy this machine is (a wall-clock
        // wait let a held-back page finish the count before it was read).
        await page.clock.install();
        await page.clock.pauseAt(Date.now() + 1000);
        await scrollToMetrics(page);
        // The count's first frame is asked for when the browser reports the list in view, in its own time, not the
        // held clock's: step the clock a frame at a time until that frame is drawn (zeros), then 300 ms of counting.
        for (let frames = 0; (await samples()).length === 0; frames += 1) {
          if (frames > 300) throw new Error('the count never started after the scroll');
          await page.clock.runFor(16);
        }
        await page.clock.runFor(300);
        const counting = await shownValues(page);
        expect(counting, 'on screen, counting').to.not.deep.equal(FINAL);
        expect(counting, 'on screen, counting').to.not.deep.equal(FINAL.map((value) => value.replace(/^\d+/, '0')));
        await page.emulateMedia({ media: 'print' });
        expect(await page.locator('#results ul > li p:first-child').allInnerTexts(), 'printed').to.deep.equal(FINAL);
      });

      it('counts up from 0 once scrolled into view, over 2 s with ease-out, each card 200 ms after the one before', async () => {
        const { page } = await visit(width);
        await started(page);
        const samples = await recordCounts(page);
        await scrollToMetrics(page);
        // Past its first frame, then to its end.
        await page.waitForFunction(() => (window as unknown as { countSamples: unknown[] }).countSamples.length > 0);
        await countEnded(page);
        const seen = await samples();
        expect(seen.length, 'frames of counting').to.be.greaterThan(20);
        const zeros = FINAL.map((value) => value.replace(/^\d+/, '0'));
        expect(seen[0]?.values, 'the first frame').to.deep.equal(zeros);
        expect(seen.at(-1)?.values, 'the last frame').to.deep.equal(FINAL);
        const numbersByCard = TARGETS.map((_, index) =>
          seen.map((sample) => Number.parseInt(sample.values[index] ?? '', 10)),
        );
        TARGETS.forEach((target, index) => {
          const numbers = numbersByCard[index] ?? [];
          expect(
            numbers.every((value, i) => i === 0 || value >= (numbers[i - 1] ?? 0)),
            `card ${index} only rises`,
          ).to.equal(true);
          if (target > 1)
            expect(
              numbers.some((value) => value > 0 && value < target),
              `card ${index} between 0 and ${target}`,
            ).to.equal(true);
        });
        // Every frame shows what the count-up's formula gives at its time, to a few frames: the stagger and the easing,
        // however many frames a busy machine drops (a dropped frame delays when a value is seen, not which value). The
        // count starts in a frame after the zeros were first seen, which a busy machine may hold back: one start, between
        // the first frame at zero and the first that moved, must fit every frame of every card.
        const firstMoved = seen.findIndex((sample) => sample.values.some((value, index) => value !== zeros[index]));
        const [earliest, latest] = [seen[0]?.at ?? 0, seen[firstMoved]?.at ?? 0];
        const misfits = (start: number) =>
          TARGETS.flatMap((target, index) =>
            (numbersByCard[index] ?? []).flatMap((value, i) => {
              const ms = (seen[i]?.at ?? 0) - start;
              const [lowest, highest] = [
                countUpValue(target, ms - TOLERANCE_MS, index),
                countUpValue(target, ms + TOLERANCE_MS, index),
              ];
              return value >= lowest && value <= highest
                ? []
                : [`card ${index} at ${Math.round(ms)} ms: ${value}, not within ${lowest}..${highest}`];
            }),
          );
        const starts = Array.from({ length: Math.floor((latest - earliest) / 2) + 1 }, (_, i) => earliest + i * 2);
        const fits = starts.find((start) => misfits(start).length === 0);
        expect(
          fits,
          `no start between ${Math.round(earliest)} and ${Math.round(latest)} ms fits every frame: ${misfits(earliest).slice(0, 5).join('; ')}`,
        ).to.not.equal(undefined);
      });

      it('keeps the final values for a reader who jumps past the metrics, and counts when they come back', async () => {
        const { page } = await visit(width);
        await started(page);
        const samples = await recordCounts(page);
        await page.evaluate(() => window.scrollTo({ top: document.body.scrollHeight, behavior: 'instant' }));
        await page.waitForTimeout(500);
        await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
        await page.waitForTimeout(500);
        expect(await samples(), 'changes after jumping past').to.deep.equal([]);
        expect(await shownValues(page)).to.deep.equal(FINAL);
        await scrollToMetrics(page);
        await page.waitForFunction(() => (window as unknown as { countSamples: unknown[] }).countSamples.length > 0);
        await countEnded(page);
        expect((await samples()).length, 'frames of counting once in view').to.be.greaterThan(20);
        expect(await shownValues(page)).to.deep.equal(FINAL);
      });

      it('leaves counters alone that are on screen as the page starts (a reload where the reader was)', async () => {
        const { page } = await visit(width);
        await started(page);
        await scrollToMetrics(page);
        await page.waitForTimeout(3200);
        await page.reload();
        await started(page);
        const samples = await recordCounts(page);
        await page.waitForTimeout(1000);
        expect(await samples()).to.deep.equal([]);
        expect(await shownValues(page)).to.deep.equal(FINAL);
      });

      it('never moves the counters with reduced motion; screen readers get the final values', async () => {
        const { page } = await visit(width, { reducedMotion: 'reduce' });
        await started(page);
        const samples = await recordCounts(page);
        await scrollToMetrics(page);
        await page.waitForTimeout(3000);
        expect(await samples()).to.deep.equal([]);
        expect(await shownValues(page)).to.deep.equal(FINAL);
        const read = await page.locator('#results ul > li p:first-child > span:not([aria-hidden])').allTextContents();
        expect(read).to.deep.equal(FINAL);
      });

      it('gives no two neighbouring sections the same shape', async () => {
        const { page } = await visit(width);
        const sections = await page.locator('main > section').evaluateAll((nodes) =>
          nodes.map((section) => {
            // The content's skeleton: which tag holds which, three levels down from what follows the section's heading.
            const content =
              section.querySelector(':scope > div > header + *') ?? section.querySelector(':scope > div') ?? section;
            const pairs = new Set<string>();
            for (const node of Array.from(content.querySelectorAll('*'))) {
              let depth = 1;
              for (let parent = node.parentElement; parent && parent !== content; parent = parent.parentElement)
                depth += 1;
              if (depth <= 3) pairs.add(`${depth}:${node.parentElement?.tagName}>${node.tagName}`);
            }
            return {
              id: section.id,
              layout: section.dataset.layout ?? '',
              skeleton: `${content.tagName} ${[...pairs].sort().join(' ')}`,
            };
          }),
        );
        expect(sections.map((section) => section.id).filter(Boolean)).to.deep.equal([
          'challenge',
          'platform',
          'architecture',
          'capabilities',
          'results',
          'case-study',
          'industries',
        ]);
        expect(sections.map((section) => section.layout)).to.deep.equal([
          'hero',
          'logo-strip',
          'numbered-list',
          'comparison',
          'diagram',
          'feature-list',
          'stats',
          'story',
          'index',
          'banner',
        ]);
        sections.slice(1).forEach((section, index) => {
          const before = sections[index];
          expect(section.skeleton, `${before?.layout} then ${section.layout}`).to.not.equal(before?.skeleton);
        });
        // A comparison is a table with a header per column, and the numbered list an ordered one.
        expect(await page.locator('#platform table thead th[scope="col"]').count()).to.equal(2);
        expect(await page.locator('#platform table th[scope="rowgroup"]').count()).to.equal(3);
        expect(await page.locator('#challenge ol > li').count()).to.equal(3);
      });

      it('sets every card of a list alike: its title and its text at the same place in each card', async () => {
        const { page } = await visit(width);
        for (const list of ['#capabilities ul', '#industries ul']) {
          const offsets = await page
            .locator(list)
            .first()
            .evaluate((ul) =>
              [...ul.querySelectorAll(':scope > li')].map((li) => {
                const card = li.getBoundingClientRect();
                const title = li.querySelector('h3')!.getBoundingClientRect();
                const text = li.querySelector('p')!.getBoundingClientRect();
                // The title from the card's top, and the gap from the title to the text.
                return `${Math.round(title.top - card.top)}/${Math.round(text.top - title.bottom)}`;
              }),
            );
          expect(offsets.length, list).to.be.greaterThan(3);
          expect(new Set(offsets).size, `${list}: ${offsets.join(' ')}`).to.equal(1);
        }
        // The case study's figures: each at the same place in its tile, whatever its label's lines.
        const figures = await page
          .locator('#case-study dl > div')
          .evaluateAll((tiles) =>
            tiles.map((tile) =>
              Math.round(tile.querySelector('dd')!.getBoundingClientRect().top - tile.getBoundingClientRect().top),
            ),
          );
        expect(new Set(figures).size, `the figures' places: ${figures.join(' ')}`).to.equal(1);
      });

      it('reads the comparison table and the metrics at this width, in Inter, and shows the product (artifacts/)', async () => {
        const { page } = await visit(width);
        const table = page.locator('#platform table');
        await table.scrollIntoViewIfNeeded();
        await page.waitForFunction(() => !document.documentElement.classList.contains('font-later'));
        await table.screenshot({ path: path.join(ARTIFACTS, `comparison-${width}.png`) });
        const stacked = width < 640;
        const layout = await table.evaluate((node) => {
          const headers = [...node.querySelectorAll('thead th')].map((th) => th.textContent);
          const rows = [...node.querySelectorAll('tbody tr:has(td)')].map((tr) => {
            const [before, after] = [...tr.querySelectorAll('td')].map((td) => td.getBoundingClientRect());
            return {
              stacked: after!.top >= before!.bottom - 0.5,
              sideBySide: Math.abs(after!.top - before!.top) < 0.5,
            };
          });
          const cells = [...node.querySelectorAll('td')].map((td) => {
            // The cell's lines of text: its text's boxes (not its icon's), counted by their bottoms.
            const bottoms = new Set<number>();
            for (const child of td.childNodes) {
              if (child.nodeType !== Node.TEXT_NODE) continue;
              const text = document.createRange();
              text.selectNodeContents(child);
              for (const rect of text.getClientRects()) bottoms.add(Math.round(rect.bottom));
            }
            return {
              label: td.dataset.label,
              header: headers[td.cellIndex],
              labelShown: getComputedStyle(td, '::before').display === 'block',
              bold: getComputedStyle(td).fontWeight === '600',
              lines: bottoms.size,
            };
          });
          const groups = [...node.querySelectorAll('th[scope="rowgroup"]')].map((th) => {
            const box = th.getBoundingClientRect();
            const range = document.createRange();
            range.selectNodeContents(th);
            // Where the tint starts: the Converge column's left edge, when the row is tinted at all.
            const tinted = getComputedStyle(th).backgroundImage !== 'none';
            const column = node.querySelector('thead th + th')!.getBoundingClientRect().left;
            return {
              textEnd: range.getBoundingClientRect().right,
              tintStart: tinted ? column : box.right,
              right: box.right,
            };
          });
          return { rows, cells, groups };
        });
        expect(layout.rows, 'rows').to.have.length(6);
        for (const row of layout.rows)
          expect(stacked ? row.stacked : row.sideBySide, JSON.stringify(row)).to.equal(true);
        for (const cell of layout.cells) {
          expect(cell.label, 'each cell named by its column').to.equal(cell.header);
          expect(cell.labelShown, 'the column named above the cell').to.equal(stacked);
          if (cell.bold) expect(cell.lines, `a Converge cell: ${cell.label}`).to.be.at.most(2);
        }
        expect(layout.cells.filter((cell) => cell.bold)).to.have.length(6);
        for (const group of layout.groups) {
          expect(group.textEnd, 'the layer name stays clear of the tinted column').to.be.below(group.tintStart);
          expect(group.right).to.be.at.most(width);
        }
        // Screen readers still get a table whatever the display: Chromium's own accessibility tree, by role.
        const cdp = await page.context().newCDPSession(page);
        const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as {
          nodes: { role?: { value?: string }; ignored?: boolean }[];
        };
        const roles = nodes.filter((node) => !node.ignored).map((node) => String(node.role?.value));
        const count = (role: string) => roles.filter((value) => value === role).length;
        expect(
          [count('table'), count('row'), count('columnheader'), count('rowheader'), count('cell')],
          'table, rows, column headers, row headers, cells',
        ).to.deep.equal([1, 10, 2, 3, 12]);

        // The metrics: each label on as few lines as it needs ("Cost optimization" on one), labels and details level.
        const metrics = page.locator('#results ul');
        await metrics.scrollIntoViewIfNeeded();
        const cards = await metrics.evaluate((list) =>
          [...list.querySelectorAll(':scope > li')].map((card) => {
            const label = card.querySelector('h3')!;
            const text = document.createRange();
            text.selectNodeContents(label);
            return {
              label: label.textContent,
              lines: new Set([...text.getClientRects()].map((rect) => Math.round(rect.bottom))).size,
              row: Math.round(card.getBoundingClientRect().top),
              labelTop: Math.round(label.getBoundingClientRect().top),
              detailTop: Math.round(card.querySelector('p:last-child')!.getBoundingClientRect().top),
            };
          }),
        );
        expect(cards.find((card) => card.label === 'Cost optimization')?.lines).to.equal(1);
        for (const card of cards) expect(card.lines, card.label ?? '').to.be.at.most(2);
        for (const row of new Set(cards.map((card) => card.row))) {
          const inRow = cards.filter((card) => card.row === row);
          expect(
            new Set(inRow.map((card) => `${card.labelTop}/${card.detailTop}`)).size,
            `cards at ${row}: ${JSON.stringify(inRow)}`,
          ).to.equal(1);
        }
        await metrics.screenshot({ path: path.join(ARTIFACTS, `metrics-${width}.png`) });

        // The text is set in the self-hosted Inter, once the page has asked for it after its first paint.
        await page.waitForFunction(() => !document.documentElement.classList.contains('font-later'));
        expect(
          await page.evaluate(
            () => document.fonts.check('600 16px "Inter Variable"') && getComputedStyle(document.body).fontFamily,
          ),
        ).to.match(/^"Inter Variable"/);

        // The product's picture: fetched only once it comes near, described for those who cannot see it.
        const picture = page.locator('#capabilities figure img');
        expect(await picture.getAttribute('loading')).to.equal('lazy');
        expect(await picture.getAttribute('alt')).to.match(
          /^The Converge console: .*SMS.*WhatsApp.*email.*voice.*delivery report/,
        );
        await picture.scrollIntoViewIfNeeded();
        await page.waitForFunction((image) => (image as HTMLImageElement).complete, await picture.elementHandle());
        expect(await picture.evaluate((image) => (image as HTMLImageElement).naturalWidth)).to.equal(640);
      });

      it("fetches the capabilities', the industries' and the footer's icons only as they come near, and draws each then", async () => {
        const { page } = await visit(width);
        await page.waitForLoadState('networkidle');
        const icons = page.locator('#capabilities li img, #industries li img, .site-footer-social img');
        expect(await icons.count()).to.equal(17);
        const fetched = () =>
          page.evaluate(() =>
            performance
              .getEntriesByType('resource')
              .map((entry) => new URL(entry.name).pathname)
              .filter((pathname) => pathname.startsWith('/images/icons/')),
          );
        expect(await fetched(), 'fetched at the start').to.deep.equal([]);
        for (const icon of await icons.all()) {
          await icon.scrollIntoViewIfNeeded();
          await page.waitForFunction((image) => (image as HTMLImageElement).complete, await icon.elementHandle());
          const drawn = await icon.evaluate((image) => ({
            width: (image as HTMLImageElement).naturalWidth,
            shown: image.getBoundingClientRect().width,
            alt: image.getAttribute('alt'),
          }));
          expect(drawn.width, `${await icon.getAttribute('src')} drawn`).to.equal(24);
          expect(drawn.shown).to.be.greaterThan(0);
          // Decorative, as the inline icons are: the card's title or the link's name says what it is.
          expect(drawn.alt).to.equal('');
        }
        expect(new Set(await fetched()).size, 'one file an icon').to.equal(17);
      });

      it('shows the customers as wordmarks of their own, each an image named by its brand', async () => {
        const { page } = await visit(width);
        const strip = page.getByRole('region', { name: /^Trusted by 7,000\+ enterprises/ });
        const logos = strip.getByRole('img');
        expect(await logos.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('aria-label')))).to.deep.equal(
          CUSTOMERS,
        );
        for (const logo of await logos.all()) {
          expect(await logo.evaluate((node) => node.tagName.toLowerCase())).to.equal('svg');
          const box = await logo.boundingBox();
          expect(box?.height, 'drawn').to.be.greaterThan(20);
          expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= width, `inside ${width} px`).to.equal(
            true,
          );
        }
        // Drawn here, nothing fetched or referenced: no image, no use of another document.
        const references = await strip.evaluate(
          (node) =>
            Array.from(node.querySelectorAll('*')).filter(
              (element) =>
                ['image', 'use'].includes(element.tagName) ||
                Array.from(element.attributes).some((attribute) => attribute.name.endsWith('href')),
            ).length,
        );
        expect(references).to.equal(0);
        // The case study's customer is one of them, with the same mark.
        expect(await page.locator('#case-study h3').getByRole('img', { name: 'Valmora Pay' }).count()).to.equal(1);
      });

      it('quotes a named person in the case study, with title and company', async () => {
        const { page } = await visit(width);
        const quote = page.locator('#case-study figure');
        expect(await quote.locator('blockquote').innerText()).to.match(
          /^“We replaced four vendors with one platform.+”$/,
        );
        expect(await quote.locator('figcaption').innerText()).to.match(
          /^Elena Marquardt\s+Head of Customer Operations, Valmora Pay$/,
        );
        expect(await quote.locator('figcaption strong').innerText()).to.equal('Elena Marquardt');
        // Every figure of the case study the specification lists stays.
        const stats = await page
          .locator('#case-study dl > div')
          .evaluateAll((rows) =>
            rows.map((row) => `${row.querySelector('dd')?.textContent} ${row.querySelector('dt')?.textContent}`),
          );
        expect(stats).to.deep.equal([
          '200+ countries reached',
          '40% cost reduction',
          '30% better delivery',
          '0 fraud incidents',
        ]);
      });

      if (width === 1440) {
        it("sets each industry's name on one line, as its neighbours' (a name broken after its '&' read oddly)", async () => {
          const { page } = await visit(width);
          await page.locator('html:not(.font-later)').waitFor({ state: 'attached' });
          const lines = await page
            .locator('#industries h3')
            .evaluateAll((names) =>
              names.map(
                (name) =>
                  `${name.textContent}: ${Math.round(name.getBoundingClientRect().height / parseFloat(getComputedStyle(name).lineHeight))}`,
              ),
            );
          expect(lines.length).to.equal(6);
          expect(lines.filter((line) => !line.endsWith(': 1'))).to.deep.equal([]);
        });
      }

      it('fits the width, has no accessibility violations (axe-core), and is captured whole (artifacts/)', async () => {
        const { page, problems } = await visit(width);
        await page.waitForLoadState('networkidle');
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
          'horizontal overflow',
        ).to.equal(0);
        const spilling = await page.locator('main > section').evaluateAll((sections) =>
          sections.flatMap((section) =>
            Array.from(section.querySelectorAll('h2, h3, p, li, table, figure, svg'))
              .filter((node) => node.getBoundingClientRect().right > window.innerWidth + 0.5)
              .map(
                (node) => `${section.id || section.dataset.layout} ${node.tagName}: ${node.textContent?.slice(0, 40)}`,
              ),
          ),
        );
        expect(spilling, 'content wider than the page').to.deep.equal([]);
        expect(await axeViolations(page)).to.deep.equal([]);
        // With motion allowed: the capture shows the counters' final values all the same.
        await page.screenshot({ path: path.join(ARTIFACTS, `sections-${width}.png`), fullPage: true });
        expect(await shownValues(page)).to.deep.equal(FINAL);
        expect(problems).to.deep.equal([]);
      });
    });
  }
});
