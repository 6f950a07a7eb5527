/**
 * The dialog's island: React renders the Request Demo dialog and the toasts into their own layer of the prerendered
 * page (nothing else of the page is React's in the browser). demo-launcher.ts runs this small entry once the page is
 * idle after its load, and opens and closes the dialog through what it gives back. The rest of the dialog's code is
 * fetched from here, all at once, and run part by part, each in a task of its own (React, the libraries, the dialog,
 * then the closed dialog's first render, in slices), so the page never stops answering a visitor for long. The
 * calendar's code follows in a chunk of its own, which the form renders without waiting for
 * (date-time-picker/lazy-calendar.tsx).
 */
export interface DemoIsland {
  setOpen: (open: boolean) => void;
}

/** Lets the browser handle what waits (a key, a click, a frame) before the next part of the dialog's code runs. */
const nextTask = () =>
  new Promise<void>((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });

/**
 * The dialog's code in the order it is run, each part (with what it imports that has not run yet) in a task of its
 * own: run together they would keep the page from answering for longer than a visitor should wait. Each is a module
 * of ours that imports what it uses of a library, so the bundle keeps only that. webpackPrefetch has the browser
 * fetch them all, in parallel, as soon as this entry runs; import() then runs each when it is its turn.
 */
const parts = [
  () => import(/* webpackPrefetch: true */ 'react-dom/client'),
  // styled-components
  () => import(/* webpackPrefetch: true */ '../../components/button.js'),
  // Redux Toolkit, its query layer and react-redux
  () => import(/* webpackPrefetch: true */ '../../store/store.js'),
  // react-toastify
  () => import(/* webpackPrefetch: true */ '../../components/notify.js'),
  // The form reads the booking zone when its code runs, and checking a zone loads the browser's time-zone data the
  // first time (about as long as all the rest of the form's code): it is loaded here, in a task of its own.
  () => import('../date-time-picker/booking-rules-meta.js').then((meta) => meta.readBookingTimeZone()),
] as const;

export async function mountDemo(container: HTMLElement, onClose: () => void): Promise<DemoIsland> {
  for (const part of parts) {
    await part();
    await nextTask();
  }
  const [{ startTransition }, { flushSync }, { createRoot }, { demoTree }] = await Promise.all([
    import('react'),
    import('react-dom'),
    import('react-dom/client'),
    import(/* webpackPrefetch: true */ './demo-runtime.js'),
  ]);
  await nextTask();
  const root = createRoot(container);
  // The closed dialog is rendered in the background, in slices that what the visitor does can come between.
  startTransition(() => root.render(demoTree(false, onClose)));
  // Opening and closing are rendered at once, so when the dialog closes its focus trap is gone before focus goes back
  // to the page.
  return { setOpen: (isOpen) => flushSync(() => root.render(demoTree(isOpen, onClose))) };
}
