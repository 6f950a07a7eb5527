/**
 * The attribute that marks a button as opening the Request Demo dialog: DemoTrigger writes it, and the page's small
 * launcher script (features/demo-request/demo-launcher.ts) finds the buttons by it. A plain module, so that the
 * launcher takes no React with it.
 */
export const DEMO_TRIGGER_ATTRIBUTE = 'data-demo-trigger';
