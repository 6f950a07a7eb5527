/**
 * What the Request Demo links and the dialog they open share with the page's small scripts, in a plain module so that
 * those scripts take no React with them: the attribute DemoTrigger writes on each link, the link's address (the
 * booking page the server renders, for a visitor without script), and the dialog's id
 * (features/demo-request/dialog-opener.ts opens it; demo-launcher.ts brings its code).
 */
export const DEMO_TRIGGER_ATTRIBUTE = 'data-demo-trigger';
export const BOOK_PAGE_PATH = '/book';
export const DEMO_DIALOG_ID = 'demo-dialog';
/** Marks where the dialog's calendar will be, which says its code is on its way, or that it could not be fetched. */
export const DEMO_CODE_STATUS_ATTRIBUTE = 'data-demo-code-status';
