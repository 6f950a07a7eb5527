/** The API's Redis connections: they fail fast rather than queue commands while Redis is away. */
import { Redis } from 'ioredis';

export function createFailFastRedis(redisUrl: string): Redis {
  const redis = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000 });
  // Reported where it matters (enqueue, readiness); ioredis keeps reconnecting by itself.
  redis.on('error', () => {});
  return redis;
}

/**
 * Waits at most `ms` for the connection to be usable: a connection still being made (at start-up, say) is
 * worth a short wait; the listeners go either way.
 */
export function whenReady(redis: Redis, ms: number): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ready: boolean) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      redis.off('end', onEnd);
      resolve(ready);
    };
    const onReady = () => done(true);
    const onEnd = () => done(false);
    const timer = setTimeout(() => done(false), ms);
    redis.once('ready', onReady);
    redis.once('end', onEnd);
  });
}
