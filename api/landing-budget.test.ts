import { existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { expect } from 'chai';
import { startAppUnderTest, type AppUnderTest } from '../test/app-under-test.js';
import { DEFAULT_WEB_ROOT as BUILT_WEB_ROOT } from './config.js';

/**
 * One initial congestion window (RFC 6928: ten segments of 1,460 bytes). A first answer larger than this waits a
 * round trip for the client's acknowledgement before its last bytes go out, and Lighthouse's simulation charges the
 * landing page's first paint with that round trip (BENCHMARKS.md, "Then the HTML itself").
 */
const INITIAL_CONGESTION_WINDOW = 10 * 1460;

/**
 * The bytes of the answer to a browser's first request for a path, status line and headers included, as they left the
 * server: asked as a browser asks (a connection kept open), read to the end of the body its Content-Length gives.
 */
function rawAnswer(url: string, pathname: string): Promise<Buffer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(
        `GET ${pathname} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: keep-alive\r\nAccept: text/html\r\n` +
          'Accept-Encoding: gzip, deflate, br, zstd\r\n\r\n',
      );
    });
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const headEnd = received.indexOf('\r\n\r\n');
      const length = /^content-length: (\d+)$/im.exec(received.subarray(0, headEnd).toString('latin1'))?.[1];
      if (headEnd >= 0 && length !== undefined && received.length >= headEnd + 4 + Number(length)) {
        socket.destroy();
        resolve(received);
      }
    });
    socket.on('end', () => reject(new Error('the connection closed before the whole answer')));
    socket.on('error', reject);
  });
}

describe('the landing page fits in the first round trip of a new connection (needs `npm run build:web`)', () => {
  let app: AppUnderTest;
  before(async function () {
    if (!existsSync(path.join(BUILT_WEB_ROOT, 'index.html')))
      throw new Error('No production build: run `npm run build:web` first.');
    app = await startAppUnderTest({ webRoot: BUILT_WEB_ROOT });
  });
  after(async () => {
    await app.close();
  });

  it('answers GET / with headers and Brotli body within one initial congestion window', async () => {
    const answer = await rawAnswer(app.url, '/');
    const headEnd = answer.indexOf('\r\n\r\n');
    const head = answer.subarray(0, headEnd).toString('latin1');
    expect(head).to.match(/^HTTP\/1\.1 200 /);
    expect(head).to.match(/^content-encoding: br$/im);
    // The whole page, not an error page that happens to be small.
    const html = brotliDecompressSync(answer.subarray(headEnd + 4)).toString('utf8');
    expect(html).to.contain('</footer>').and.contain('<dialog');
    expect(answer.length, `${headEnd + 4} bytes of headers + ${answer.length - headEnd - 4} of body`).to.be.at.most(
      INITIAL_CONGESTION_WINDOW,
    );
  });
});
