/** The Redis `npm start` provides when none is configured or answering: real redis-server processes. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { TEST_REDIS_URL, silentLogger } from '../../test/stack.js';
import { isAlive } from './ports.js';
import { NO_REDIS_MESSAGE, redisAnswers, startRedisServer } from './redis.js';
import { StartupError } from './startup-error.js';

describe('Redis for npm start', function () {
  this.timeout(20_000);
  let dataDir: string;

  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'converge-redis-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('starts a redis-server on its own port, durable and never evicting, and stops it', async () => {
    const redis = await startRedisServer({ dataDir, logger: silentLogger });
    try {
      expect(redis.url).to.match(/^redis:\/\/127\.0\.0\.1:\d+$/);
      expect(redis.url).to.not.equal(TEST_REDIS_URL);
      expect(await redisAnswers(redis.url)).to.equal(true);
      const client = new Redis(redis.url);
      try {
        expect(await client.config('GET', 'appendonly')).to.deep.equal(['appendonly', 'yes']);
        expect(await client.config('GET', 'maxmemory-policy')).to.deep.equal(['maxmemory-policy', 'noeviction']);
        expect(await client.config('GET', 'dir')).to.deep.equal(['dir', path.join(dataDir, 'redis')]);
      } finally {
        client.disconnect();
      }
    } finally {
      await redis.stop();
    }
    expect(isAlive(redis.pid)).to.equal(false);
    expect(await redisAnswers(redis.url)).to.equal(false);
  });

  it('says how to get Redis when there is no redis-server to start', async () => {
    let error: unknown;
    try {
      await startRedisServer({ dataDir, logger: silentLogger, command: 'redis-server-that-is-not-installed' });
    } catch (err) {
      error = err;
    }
    expect(error).to.be.instanceOf(StartupError);
    expect((error as Error).message).to.equal(NO_REDIS_MESSAGE);
    expect(NO_REDIS_MESSAGE).to.include('apt-get install redis-server').and.include('docker compose up -d redis');
    expect(NO_REDIS_MESSAGE).to.include('REDIS_URL=redis://127.0.0.1:6380');
  });

  it('tells a Redis that answers from a port where nothing does', async () => {
    expect(await redisAnswers(TEST_REDIS_URL)).to.equal(true);
    expect(await redisAnswers('redis://127.0.0.1:1')).to.equal(false);
  });
});
