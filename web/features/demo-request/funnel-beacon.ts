/**
 * The funnel's anonymous counts (docs/funnel.md): a step, with the visit's utm_source, sent
 * once per page visit through navigator.sendBeacon. Nothing identifies the visitor: no cookie, nothing stored, no id;
 * which steps were sent is remembered in this page's memory only. Nothing is sent before the visitor acts: the first
 * step is the dialog opening. The page's script (dialogOpened) and the dialog's (the others) each hold their own
 * module instance (web/webpack.config.js), so each remembers the steps it sends.
 */
import {
  FUNNEL_PATH,
  FUNNEL_SOURCE_SENT_MAX_LENGTH,
  type FunnelBeacon,
  type FunnelStep,
} from '../../../domain/funnel.js';
import { rememberedUtmSource, visitStorage } from './attribution.js';

const sent = new Set<FunnelStep>();

export function countFunnelStep(step: FunnelStep): void {
  if (sent.has(step) || typeof navigator.sendBeacon !== 'function') return;
  sent.add(step);
  const source = rememberedUtmSource(visitStorage())?.trim().slice(0, FUNNEL_SOURCE_SENT_MAX_LENGTH);
  const beacon: FunnelBeacon = source ? { step, source } : { step };
  try {
    // A string goes as text/plain: a simple request, as a beacon should be.
    navigator.sendBeacon(FUNNEL_PATH, JSON.stringify(beacon));
  } catch {
    // A browser that refuses the beacon: the step goes uncounted, and the visitor notices nothing.
  }
}
