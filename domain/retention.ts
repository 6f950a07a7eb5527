/**
 * How long after its slot a booking keeps its personal data unless RETENTION_DAYS says otherwise: two years. The
 * worker's retention applies it, and the privacy policy states it.
 */
export const DEFAULT_RETENTION_DAYS = 730;
