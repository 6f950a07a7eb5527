/**
 * Calls made in the same turn of the event loop, gathered into one: a worker with a hundred jobs in hand claims and
 * marks their rows in a few statements instead of one round trip each.
 */

interface Waiter<V> {
  resolve(value: V | undefined): void;
  reject(err: unknown): void;
}

/**
 * Returns a function that takes one key and answers with its value from `run`, which gets every distinct key asked
 * for since the last turn (at most `maxKeys` at once). A key asked for twice in one batch is answered once: the
 * first caller gets the value and the others `undefined`, so that of two callers only one gets what is handed out.
 * When `run` fails, every caller of that batch gets its error.
 */
export function batched<K, V>(run: (keys: K[]) => Promise<Map<K, V>>, maxKeys = 500): (key: K) => Promise<V | undefined> {
  let pending = new Map<K, Waiter<V>[]>();
  let scheduled = false;

  const flush = () => {
    scheduled = false;
    const batch = pending;
    pending = new Map();
    const keys = [...batch.keys()];
    for (let start = 0; start < keys.length; start += maxKeys) {
      const slice = keys.slice(start, start + maxKeys);
      run(slice).then(
        (values) => {
          for (const key of slice) {
            const [first, ...others] = batch.get(key) ?? [];
            first?.resolve(values.get(key));
            for (const waiter of others) waiter.resolve(undefined);
          }
        },
        (err: unknown) => {
          for (const key of slice) for (const waiter of batch.get(key) ?? []) waiter.reject(err);
        },
      );
    }
  };

  return (key) =>
    new Promise<V | undefined>((resolve, reject) => {
      const waiters = pending.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else pending.set(key, [{ resolve, reject }]);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    });
}
