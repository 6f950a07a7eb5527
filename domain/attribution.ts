/** Where the visit that books came from: the landing URL's UTM parameters and the referrer, first touch of the visit. */
export const ATTRIBUTION_MAX_LENGTH = 300;
export const ATTRIBUTION_KEYS = [
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
  'referrer',
] as const;
export type AttributionKey = (typeof ATTRIBUTION_KEYS)[number];
export type Attribution = Partial<Record<AttributionKey, string>>;

/** The UTM parameters of a URL and a referrer from another site (a page of this site says nothing of the source). */
export function attributionOf(url: URL, referrer: string): Attribution {
  const found: Attribution = {};
  for (const key of ATTRIBUTION_KEYS) {
    const value = key === 'referrer' ? outsideReferrer(url, referrer) : url.searchParams.get(key)?.trim();
    if (value) found[key] = value.slice(0, ATTRIBUTION_MAX_LENGTH);
  }
  return found;
}

function outsideReferrer(url: URL, referrer: string): string | undefined {
  try {
    return referrer && new URL(referrer).origin !== url.origin ? referrer : undefined;
  } catch {
    return undefined;
  }
}
