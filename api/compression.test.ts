/** JSON answers are serialised once: a small one goes out as it is, a big one is still compressed, both as JSON. */
import { get } from 'node:http';
import { brotliDecompressSync } from 'node:zlib';
import { expect } from 'chai';
import { startAppUnderTest, type AppUnderTest } from '../test/app-under-test.js';

/** The raw answer (fetch would undo the compression and hide the headers that say so). */
function rawGet(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'Accept-Encoding': 'br, gzip', ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
    }).on('error', reject);
  });
}

const TOKEN = 'compression-test-operations-token-0123456789';

describe('compression of JSON answers', () => {
  let app: AppUnderTest;
  before(async () => {
    app = await startAppUnderTest({ adminToken: TOKEN });
  });
  after(async () => {
    await app.close();
  });

  it('sends a small JSON answer uncompressed, with its length and JSON type', async () => {
    const answer = await rawGet(`${app.url}/healthz`);
    expect(answer.status).to.equal(200);
    expect(answer.headers['content-encoding']).to.equal(undefined);
    expect(answer.headers['content-type']).to.equal('application/json; charset=utf-8');
    expect(Number(answer.headers['content-length'])).to.equal(answer.body.length);
    expect(answer.headers.vary).to.match(/Accept-Encoding/);
    expect(JSON.parse(answer.body.toString())).to.be.an('object');
  });

  it('compresses a big JSON answer, which still reads as the same JSON', async () => {
    // Twenty bookings listed for operations: an answer of several kilobytes, built as an object.
    await app.db('bookings').insert(
      Array.from({ length: 20 }, (_, i) => ({
        name: `Person ${i}`,
        email: `person${i}@company-${i}.com`,
        company: `Company ${i}`,
        time_slot: new Date(Date.UTC(2026, 10, 24, 8 + (i % 10))),
      })),
    );
    const answer = await rawGet(`${app.url}/api/demo-requests`, { Authorization: `Bearer ${TOKEN}` });
    expect(answer.status).to.equal(200);
    expect(answer.headers['content-encoding']).to.equal('br');
    expect(answer.headers['content-type']).to.equal('application/json; charset=utf-8');
    const list = JSON.parse(brotliDecompressSync(answer.body).toString()) as { demoRequests: unknown[] };
    expect(list.demoRequests).to.have.length(20);
  });
});
