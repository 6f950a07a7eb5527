/**
 * The metric cards show their final values (prerendered) until the moment the list scrolls into view; only then do
 * they count up from 0. So a printout, a full-page capture or a reader who jumps past never meets a row of zeros, and
 * a list already on screen when the page starts is left alone. With reduced motion, or without IntersectionObserver,
 * they never move. Each card's number is the first text of its aria-hidden copy; screen readers read the final value.
 */
import { countUpTotalMs, countUpValue } from './count-up.js';

export const COUNT_UP_ATTRIBUTE = 'data-count-up';

export function startCounters(doc: Document): void {
  const list = doc.querySelector<HTMLElement>(`[${COUNT_UP_ATTRIBUTE}]`);
  if (!list) return;
  if (window.matchMedia('(prefers-reduced-motion: reduce)').matches || !('IntersectionObserver' in window)) {
    list.setAttribute(COUNT_UP_ATTRIBUTE, 'still');
    return;
  }
  const numbers = Array.from(list.querySelectorAll('[aria-hidden]'), (copy) => copy.firstChild).filter(
    (node): node is Text => node instanceof Text,
  );
  const targets = numbers.map((node) => Number(node.data));

  let startedAt: number | null = null;
  const tick = (time: number) => {
    startedAt ??= time;
    const elapsed = time - startedAt;
    numbers.forEach((node, index) => {
      const shown = String(countUpValue(targets[index] ?? 0, elapsed, index));
      if (node.data !== shown) node.data = shown;
    });
    if (elapsed < countUpTotalMs(targets.length)) requestAnimationFrame(tick);
  };
  let firstReport = true;
  const observer = new IntersectionObserver(
    (entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        observer.disconnect();
        // The first report is where the list is as the page starts: on screen already, it stays as it was read.
        if (!firstReport) requestAnimationFrame(tick);
      }
      firstReport = false;
    },
    // Counting starts as the list's top edge comes into view, so it is seen from its start.
    { threshold: 0 },
  );
  observer.observe(list);
  list.setAttribute(COUNT_UP_ATTRIBUTE, 'armed');
}
