/**
 * The landing page's script before any interaction, beside the Request Demo dialog's opener in its head
 * (dialog-opener.ts). The page is prerendered and stays as it is: nothing of it is hydrated. This wires the little it
 * needs at once (the section menu, the counters) and keeps where the visit came from; the dialog's React code, which
 * hydrates the dialog, is fetched once the page is idle after its load (demo-launcher.ts).
 */
import { rememberAttribution, visitStorage } from '../features/demo-request/attribution.js';
import { startDemoLauncher } from '../features/demo-request/demo-launcher.js';
import { loadFontAfterFirstPaint } from '../components/font-loading.js';
import { startCounters } from '../features/metrics/counters.js';
import { enhanceSectionMenu } from '../features/top-bar/section-menu.js';

rememberAttribution(visitStorage(), new URL(window.location.href), document.referrer);
enhanceSectionMenu(document);
startCounters(document);
loadFontAfterFirstPaint(document);
startDemoLauncher(document);
