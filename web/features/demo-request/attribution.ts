/**
 * Where the visit came from, for the sales team: the landing URL's UTM parameters and the referrer, kept as the
 * visit's first touch in the tab's session storage, and sent with the demo request.
 */
import {
  ATTRIBUTION_KEYS,
  ATTRIBUTION_MAX_LENGTH,
  attributionOf,
  type Attribution,
} from '../../../domain/attribution.js';

const STORAGE_KEY = 'converge:attribution';

/** The tab's session storage, or nothing where the browser refuses it. */
export function visitStorage(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

/** Keeps the first touch of the visit: a later page of the same visit does not replace it. */
export function rememberAttribution(storage: Storage | undefined, url: URL, referrer: string): void {
  if (!storage) return;
  try {
    if (storage.getItem(STORAGE_KEY) === null)
      storage.setItem(STORAGE_KEY, JSON.stringify(attributionOf(url, referrer)));
  } catch {
    // Storage refused (a privacy mode): the request goes without attribution.
  }
}

/** The visit's first utm_source, if it had one: all the funnel's beacons say of it (funnel-beacon.ts). */
export function rememberedUtmSource(storage: Storage | undefined): string | undefined {
  try {
    const stored: unknown = JSON.parse(storage?.getItem(STORAGE_KEY) ?? '{}');
    const source = (stored as { utm_source?: unknown } | null)?.utm_source;
    return typeof source === 'string' ? source : undefined;
  } catch {
    return undefined;
  }
}

/** The visit's first touch, if it had any; only known keys with text values. */
export function rememberedAttribution(storage: Storage | undefined): Attribution | undefined {
  if (!storage) return undefined;
  try {
    const stored: unknown = JSON.parse(storage.getItem(STORAGE_KEY) ?? '{}');
    if (typeof stored !== 'object' || stored === null) return undefined;
    const found: Attribution = {};
    for (const key of ATTRIBUTION_KEYS) {
      const value = (stored as Record<string, unknown>)[key];
      if (typeof value === 'string' && value !== '') found[key] = value.slice(0, ATTRIBUTION_MAX_LENGTH);
    }
    return Object.keys(found).length > 0 ? found : undefined;
  } catch {
    return undefined;
  }
}
