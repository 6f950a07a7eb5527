import { expect } from 'chai';
import pino from 'pino';
import { ConfigError } from '../../server-shared/settings.js';
import {
  FUNNEL_SOURCES_REFRESH_MS,
  FUNNEL_SOURCES_RETRY_MS,
  KnownFunnelSources,
  parseFunnelSources,
} from './known-sources.js';

const silent = pino({ level: 'silent' });

/** A source list with a clock the test moves, and the bookings' sources it answers, counting its reads. */
function setUp(listed: string[] = []) {
  const state = { now: 0, stored: [] as string[], reads: 0, fail: false, gate: undefined as Promise<void> | undefined };
  const sources = new KnownFunnelSources({
    listed,
    logger: silent,
    clock: () => state.now,
    readBookingSources: async () => {
      state.reads += 1;
      await state.gate;
      if (state.fail) throw new Error('connection refused');
      return [...state.stored];
    },
  });
  return { state, sources };
}

describe('the sources the funnel knows', () => {
  it("keeps a listed one and a stored booking's (in funnel form), counts the rest as other, and the format rule first", async () => {
    const { state, sources } = setUp(['newsletter']);
    state.stored = ['Partner-Blog', ' Webinar ', 'ada@example.com', ''];
    const counted = await Promise.all(
      ['Newsletter', 'partner-blog', 'webinar', 'ada@example.com', 'made-up', '', undefined].map((source) =>
        sources.counted(source),
      ),
    );
    expect(counted).to.deep.equal(['newsletter', 'partner-blog', 'webinar', 'other', 'other', null, null]);
    // Concurrent beacons shared one read.
    expect(state.reads).to.equal(1);
  });

  it('reads the bookings again only once the refresh is due: made-up sources cost one read per period', async () => {
    const { state, sources } = setUp();
    for (let i = 0; i < 30; i += 1) expect(await sources.counted(`made-up-${i}`)).to.equal('other');
    expect(state.reads).to.equal(1);
    // A booking stored by another process: known at the next read.
    state.stored = ['spring'];
    expect(await sources.counted('spring')).to.equal('other');
    state.now += FUNNEL_SOURCES_REFRESH_MS;
    expect(await sources.counted('spring')).to.equal('spring');
    expect(state.reads).to.equal(2);
  });

  it("lets a source go when no booking of the window carries it any more, after the next read (a known source's beacon does not wait for it)", async () => {
    const { state, sources } = setUp();
    state.stored = ['autumn'];
    expect(await sources.counted('autumn')).to.equal('autumn');
    state.stored = [];
    state.now += FUNNEL_SOURCES_REFRESH_MS;
    expect(await sources.counted('autumn')).to.equal('autumn');
    await new Promise((resolve) => setImmediate(resolve));
    expect(await sources.counted('autumn')).to.equal('other');
  });

  it('knows at once the source of a booking stored here, even while a read that missed it is on its way', async () => {
    const { state, sources } = setUp();
    expect(await sources.counted('webinar')).to.equal('other');
    sources.booked('Webinar');
    sources.booked('ada@example.com');
    sources.booked(undefined);
    expect(await sources.counted('webinar')).to.equal('webinar');
    let open = () => {};
    state.gate = new Promise((resolve) => (open = resolve));
    state.now += FUNNEL_SOURCES_REFRESH_MS;
    const waiting = sources.counted('made-up');
    sources.booked('launch');
    open();
    expect(await waiting).to.equal('other');
    expect(await sources.counted('launch')).to.equal('launch');
    expect(await sources.counted('ada@example.com')).to.equal('other');
  });

  it('keeps what it knew when a read fails, and tries again sooner', async () => {
    const { state, sources } = setUp(['newsletter']);
    state.stored = ['spring'];
    expect(await sources.counted('spring')).to.equal('spring');
    state.fail = true;
    state.now += FUNNEL_SOURCES_REFRESH_MS;
    expect(await sources.counted('made-up')).to.equal('other');
    expect(await sources.counted('spring')).to.equal('spring');
    expect(await sources.counted('newsletter')).to.equal('newsletter');
    expect(state.reads).to.equal(2);
    state.fail = false;
    state.stored = ['spring', 'summer'];
    state.now += FUNNEL_SOURCES_RETRY_MS;
    expect(await sources.counted('summer')).to.equal('summer');
    expect(state.reads).to.equal(3);
  });
});

describe('FUNNEL_SOURCES', () => {
  it('takes comma-separated sources in the form the funnel keeps, lower case, each once; unset is none', () => {
    expect(parseFunnelSources(undefined)).to.deep.equal([]);
    expect(parseFunnelSources('Newsletter, linkedin,,q4_launch-2026 ,newsletter')).to.deep.equal([
      'newsletter',
      'linkedin',
      'q4_launch-2026',
    ]);
  });

  it('refuses a source the funnel would count as other, naming it', () => {
    for (const value of ['newsletter,ada@example.com', 'news letter', 'x'.repeat(41), 'ünïcode']) {
      expect(() => parseFunnelSources(value), value).to.throw(
        ConfigError,
        /^FUNNEL_SOURCES must be sources separated by commas/,
      );
    }
  });
});
