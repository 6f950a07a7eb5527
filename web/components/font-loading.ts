/**
 * The class on <html> of a page that asks for its typeface only once its first contentful paint is done (the landing
 * page and the booking page): until the class goes, its text is set in the metric-matched fallback (global-style.ts).
 * A font request begun before that paint delays it in Lighthouse's simulation of a phone by the font's whole download
 * (LCP 1.1 to 1.4 s with the font preloaded, against 0.76 s without it), so these pages let the paint go first.
 */
export const FONT_LATER_CLASS = 'font-later';

/** The family of the head's @font-face rule (the package's own name for Inter's variable font). */
const FAMILY = 'Inter Variable';

/**
 * Once the first contentful paint is reported (or the page has loaded, where a browser does not report paints), asks
 * for the font and removes FONT_LATER_CLASS once it is in: the page is laid out again once, in Inter. A font that
 * fails to load leaves the fallback in place.
 */
export function loadFontAfterFirstPaint(document: Document): void {
  const swap = () => {
    document.fonts.load(`1em "${FAMILY}"`).then(
      (faces) => {
        if (faces.length > 0) document.documentElement.classList.remove(FONT_LATER_CLASS);
      },
      () => {},
    );
  };
  if (!PerformanceObserver.supportedEntryTypes?.includes('paint')) {
    window.addEventListener('load', () => setTimeout(swap), { once: true });
    return;
  }
  const observer = new PerformanceObserver((list) => {
    if (list.getEntriesByName('first-contentful-paint').length === 0) return;
    observer.disconnect();
    setTimeout(swap);
  });
  observer.observe({ type: 'paint', buffered: true });
}
