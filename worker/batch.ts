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

export interface BatchOptions {
  /** Keys one run gets at most. */
  maxKeys?: number;
  /** Runs under way at once; the keys asked for beyond them wait for one to end. */
  maxRunning?: number;
}

/**
 * Returns a function that takes one key and answers with its value from `run`, which gets every distinct key asked
 * for since the last run began (at most `maxKeys` at once). A key asked for twice in one batch is answered once: the
 * first caller gets the value and the others `undefined`, so that of two callers only one gets what is handed out.
 * When `run` fails, every caller of that batch gets its error.
 */
export function batched<K, V>(run: (keys: K[]) => Promise<Map<K, V>>, { maxKeys = 500, maxRunning = 1 }: BatchOptions = {}): (key: K) => Promise<V | undefined> {
  let pending = new Map<K, Waiter<V>[]>();
  let scheduled = false;
  let running = 0;

  const settle = (batch: Map<K, Waiter<V>[]>, values: Map<K, V>) => {
    for (const [key, [first, ...others]] of batch) {
      first?.resolve(values.get(key));
      for (const waiter of others) waiter.resolve(undefined);
    }
  };
  const fail = (batch: Map<K, Waiter<V>[]>, err: unknown) => {
    for (const waiters of batch.values()) for (const waiter of waiters) waiter.reject(err);
  };

  const flush = () => {
    scheduled = false;
    while (running < maxRunning && pending.size > 0) {
      let batch = pending;
      if (pending.size <= maxKeys) pending = new Map();
      else {
        batch = new Map();
        for (const [key, waiters] of pending) {
          if (batch.size === maxKeys) break;
          batch.set(key, waiters);
          pending.delete(key);
        }
      }
      running += 1;
      const ran = batch;
      new Promise<Map<K, V>>((resolve) => resolve(run([...ran.keys()])))
        .then(
          (values) => settle(ran, values),
          (err: unknown) => fail(ran, err),
        )
        .finally(() => {
          running -= 1;
          flush();
        });
    }
  };

  return (key) =>
    new Promise<V | undefined>((resolve, reject) => {
      const waiters = pending.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else pending.set(key, [{ resolve, reject }]);
      if (!scheduled && running < maxRunning) {
        scheduled = true;
        setImmediate(flush);
      }
    });
}
