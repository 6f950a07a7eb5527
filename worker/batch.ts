/**
 * Calls gathered into one: a worker with a hundred jobs in hand claims and marks their rows in a few statements
 * instead of one round trip each. The calls made in one turn of the event loop go together; and while a batch is
 * still with the database, the calls made meanwhile wait for it and go together as the next one, so that batches
 * grow with the load (each call waits at most one statement's round trip more) instead of staying a few calls each.
 */

interface Waiter<V> {
  resolve(value: V | undefined): void;
  reject(err: unknown): void;
}

/** Keys one run gets at most: a hundred jobs in hand ask for far fewer, but a statement stays bounded whatever comes. */
export const MAX_BATCH_KEYS = 500;

/**
 * Returns a function that takes one key and answers with its value from `run`, which gets every distinct key asked
 * for since the last run began (at most MAX_BATCH_KEYS at once). One run at a time. A key asked for twice in one
 * batch is answered once: the first caller gets the value and the others `undefined`, so that of two callers only one
 * gets what is handed out. When `run` fails, every caller of that batch gets its error.
 */
export function batched<K, V>(run: (keys: K[]) => Promise<Map<K, V>>): (key: K) => Promise<V | undefined> {
  let pending = new Map<K, Waiter<V>[]>();
  let scheduled = false;
  let running = false;

  const settle = (batch: Map<K, Waiter<V>[]>, values: Map<K, V>) => {
    for (const [key, [first, ...others]] of batch) {
      first?.resolve(values.get(key));
      for (const waiter of others) waiter.resolve(undefined);
    }
  };
  const fail = (batch: Map<K, Waiter<V>[]>, err: unknown) => {
    for (const waiters of batch.values()) for (const waiter of waiters) waiter.reject(err);
  };

  /** The keys asked for first, up to the cap; the others stay pending. */
  const takeNext = (): Map<K, Waiter<V>[]> => {
    const batch = pending.size <= MAX_BATCH_KEYS ? pending : new Map([...pending].slice(0, MAX_BATCH_KEYS));
    if (batch === pending) pending = new Map();
    else for (const key of batch.keys()) pending.delete(key);
    return batch;
  };

  const flush = () => {
    scheduled = false;
    if (running || pending.size === 0) return;
    running = true;
    const batch = takeNext();
    new Promise<Map<K, V>>((resolve) => resolve(run([...batch.keys()])))
      .then(
        (values) => settle(batch, values),
        (err: unknown) => fail(batch, err),
      )
      .finally(() => {
        running = false;
        flush();
      });
  };

  return (key) =>
    new Promise<V | undefined>((resolve, reject) => {
      const waiters = pending.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else pending.set(key, [{ resolve, reject }]);
      if (!scheduled && !running) {
        scheduled = true;
        setImmediate(flush);
      }
    });
}
