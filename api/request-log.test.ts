import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import Koa from 'koa';
import pino from 'pino';
import { requestLog } from './request-log.js';

interface LogLine {
  msg: string;
  level: number;
  method?: string;
  path?: string;
  status?: number;
  requestId?: string;
  durationMs?: number;
  stored?: string;
}

/** A Koa app with only the request log, answering every path, and the log lines it wrote. */
async function loggedApp(level = 'info'): Promise<{ url: string; lines: LogLine[]; close: () => Promise<void> }> {
  const lines: LogLine[] = [];
  const app = new Koa();
  app.use(requestLog(pino({ level }, { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) })));
  app.use((ctx) => {
    if (ctx.path.endsWith('/missing.js')) ctx.throw(404);
    if (ctx.path === '/writes-a-line') {
      (ctx.state.log as pino.Logger).info('a line of its own');
      ctx.state.logFields = { stored: 'demo-1' };
    }
    ctx.body = 'ok';
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    lines,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('the request log', () => {
  const token = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-AbCdE';

  it("logs a booking's addresses with :token in place of the token (the manage page's and the API's), a short link's with :code", async () => {
    const app = await loggedApp();
    try {
      const paths = [
        `/booking/${token}`,
        `/booking/${token}/`,
        `/api/bookings/${token}`,
        `/api/bookings/${token}/reschedule`,
        `/BOOKING/${token}`,
      ];
      for (const path of paths) expect((await fetch(`${app.url}${path}`)).status, path).to.equal(200);
      // A text's short link code opens its booking as well.
      expect((await fetch(`${app.url}/m/${token.slice(0, 22)}`)).status).to.equal(200);
      expect(app.lines.map((line) => line.path)).to.deep.equal([
        '/booking/:token',
        '/booking/:token/',
        '/api/bookings/:token',
        '/api/bookings/:token/reschedule',
        '/BOOKING/:token',
        '/m/:code',
      ]);
      expect(JSON.stringify(app.lines)).to.not.contain(token.slice(0, 22));
    } finally {
      await app.close();
    }
  });

  it('keeps every other path as it is, with the method, the status and a request id', async () => {
    const app = await loggedApp();
    try {
      for (const path of ['/', '/legal/privacy', '/bookings', '/api/openapi.json']) await fetch(`${app.url}${path}`);
      expect(app.lines.map((line) => line.path)).to.deep.equal([
        '/',
        '/legal/privacy',
        '/bookings',
        '/api/openapi.json',
      ]);
      expect(
        app.lines.every(
          (line) => line.msg === 'request' && line.method === 'GET' && line.status === 200 && line.requestId,
        ),
      ).to.equal(true);
    } finally {
      await app.close();
    }
  });

  it("logs the site's files at debug, so that a page view shows one line at info for the page and one for each call to the API", async () => {
    const files = ['/assets/booking.0123456789ab.js', '/fonts/inter.woff2', '/favicon.svg', '/email/logo.png'];
    const quiet = await loggedApp('info');
    try {
      for (const path of ['/', ...files, '/api/slots', '/assets/missing.js']) await fetch(`${quiet.url}${path}`);
      // A file that is not there stays in sight: a broken build or a stale page asks for it.
      expect(quiet.lines.map((line) => `${line.path} ${line.status}`)).to.deep.equal([
        '/ 200',
        '/api/slots 200',
        '/assets/missing.js 404',
      ]);
    } finally {
      await quiet.close();
    }
    const debug = await loggedApp('debug');
    try {
      for (const path of files) await fetch(`${debug.url}${path}`);
      expect(debug.lines.map((line) => [line.path, line.level])).to.deep.equal(files.map((path) => [path, 20]));
    } finally {
      await debug.close();
    }
  });

  it('takes a sane X-Request-Id, makes one otherwise, answers with it, and puts it on every line of the request', async () => {
    const app = await loggedApp();
    try {
      const given = await fetch(`${app.url}/writes-a-line`, { headers: { 'X-Request-Id': 'req-42.a:b_c' } });
      expect(given.headers.get('X-Request-Id')).to.equal('req-42.a:b_c');
      const made = await fetch(`${app.url}/`, { headers: { 'X-Request-Id': 'not sane <script>' } });
      const madeId = made.headers.get('X-Request-Id');
      expect(madeId).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      const none = await fetch(`${app.url}/`);
      expect(none.headers.get('X-Request-Id'))
        .to.match(/^[0-9a-f-]{36}$/)
        .and.not.equal(madeId);
      const [own, first, second, third] = app.lines;
      expect(own).to.include({ msg: 'a line of its own', requestId: 'req-42.a:b_c' });
      expect(first).to.include({ msg: 'request', requestId: 'req-42.a:b_c', stored: 'demo-1' });
      expect(first!.durationMs).to.be.a('number').and.at.least(0);
      expect(second).to.include({ msg: 'request', requestId: madeId });
      expect(third!.requestId).to.equal(none.headers.get('X-Request-Id'));
      expect(app.lines).to.have.length(4);
    } finally {
      await app.close();
    }
  });
});
