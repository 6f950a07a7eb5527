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
