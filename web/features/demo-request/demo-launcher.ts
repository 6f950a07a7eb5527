/**
 * The Request Demo buttons of the prerendered page, without React: the dialog's code (React, the store, the form,
 * the calendar and the toasts: web/features/demo-request/demo-island.tsx) is fetched only when a visitor shows an
 * intent (points at or focuses a button, or starts scrolling or typing), and runs when the dialog first opens. Until
 * it has arrived, a prerendered "Loading the form…" panel stands in, with a way out; if it cannot be fetched, the page
 * says so and the next press tries again. While the dialog is open the page behind it is inert; when it closes, focus
 * goes back to the button that opened it.
 */
import type * as DemoIslandModule from './demo-island.js';
import type { DemoIsland } from './demo-island.js';
import { DEMO_TRIGGER_ATTRIBUTE } from '../../components/demo-trigger-attribute.js';

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
/** The meta tag naming the dialog's scripts, which the page fetches ahead (without running them) once a visitor reads on. */
export const DIALOG_CODE_META = 'demo-code';
export const LOAD_PROBLEM_MESSAGE = 'The demo request form could not be loaded. Please check your connection and try again.';

/** Runs the dialog's scripts (named in the page's meta tag), in order, and gives the module they leave behind. */
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
        else reject(new Error('the dialog\'s scripts ran but left nothing behind'));
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
  return doc.querySelector<HTMLMetaElement>(`meta[name="${DIALOG_CODE_META}"]`)?.content.split(' ').filter(Boolean) ?? [];
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

  // One fetch at a time; a failed one is forgotten, so the next intent or press fetches again.
  const load = (): Promise<DemoIsland> => {
    island ??= loadIsland(doc).then(
      (module) => (ready = module.mountDemo(layer, close)),
      (error: unknown) => {
        island = undefined;
        throw error;
      },
    );
    return island;
  };
  const warm = () => void load().catch(() => undefined);

  const open = (trigger: HTMLElement) => {
    opener = trigger;
    isOpen = true;
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
  for (const intent of ['pointerover', 'focusin'] as const) {
    doc.addEventListener(intent, (event) => {
      if (triggerOf(event.target)) warm();
    });
  }
  // A visitor who starts to read on is likely to ask for a demo: the code is fetched at low priority while they read,
  // and run only on a nearer intent, so nothing they see (the counters, say) waits on it.
  let prefetched = false;
  const prefetch = () => {
    if (prefetched) return;
    prefetched = true;
    for (const href of dialogScripts(doc)) {
      doc.head.append(Object.assign(doc.createElement('link'), { rel: 'prefetch', as: 'script', href }));
    }
  };
  for (const intent of ['scroll', 'keydown'] as const) {
    window.addEventListener(intent, prefetch, { once: true, passive: true });
  }
  loading.addEventListener('click', (event) => {
    if (event.target instanceof Element && event.target.closest('button')) close();
  });
  loading.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') close();
  });
}
