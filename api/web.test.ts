import { rm } from 'node:fs/promises';
import http from 'node:http';
import { expect } from 'chai';
import { startAppUnderTest, type AppUnderTest } from '../test/app-under-test.js';
import { makeWebRoot } from '../test/web-root.js';

describe('serving the site', () => {
  let app: AppUnderTest;
  let webRoot: string;
  before(async () => {
    webRoot = await makeWebRoot();
    app = await startAppUnderTest({ webRoot, timeZone: 'Europe/Lisbon' });
  });
  after(async () => {
    await app.close();
    await rm(webRoot, { recursive: true, force: true });
  });

  it('serves the landing page with the configured booking zone, compressed and revalidated by ETag', async () => {
    const response = await fetch(`${app.url}/`, { headers: { 'Accept-Encoding': 'br' } });
    expect(response.status).to.equal(200);
    expect(response.headers.get('cache-control')).to.equal('no-cache');
    expect(response.headers.get('content-encoding')).to.equal('br');
    const html = await response.text();
    expect(html).to.contain('<meta name="booking-time-zone" content="Europe/Lisbon">');
    const etag = response.headers.get('etag');
    expect(etag).to.match(/^"[\w-]+"$/);
    // fetch() would add Cache-Control: no-cache to a conditional request (the Fetch standard says so): plain http.
    const again = await new Promise<number | undefined>((resolve, reject) => {
      http.get(`${app.url}/`, { headers: { 'If-None-Match': etag! } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      }).on('error', reject);
    });
    expect(again).to.equal(304);
  });

  it('serves legal pages at /legal/<name>', async () => {
    const response = await fetch(`${app.url}/legal/privacy`);
    expect(response.status).to.equal(200);
    expect(await response.text()).to.contain('<h1>Privacy Policy</h1>');
    expect((await fetch(`${app.url}/legal/nothing`)).status).to.equal(404);
  });

  it('caches hashed assets for a year and other files for an hour', async () => {
    const asset = await fetch(`${app.url}/assets/main.0123456789ab.js`);
    expect(asset.status).to.equal(200);
    expect(asset.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
    const robots = await fetch(`${app.url}/robots.txt`);
    expect(robots.headers.get('cache-control')).to.equal('public, max-age=3600');
  });

  it('answers any other path with the 404 page and status 404, page files included', async () => {
    for (const address of ['/pricing', '/index.html', '/404.html', '/legal/privacy.html', '/assets/missing.js']) {
      const response = await fetch(`${app.url}${address}`);
      expect(response.status, address).to.equal(404);
      expect(await response.text(), address).to.contain('404 Page Not Found');
    }
  });
});
