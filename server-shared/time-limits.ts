/** Waiting with a limit: for services that may stop answering, and for shutdowns that must end in time. */

/** The promise's value, or a rejection naming `what` once `ms` have passed. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** True when the promise settles (either way) within `ms`, false when the time runs out first. */
export function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return withTimeout(
    promise.then(
      () => true,
      () => true,
    ),
    ms,
    'waiting',
  ).catch(() => false);
}
