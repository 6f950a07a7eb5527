/**
 * Brings the Request Demo dialog's code (React, the store, the form, the calendar and the toasts:
 * web/features/demo-request/demo-island.ts), without React itself. The dialog is prerendered and opens before its
 * code has come (dialog-opener.ts), its fields taking typing at once; the code is fetched and run once the page has
 * loaded and the browser is idle, and hydrates the dialog: a press does not hurry it, since the form takes typing
 * without it. Nothing of it is fetched before the page's load event. If it cannot be fetched, the calendar's place
 * says so, and the next press tries again.
 */
import type * as DemoIslandModule from './demo-island.js';
import { DEMO_CODE_STATUS_ATTRIBUTE, DEMO_TRIGGER_ATTRIBUTE } from '../../components/demo-trigger-attribute.js';
import { countFunnelStep } from './funnel-beacon.js';

declare global {
  interface Window {
    /** The dialog's entry leaves its exports here (web/webpack.config.js, DEMO_ISLAND_GLOBAL). */
    convergeDemoIsland?: typeof DemoIslandModule;
  }
}

export const DEMO_PAGE_ATTRIBUTE = 'data-demo-page';
/** The element the dialog is prerendered in, and hydrated. */
export const DEMO_LAYER_ID = 'demo-layer';
/** The meta tag naming the dialog's entry script(s), which fetch the rest of its code themselves. */
export const DIALOG_CODE_META = 'demo-code';
export const LOAD_PROBLEM_MESSAGE =
  'The demo request form could not be loaded. Please check your connection and try again.';

/** Runs the dialog's entry script(s) named in the page's meta tag, in order, and gives the module they leave. */
function loadIsland(doc: Document): Promise<typeof DemoIslandModule> {
  const scripts = dialogScripts(doc);
  return new Promise((resolve, reject) => {
    let waiting = scripts.length;
    for (const src of scripts) {
      const script = Object.assign(doc.createElement('script'), { src, async: false });
      script.onload = () => {
        waiting -= 1;
        if (waiting > 0) return;
        const island = window.convergeDemoIsland;
        if (island) resolve(island);
        else reject(new Error("the dialog's scripts ran but left nothing behind"));
      };
      script.onerror = () => {
        script.remove();
        reject(new Error(`${src} could not be loaded`));
      };
      doc.head.append(script);
    }
    if (scripts.length === 0) reject(new Error('the page names no dialog scripts'));
  });
}

function dialogScripts(doc: Document): string[] {
  return (
    doc.querySelector<HTMLMetaElement>(`meta[name="${DIALOG_CODE_META}"]`)?.content.split(' ').filter(Boolean) ?? []
  );
}

/** How long the dialog's code waits for the browser to be idle after the page's load event, at most. */
const IDLE_TIMEOUT_MS = 3000;

/** Runs `then` once the page's first content has been shown (which can come after its load event). */
function afterFirstPaint(then: () => void): void {
  if (!PerformanceObserver.supportedEntryTypes.includes('paint')) {
    // A frame's callbacks run before it is painted; a task they post runs after.
    requestAnimationFrame(() => setTimeout(then, 0));
    return;
  }
  const observer = new PerformanceObserver((entries) => {
    if (entries.getEntriesByName('first-contentful-paint').length === 0) return;
    observer.disconnect();
    then();
  });
  observer.observe({ type: 'paint', buffered: true });
}

/** Runs `work` once the page has loaded (at once if it has). */
function afterLoad(doc: Document, work: () => void): void {
  if (doc.readyState === 'complete') work();
  else window.addEventListener('load', work, { once: true });
}

/**
 * Runs `work` once the page has loaded and been shown, and the browser has nothing more pressing to do (at once
 * then where it cannot tell): so the dialog's code never competes with what the page shows first.
 */
function whenPageIdle(doc: Document, work: () => void): void {
  afterLoad(doc, () =>
    afterFirstPaint(() => {
      if (typeof window.requestIdleCallback === 'function')
        window.requestIdleCallback(work, { timeout: IDLE_TIMEOUT_MS });
      else work();
    }),
  );
}

function triggerOf(target: EventTarget | null): HTMLElement | null {
  return target instanceof Element ? target.closest<HTMLElement>(`[${DEMO_TRIGGER_ATTRIBUTE}]`) : null;
}

export function startDemoLauncher(doc: Document): void {
  const layer = doc.getElementById(DEMO_LAYER_ID);
  if (!layer) return;
  // The toasts' element, moved into the dialog while it is open (demo-request-dialog.tsx); no box of its own.
  const toasts = doc.body.appendChild(doc.createElement('div'));
  toasts.style.display = 'contents';

  let entry: Promise<typeof DemoIslandModule> | undefined;
  let island: Promise<void> | undefined;
  /** What the calendar's place said before a failed fetch replaced it, said again on the next try. */
  let waitingMarkup: string | undefined;
  const status = () => layer.querySelector<HTMLElement>(`[${DEMO_CODE_STATUS_ATTRIBUTE}]`);

  // One fetch at a time; a failed one is forgotten, so the next press fetches again (the entry script only if it
  // was that which failed: once run, it fetches what it lacks itself).
  const load = (): Promise<void> => {
    const place = status();
    if (place && waitingMarkup !== undefined) {
      place.innerHTML = waitingMarkup;
      waitingMarkup = undefined;
    }
    entry ??= loadIsland(doc).catch((error: unknown) => {
      entry = undefined;
      throw error;
    });
    island ??= entry
      .then((module) => module.mountDemo(layer, toasts))
      .catch((error: unknown) => {
        island = undefined;
        const shown = status();
        if (shown) {
          waitingMarkup ??= shown.innerHTML;
          shown.textContent = LOAD_PROBLEM_MESSAGE;
        }
        throw error;
      });
    return island;
  };
  const loadOrSay = () =>
    void load().catch((error: unknown) => console.error("The Request Demo form's code could not be fetched.", error));

  doc.addEventListener('click', (event) => {
    if (!triggerOf(event.target)) return;
    countFunnelStep('dialogOpened');
    // The form takes typing without its code, so a press does not hurry it; a fetch that failed is tried again.
    if (!island) whenPageIdle(doc, loadOrSay);
  });
  // Nothing the page shows waits on the dialog's code: it comes once the page has loaded and the browser is idle.
  whenPageIdle(doc, loadOrSay);
}
