import { expect } from 'chai';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { MAX_BATCH_KEYS, batched } from './batch.js';
import { insertBookings } from '../test/outbox.js';
import { claim, markSent } from './outbox.js';

describe('calls gathered into one (worker/batch.ts)', () => {
  it('runs once for the keys asked for in one turn, each key once; of two callers of a key only the first gets it', async () => {
    const runs: string[][] = [];
    const lookUp = batched(async (keys: string[]) => {
      runs.push(keys);
      return new Map(keys.map((key) => [key, key.toUpperCase()]));
    });
    const answers = await Promise.all([lookUp('a'), lookUp('b'), lookUp('a'), lookUp('c')]);
    expect(runs).to.deep.equal([['a', 'b', 'c']]);
    expect(answers).to.deep.equal(['A', 'B', undefined, 'C']);
    expect(await lookUp('d')).to.equal('D');
    expect(runs).to.have.length(2);
  });

  it('gathers the calls made while a batch is with the database into the next one, and runs one batch at a time', async () => {
    const runs: string[][] = [];
    let running = 0;
    let mostAtOnce = 0;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const lookUp = batched(async (keys: string[]) => {
      runs.push(keys);
      mostAtOnce = Math.max(mostAtOnce, ++running);
      if (runs.length === 1) await held;
      running -= 1;
      return new Map(keys.map((key) => [key, key.toUpperCase()]));
    });
    const first = lookUp('a');
    await new Promise((resolve) => setImmediate(resolve));
    // Asked for over several turns while the first batch is out: they wait for it, then go together.
    const later: Promise<string | undefined>[] = [];
    for (const key of ['b', 'c', 'd']) {
      later.push(lookUp(key));
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(runs).to.deep.equal([['a']]);
    release();
    expect(await Promise.all([first, ...later])).to.deep.equal(['A', 'B', 'C', 'D']);
    expect(runs).to.deep.equal([['a'], ['b', 'c', 'd']]);
    expect(mostAtOnce).to.equal(1);
  });

  it('gives one run at most MAX_BATCH_KEYS keys, the first asked for; the rest go in the next run', async () => {
    const runs: number[][] = [];
    const lookUp = batched(async (keys: number[]) => {
      runs.push(keys);
      return new Map(keys.map((key) => [key, key * 2]));
    });
    const keys = Array.from({ length: MAX_BATCH_KEYS + 3 }, (_, i) => i);
    const answers = await Promise.all(keys.map((key) => lookUp(key)));
    expect(answers).to.deep.equal(keys.map((key) => key * 2));
    expect(runs.map((run) => run.length)).to.deep.equal([MAX_BATCH_KEYS, 3]);
    expect(runs[1]).to.deep.equal([MAX_BATCH_KEYS, MAX_BATCH_KEYS + 1, MAX_BATCH_KEYS + 2]);
  });

  it('still answers the calls waiting behind a batch that failed', async () => {
    let calls = 0;
    const lookUp = batched(async (keys: string[]) => {
      calls += 1;
      if (calls === 1) throw new Error('database away');
      return new Map(keys.map((key) => [key, key]));
    });
    const first = Promise.allSettled([lookUp('a')]);
    await new Promise((resolve) => setImmediate(resolve));
    const second = Promise.allSettled([lookUp('b')]);
    expect([...(await first), ...(await second)]).to.deep.equal([
      { status: 'rejected', reason: new Error('database away') },
      { status: 'fulfilled', value: 'b' },
    ]);
  });

  it('fails every caller of a batch that failed', async () => {
    const lookUp = batched(async () => Promise.reject(new Error('database away')));
    const outcomes = await Promise.allSettled([lookUp('a'), lookUp('b')]);
    expect(outcomes.map((outcome) => outcome.status)).to.deep.equal(['rejected', 'rejected']);
  });
});

describe('claims and marks of many rows at once', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
  });
  after(async () => {
    await database.drop();
  });

  it('claims each row once, whatever else the batch holds, and marks them all sent', async () => {
    const rows = await insertBookings(
      database.db,
      Array.from({ length: 30 }, (_, i) => ({
        name: `P ${i}`,
        email: `p${i}@example.com`,
        company: 'C',
        time_slot: new Date('2026-12-01T09:00:00Z'),
      })),
    );
    const ids = rows.map((row) => row.emailId);
    // Every row asked for three times at once, beside a row that does not exist and an id that is no UUID.
    const claims = await Promise.all(
      [...ids, ...ids, ...ids, '00000000-0000-4000-8000-000000000000', 'not-a-uuid'].map((id) =>
        claim(database.db, id),
      ),
    );
    const won = claims.filter((outcome) => outcome.claimed);
    expect(won).to.have.length(ids.length);
    expect(new Set(won.map((outcome) => (outcome.claimed ? outcome.row.id : '')))).to.deep.equal(new Set(ids));
    const refusals: Record<string, number> = {};
    for (const outcome of claims) if (!outcome.claimed) refusals[outcome.reason] = (refusals[outcome.reason] ?? 0) + 1;
    expect(refusals).to.deep.equal({ 'claimed-elsewhere': 2 * ids.length, missing: 2 });
    await Promise.all(ids.map((id) => markSent(database.db, id)));
    const stored = await database.db('deliveries').whereIn('id', ids).select('sent_at', 'claimed_until', 'attempts');
    expect(stored.every((row) => row.sent_at && row.claimed_until === null && row.attempts === 1)).to.equal(true);
  });

  it('claims in one statement only the rows open to it: not sent, not refused, and held by no live claim', async () => {
    const slot = new Date('2026-12-02T09:00:00Z');
    const insert = async (state: Record<string, unknown>) => {
      const rows = await insertBookings(
        database.db,
        [{ name: 'P', email: 'p@example.com', company: 'C', time_slot: slot }],
        state,
      );
      return rows.map((row) => row.emailId).join();
    };
    const open = await insert({});
    const leaseRanOut = await insert({ claimed_until: database.db.raw("now() - interval '1 second'") });
    const held = await insert({ claimed_until: database.db.raw("now() + interval '1 minute'") });
    const sent = await insert({ sent_at: database.db.fn.now() });
    const refused = await insert({ failed_at: database.db.fn.now() });
    const claims = await Promise.all([open, leaseRanOut, held, sent, refused].map((id) => claim(database.db, id)));
    expect(
      claims.map((outcome) => (!outcome.claimed ? outcome.reason : `claimed ${outcome.lead?.email}`)),
    ).to.deep.equal(['claimed p@example.com', 'claimed p@example.com', 'claimed-elsewhere', 'already-sent', 'refused']);
    const leases: { id: string; ms: number }[] = await database
      .db('deliveries')
      .whereIn('id', [open, leaseRanOut])
      .select('id', database.db.raw('extract(epoch from claimed_until - now()) * 1000 as ms'));
    expect(leases.every((lease) => Number(lease.ms) > 0)).to.equal(true);
    await database.db('deliveries').where({ id: open }).update({ last_error: 'earlier try', attempts: 1 });
    await markSent(database.db, open);
    const marked = await database
      .db('deliveries')
      .where({ id: open })
      .first('sent_at', 'claimed_until', 'last_error', 'attempts');
    expect(marked).to.include({ claimed_until: null, last_error: null, attempts: 2 });
    expect(marked.sent_at).to.be.instanceOf(Date);
  });
});
