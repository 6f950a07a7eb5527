/** Steps through the Request Demo dialog shared by the browser tests. */
import type { Locator, Page } from 'playwright-core';
import { availableSlots, calendarDayOf, DEFAULT_BOOKING_TIME_ZONE, isBookableDay } from '../../domain/booking.js';

export const ZONE = DEFAULT_BOOKING_TIME_ZONE;

/** Wednesday 18 November 2026, 10:30 in Berlin: the fixed browser clock of the calendar tests. */
export const FIXED_NOW = new Date('2026-11-18T09:30:00Z');

/**
 * On the fixed clock, a day whose slots carry the longest second line a visitor in `timezoneId` sees: Thursday's
 * first slots in Berlin are still Wednesday in Los Angeles ("22:00 Wed your time").
 */
export const LONGEST_LOCAL_TIMES = { day: '26 November 2026', timezoneId: 'America/Los_Angeles' } as const;

/**
 * Each slot takes one booking, and the tests of one file share a database: the day they book on needs enough
 * free slots for all of them (each takes the first free one).
 */
const SLOTS_NEEDED = 8;

/** Opens the dialog with the hero's button (or the one given) and waits for the form, and for its calendar, which can follow the form's first frame. */
export async function openDialog(page: Page, button?: Locator): Promise<Locator> {
  await (button ?? page.getByRole('main').getByRole('link', { name: 'Request Demo' }).first()).click();
  const dialog = page.getByRole('dialog', { name: 'Request Demo' });
  await dialog.getByLabel('Name', { exact: true }).waitFor();
  await dialog.getByRole('button', { name: 'Next month' }).waitFor();
  return dialog;
}

export function dayTile(dialog: Locator, label: string): Locator {
  return dialog.getByRole('button', { name: label });
}

/** The first day the real clock leaves enough slots on, as react-calendar labels it, with its slots still open then. */
export function firstBookableLabel(now = new Date()): { label: string; slots: readonly string[] } {
  const today = calendarDayOf(now, ZONE);
  const cursor = new Date(Date.UTC(today.year, today.month - 1, today.day));
  for (let i = 0; i < 40; i += 1, cursor.setUTCDate(cursor.getUTCDate() + 1)) {
    const day = { year: cursor.getUTCFullYear(), month: cursor.getUTCMonth() + 1, day: cursor.getUTCDate() };
    const slots = isBookableDay(day, now, ZONE) ? availableSlots(day, now, ZONE).map((slot) => slot.iso) : [];
    if (slots.length >= SLOTS_NEEDED) {
      const label = new Intl.DateTimeFormat('en-GB', {
        day: 'numeric',
        month: 'long',
        year: 'numeric',
        timeZone: 'UTC',
      }).format(cursor);
      return { label, slots };
    }
  }
  throw new Error('no bookable day in the next 40 days');
}

/**
 * Waits until the chosen day's slots carry the server's word on which are taken (or its call has failed). The
 * slot group is aria-busy while it asks, from the render that shows the slots.
 */
export async function slotsSettled(dialog: Locator): Promise<void> {
  await dialog.getByRole('radio').first().waitFor();
  await dialog.locator('fieldset[aria-busy="true"]').waitFor({ state: 'detached' });
}

/** Chooses the first bookable day, then its first free slot from the second on; returns the slot's ISO instant. */
export async function chooseFirstBookableSlot(dialog: Locator): Promise<string> {
  const { label } = firstBookableLabel();
  // The calendar opens on the month of the first bookable day; move on only if that day is not shown.
  for (let i = 0; i < 2 && (await dayTile(dialog, label).count()) === 0; i += 1) {
    await dialog.getByRole('button', { name: 'Next month' }).click();
  }
  await dayTile(dialog, label).click();
  await slotsSettled(dialog);
  // Not the first slot, so one that starts while the test runs cannot make it stale.
  const radios = dialog.getByRole('radio');
  const index = await radios.evaluateAll((inputs) =>
    inputs.findIndex((input, i) => i >= 1 && !(input as HTMLInputElement).disabled),
  );
  if (index < 0) throw new Error(`no free slot left on ${label}`);
  const slot = radios.nth(index);
  await slot.check();
  return slot.inputValue();
}

export async function fillRequired(dialog: Locator, name: string, email: string, company: string): Promise<void> {
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByLabel('Email', { exact: true }).fill(email);
  await dialog.getByLabel('Company', { exact: true }).fill(company);
}

/**
 * For pages on a fixed clock: the server answers /api/slots by its real clock, which may call the fixed day's
 * slots past. Without that call the picker goes by the domain rules alone, as it does whenever the call fails.
 */
export async function withoutSlotsApi(page: Page): Promise<void> {
  await page.route(/\/api\/slots\?/, (route) => route.abort('connectionrefused'));
}

/**
 * The slots' second lines in `container` (the visitor's time, "Taken"), each with the number of lines it takes: its
 * height over its line height.
 */
export async function slotNoteLines(container: Locator): Promise<string[]> {
  return container
    .locator('input[name="timeSlot"] ~ small')
    .evaluateAll((notes) =>
      notes.map(
        (note) =>
          `${note.textContent}: ${Math.round(note.getBoundingClientRect().height / parseFloat(getComputedStyle(note).lineHeight))}`,
      ),
    );
}
