/**
 * The Request Demo dialog's opener, written into the landing page's head (web/app/prerender.tsx) so that a press on
 * any Request Demo link answers from the first paint on, with none of the page's script files fetched: the link
 * opens the prerendered dialog (demo-request-dialog.tsx) instead of the booking page it points to, and its first field takes
 * typing at once. It stays the dialog's opener once the dialog's code has arrived (demo-island.ts), which takes
 * over the form inside it. Closing (Escape, the Close button, a booking) puts focus back on the link.
 */
import { DEMO_DIALOG_ID, DEMO_TRIGGER_ATTRIBUTE } from '../../components/demo-trigger-attribute.js';

document.addEventListener('click', (event) => {
  // A press meant for a new tab or window is the link's.
  if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
  const trigger = event.target instanceof Element ? event.target.closest(`[${DEMO_TRIGGER_ATTRIBUTE}]`) : null;
  const dialog = document.getElementById(DEMO_DIALOG_ID);
  // Pressed before the dialog's markup has been parsed, the link goes to the booking page.
  if (!(trigger instanceof HTMLElement) || !(dialog instanceof HTMLDialogElement) || dialog.open) return;
  event.preventDefault();
  dialog.showModal();
  dialog.querySelector('input')?.focus();
  dialog.addEventListener('close', () => trigger.focus(), { once: true });
});

// The form is the dialog's code's to send (use-demo-request-form.ts); sent before it has come, it would reload the
// page with the fields in its address.
document.addEventListener('submit', (event) => {
  if (
    event.target instanceof HTMLFormElement &&
    event.target.method !== 'dialog' &&
    event.target.closest(`#${DEMO_DIALOG_ID}`)
  )
    event.preventDefault();
});
