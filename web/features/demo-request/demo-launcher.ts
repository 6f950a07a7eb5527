/**
 * The Request Demo buttons of the prerendered page, without React: the dialog's code (React, the store, the form,
 * the calendar and the toasts: web/features/demo-request/demo-island.ts) is fetched and run once the page has loaded
 * and the browser is idle, so the dialog is ready when a visitor presses a button; nothing of it is fetched before
 * the page's load event unless a button is pressed first. Until it is ready, a prerendered "Loading the form…" panel
 * stands in, with a way out; if it cannot be fetched, the page says so and the next press tries again. While the
 * dialog is open the page behind it is inert; when it closes, focus goes back to the button that opened it.
 */
import type * as DemoIslandModule from './demo-island.js';
import type { DemoIsland } from './demo-island.js';
import { DEMO_TRIGGER_ATTRIBUTE } from '../../components/demo-trigger-attribute.js';
import { countFunnelStep } from './funnel-beacon.js';

declare global {
  interface Window {
    /** The dialog's entry leaves its exports here (web/webpack.config.js, DEMO_ISLAND_GLOBAL). */
    convergeDemoIsland?: typeof DemoIslandModule;
  }
}

export const DEMO_PAGE_ATTRIBUTE = 'data-demo-page';
export const DEMO_LAYER_ID = 'demo-layer';
export const DEMO_LOADING_ID = 'demo-loading';
export const DEMO_PROBLEM_ID = 'demo-load-problem';
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

/**
 * Runs `work` once the page has loaded and been shown, and the browser has nothing more pressing to do (at once
 * then where it cannot tell): so the dialog's code never competes with what the page shows first.
 */
function whenPageIdle(doc: Document, work: () => void): void {
  const idle = () =>
    afterFirstPaint(() => {
      if (typeof window.requestIdleCallback === 'function')
        window.requestIdleCallback(work, { timeout: IDLE_TIMEOUT_MS });
      else work();
    });
  if (doc.readyState === 'complete') idle();
  else window.addEventListener('load', idle, { once: true });
}

function triggerOf(target: EventTarget | null): HTMLElement | null {
  return target instanceof Element ? target.closest<HTMLElement>(`[${DEMO_TRIGGER_ATTRIBUTE}]`) : null;
}

export function startDemoLauncher(doc: Document): void {
  const page = doc.querySelector<HTMLElement>(`[${DEMO_PAGE_ATTRIBUTE}]`);
  const layer = doc.getElementById(DEMO_LAYER_ID);
  const loading = doc.getElementById(DEMO_LOADING_ID);
  const problem = doc.getElementById(DEMO_PROBLEM_ID);
  if (!page || !layer || !loading || !problem) return;

  let entry: Promise<typeof DemoIslandModule> | undefined;
  let island: Promise<DemoIsland> | undefined;
  let ready: DemoIsland | undefined;
  let isOpen = false;
  let opener: HTMLElement | null = null;

  const showLoading = (shown: boolean) => {
    loading.hidden = !shown;
    if (shown) loading.querySelector('button')?.focus();
  };

  const close = () => {
    if (!isOpen) return;
    isOpen = false;
    showLoading(false);
    ready?.setOpen(false);
    page.inert = false;
    opener?.focus();
  };

  // One fetch at a time; a failed one is forgotten, so the next press fetches again (the entry script only if it
  // was that which failed: once run, it fetches what it lacks itself).
  const load = (): Promise<DemoIsland> => {
    entry ??= loadIsland(doc).catch((error: unknown) => {
      entry = undefined;
      throw error;
    });
    island ??= entry
      .then((module) => module.mountDemo(layer, close))
      .then(
        (demo) => (ready = demo),
        (error: unknown) => {
          island = undefined;
          throw error;
        },
      );
    return island;
  };

  const open = (trigger: HTMLElement) => {
    opener = trigger;
    isOpen = true;
    countFunnelStep('dialogOpened');
    problem.textContent = '';
    page.inert = true;
    if (ready) {
      ready.setOpen(true);
      return;
    }
    showLoading(true);
    load().then(
      (demo) => {
        if (!isOpen) return;
        showLoading(false);
        demo.setOpen(true);
      },
      (error: unknown) => {
        console.error('The Request Demo form could not be loaded.', error);
        if (!isOpen) return;
        close();
        problem.textContent = LOAD_PROBLEM_MESSAGE;
      },
    );
  };

  doc.addEventListener('click', (event) => {
    const trigger = triggerOf(event.target);
    if (trigger) open(trigger);
  });
  // Nothing the page shows waits on the dialog's code: it comes once the page has loaded and the browser is idle. A
  // failed fetch is logged here and tried again on a press.
  whenPageIdle(
    doc,
    () =>
      void load().catch((error: unknown) =>
        console.warn("The Request Demo form's code could not be fetched yet.", error),
      ),
  );
  loading.addEventListener('click', (event) => {
    if (event.target instanceof Element && event.target.closest('button')) close();
  });
  loading.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') close();
  });
}
