/**
 * The class on <html> of a page that asks for its typeface only once its first frame is painted (the landing page and
 * the booking page): until the class goes, its text is set in the metric-matched fallback (global-style.ts). A font
 * request begun before the first paint delays it in Lighthouse's simulation of a phone by the font's whole download
 * (LCP 1.1 to 1.4 s with the font preloaded, against 0.76 s without it), so these pages let the paint go first.
 */
export const FONT_LATER_CLASS = 'font-later';

/** Removes FONT_LATER_CLASS right after the first frame: the text swaps to Inter as soon as it is in (font-display: swap). */
export function loadFontAfterFirstPaint(document: Document): void {
  requestAnimationFrame(() => setTimeout(() => document.documentElement.classList.remove(FONT_LATER_CLASS)));
}
