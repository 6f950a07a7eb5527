/**
 * The dialog's island: React hydrates the Request Demo dialog, prerendered into the landing page, and renders the
 * toasts (nothing else of the page is React's in the browser). demo-launcher.ts runs this small entry once the page
 * is idle after its load; the dialog may be open by then (dialog-opener.ts), with fields typed into. The rest of the
 * dialog's code is fetched from here, all at once, and run part by part, each in a task of its own (React, the
 * libraries, the dialog, then the hydration, in slices), so the page never stops answering a visitor for long. The
 * calendar's code follows in a chunk of its own, which the form renders without waiting for
 * (date-time-picker/lazy-calendar.tsx).
 */
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

/** Hydrates the dialog, prerendered in `container`; the toasts go in `toasts`, an element of their own. */
export async function mountDemo(container: HTMLElement, toasts: HTMLElement): Promise<void> {
  for (const part of parts) {
    await part();
    await nextTask();
  }
  const [{ startTransition }, { hydrateRoot }, { demoTree }] = await Promise.all([
    import('react'),
    import('react-dom/client'),
    import(/* webpackPrefetch: true */ './demo-runtime.js'),
  ]);
  await nextTask();
  // In slices that what the visitor does can come between: a key typed meanwhile goes in the field as ever, and
  // the form takes in what its fields hold when hydration ends (use-demo-request-form.ts).
  startTransition(() => {
    hydrateRoot(container, demoTree(toasts), {
      onRecoverableError: (error) => console.error('The Request Demo dialog was rendered anew.', error),
    });
  });
}
