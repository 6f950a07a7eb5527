/**
 * Slow clients against the real server (startApiServer): raw sockets that trickle bytes, and the moment the server
 * lets go of them. Each test prints its figure.
 */
import net from 'node:net';
import { expect } from 'chai';
import { loadApiConfig } from './config.js';
import { startApiServer, type RunningApi } from './server.js';
import { createTestDatabase } from '../test/database.js';
import { TEST_LINK_SECRET, TEST_REDIS_URL, clearQueuePrefix, silentLogger, testQueuePrefix } from '../test/stack.js';

interface Watched {
  socket: net.Socket;
  /** Everything the server sent so far. */
  received(): string;
  /** Seconds from the connection to its close, or Infinity if it is still open after `capSeconds`. */
  closedWithin(capSeconds: number): Promise<number>;
}

function connect(port: number, localAddress = '127.0.0.1'): Promise<Watched> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress });
    const opened = Date.now();
    let received = '';
    const closed = new Promise<number>((settle) => socket.once('close', () => settle((Date.now() - opened) / 1000)));
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    // The server hanging up on a client that is still writing is what these tests look for.
    socket.on('error', () => {});
    socket.once('connect', () =>
      resolve({
        socket,
        received: () => received,
        closedWithin: (capSeconds) =>
          Promise.race([
            closed,
            new Promise<number>((settle) => setTimeout(() => settle(Infinity), capSeconds * 1000).unref()),
          ]),
      }),
    );
    socket.once('error', reject);
  });
}

/** Writes `pieces` one every `everyMs`, until they run out or the server hangs up. */
function trickle(socket: net.Socket, pieces: Iterable<string>, everyMs: number): void {
  const iterator = pieces[Symbol.iterator]();
  const timer = setInterval(() => {
    const next = iterator.next();
    if (next.done || socket.destroyed || !socket.writable) {
      clearInterval(timer);
      return;
    }
    socket.write(next.value);
  }, everyMs);
  socket.once('close', () => clearInterval(timer));
}

function* forever(piece: string): Generator<string> {
  for (;;) yield piece;
}

function* numberedHeaders(): Generator<string> {
  for (let i = 0; ; i++) yield `X-Slow-${i}: ${i}\r\n`;
}

const requestHead = (headers: Record<string, string | number>) =>
  `POST /api/demo-request HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;

const report = (what: string, seconds: number) =>
  process.stdout.write(
    `      [figures] ${what}: ${Number.isFinite(seconds) ? `${seconds.toFixed(1)} s` : 'still open'}\n`,
  );

async function startApi(
  env: Record<string, string> = {},
): Promise<{ api: RunningApi; port: number; close(): Promise<void> }> {
  const database = await createTestDatabase();
  const queuePrefix = testQueuePrefix();
  const api = await startApiServer(
    loadApiConfig({
      PORT: '0',
      DATABASE_URL: database.url,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: queuePrefix,
      BOOKING_LINK_SECRET: TEST_LINK_SECRET,
      ...env,
    }),
    silentLogger,
  );
  return {
    api,
    port: api.port,
    async close() {
      await api.close();
      await database.drop();
      await clearQueuePrefix(queuePrefix);
    },
  };
}

describe('slow clients are cut off (the real server, default timeouts)', function () {
  this.timeout(40_000);
  let server: Awaited<ReturnType<typeof startApi>>;
  before(async () => {
    server = await startApi();
  });
  after(async () => {
    await server.close();
  });

  it('lets go of a client that trickles its headers, a line every 2 s, within the headers timeout (5 s)', async () => {
    const client = await connect(server.port);
    client.socket.write('POST /api/demo-request HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    trickle(client.socket, numberedHeaders(), 2000);
    const seconds = await client.closedWithin(25);
    report('headers trickled, socket closed after', seconds);
    expect(seconds).to.be.within(4.5, 7.5);
  });

  it('answers 408 to a body trickled a byte a second and hangs up within the request timeout (10 s)', async () => {
    const client = await connect(server.port);
    client.socket.write(requestHead({ 'Content-Type': 'application/json', 'Content-Length': 200 }));
    trickle(client.socket, forever(' '), 1000);
    const seconds = await client.closedWithin(25);
    report('body trickled under the size limit, socket closed after', seconds);
    expect(seconds).to.be.within(9.5, 12.5);
    expect(client.received()).to.match(/^HTTP\/1\.1 408 /);
  });

  it('answers 413 to a body declared larger than 16 KB and hangs up at once, without reading the rest', async () => {
    const client = await connect(server.port);
    client.socket.write(requestHead({ 'Content-Type': 'application/json', 'Content-Length': 100_000 }));
    trickle(client.socket, forever('{'), 1000);
    const seconds = await client.closedWithin(25);
    report('body over 16 KB trickled, socket closed after', seconds);
    expect(client.received()).to.match(/^HTTP\/1\.1 413 /);
    expect(client.received()).to.match(/\r\nConnection: close\r\n/i);
    expect(seconds).to.be.below(1.5);
  });

  it('answers 400 to a compressed body that does not decompress and hangs up at once, without reading the rest', async () => {
    const client = await connect(server.port);
    client.socket.write(
      requestHead({ 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', 'Content-Length': 5000 }),
    );
    client.socket.write('this is not gzip');
    trickle(client.socket, forever('x'), 1000);
    const seconds = await client.closedWithin(25);
    report('undecodable body trickled, socket closed after', seconds);
    expect(client.received()).to.match(/^HTTP\/1\.1 400 /);
    expect(client.received()).to.match(/\r\nConnection: close\r\n/i);
    expect(seconds).to.be.below(1.5);
  });

  it('answers 415 to a body that is not JSON and hangs up at once, without reading it', async () => {
    const client = await connect(server.port);
    client.socket.write(requestHead({ 'Content-Type': 'text/plain', 'Content-Length': 5000 }));
    trickle(client.socket, forever('x'), 1000);
    const seconds = await client.closedWithin(25);
    expect(client.received()).to.match(/^HTTP\/1\.1 415 /);
    expect(seconds).to.be.below(1.5);
  });

  it('keeps a keep-alive client that asks again after a pause on the same socket', async () => {
    const client = await connect(server.port);
    const ask = async () => {
      const before = client.received().length;
      client.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      for (let i = 0; i < 100 && !client.received().slice(before).includes('"ok"'); i++)
        await new Promise((resolve) => setTimeout(resolve, 20));
      return client.received().slice(before);
    };
    expect(await ask()).to.match(/^HTTP\/1\.1 200 /);
    await new Promise((resolve) => setTimeout(resolve, 4000));
    const again = await ask();
    expect(again).to.match(/^HTTP\/1\.1 200 /);
    expect(again).to.match(/\r\nConnection: keep-alive\r\n/i);
    expect(client.socket.destroyed).to.equal(false);
    client.socket.destroy();
  });
});

describe('open connections per client address', function () {
  this.timeout(30_000);

  const answers = async (client: Watched): Promise<boolean> => {
    client.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    for (let i = 0; i < 50; i++) {
      if (client.received().startsWith('HTTP/1.1 200 ')) return true;
      if (client.socket.destroyed) return false;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return false;
  };

  it('refuses the N+1th connection from one address while another address still gets through', async () => {
    const server = await startApi({ CONNECTIONS_PER_CLIENT: '4' });
    const opened: Watched[] = [];
    try {
      for (let i = 0; i < 4; i++) opened.push(await connect(server.port));
      const fifth = await connect(server.port);
      opened.push(fifth);
      expect(await answers(fifth), 'the fifth from 127.0.0.1').to.equal(false);
      expect(await fifth.closedWithin(2)).to.be.below(2);
      const stranger = await connect(server.port, '127.0.0.2');
      opened.push(stranger);
      expect(await answers(stranger), 'the first from 127.0.0.2').to.equal(true);
      for (const held of opened.slice(0, 4))
        expect(await answers(held), 'the four held ones are served').to.equal(true);
      // One of the four lets go: the address may open another.
      opened[0]!.socket.destroy();
      await opened[0]!.closedWithin(2);
      const next = await connect(server.port);
      opened.push(next);
      expect(await answers(next), 'a new one once one closed').to.equal(true);
    } finally {
      for (const client of opened) client.socket.destroy();
      await server.close();
    }
  });

  it('does not bound connections behind a proxy (TRUST_PROXY), where every socket is the proxy', async () => {
    const server = await startApi({ CONNECTIONS_PER_CLIENT: '4', TRUST_PROXY: '1' });
    const opened: Watched[] = [];
    try {
      for (let i = 0; i < 8; i++) opened.push(await connect(server.port));
      for (const client of opened) expect(await answers(client)).to.equal(true);
    } finally {
      for (const client of opened) client.socket.destroy();
      await server.close();
    }
  });
});

describe('the slow-client settings', () => {
  const base = { BOOKING_LINK_SECRET: TEST_LINK_SECRET };
  it('default to 5 s for headers, 10 s for a request and 50 connections per client', () => {
    expect(loadApiConfig(base)).to.include({
      headersTimeoutMs: 5000,
      requestTimeoutMs: 10_000,
      connectionsPerClient: 50,
    });
  });
  it('take seconds, 0 turning the connection bound off, and refuse a headers timeout above the request timeout', () => {
    expect(
      loadApiConfig({
        ...base,
        HEADERS_TIMEOUT_SECONDS: '3',
        REQUEST_TIMEOUT_SECONDS: '3',
        CONNECTIONS_PER_CLIENT: '0',
      }),
    ).to.include({
      headersTimeoutMs: 3000,
      requestTimeoutMs: 3000,
      connectionsPerClient: 0,
    });
    expect(() => loadApiConfig({ ...base, HEADERS_TIMEOUT_SECONDS: '20' })).to.throw(
      'HEADERS_TIMEOUT_SECONDS (20) must not be above REQUEST_TIMEOUT_SECONDS (10)',
    );
    expect(() => loadApiConfig({ ...base, REQUEST_TIMEOUT_SECONDS: '0' })).to.throw(
      'REQUEST_TIMEOUT_SECONDS must be a whole number above 0',
    );
  });
});
