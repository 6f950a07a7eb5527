const COUNT_UP_DURATION_MS = 2000;
const COUNT_UP_STAGGER_MS = 200;

/** Cubic ease-out: fast at first, settling gently on the final value. */
export function easeOutCubic(t: number): number {
  const clamped = Math.min(1, Math.max(0, t));
  return 1 - (1 - clamped) ** 3;
}

/**
 * The number a card shows `elapsed` ms after the counters came into view. Card `index` starts
 * `index × stagger` ms later than the first; whole numbers only, since every metric is a whole number.
 */
export function countUpValue(
  target: number,
  elapsed: number,
  index: number,
  duration = COUNT_UP_DURATION_MS,
  stagger = COUNT_UP_STAGGER_MS,
): number {
  const progress = (elapsed - index * stagger) / duration;
  return Math.round(target * easeOutCubic(progress));
}

/** How long until the last of `count` cards reaches its value. */
export function countUpTotalMs(count: number, duration = COUNT_UP_DURATION_MS, stagger = COUNT_UP_STAGGER_MS): number {
  return duration + Math.max(0, count - 1) * stagger;
}
