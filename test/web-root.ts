import { expect } from 'chai';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A stand-in for dist/web, so these tests never wait for webpack. */
export async function makeWebRoot(): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'converge-web-'));
  const head =
    '<head><meta name="booking-time-zone" content="Europe/Berlin"><title>T</title><style>body{margin:0}</style>' +
    '<style data-styled="true">.a{color:red}</style></head>';
  await mkdir(path.join(root, 'assets'));
  await mkdir(path.join(root, 'legal'));
  await writeFile(
    path.join(root, 'index.html'),
    `<!doctype html><html lang="en">${head}<body><h1>Converge</h1>${'<p>copy</p>'.repeat(200)}</body></html>`,
  );
  await writeFile(
    path.join(root, '404.html'),
    `<!doctype html><html lang="en">${head}<body><h1>404 Page Not Found</h1></body></html>`,
  );
  await writeFile(
    path.join(root, 'legal', 'privacy.html'),
    '<!doctype html><html lang="en"><body><h1>Privacy Policy</h1></body></html>',
  );
  await writeFile(path.join(root, 'assets', 'main.0123456789ab.js'), 'console.log(1)');
  await writeFile(path.join(root, 'robots.txt'), 'User-agent: *\nAllow: /\n');
  return root;
}

/** A page of one person's booking: never stored by a cache, sent on as a referrer, or indexed; no ETag to match. */
export function expectPrivatePageHeaders(headers: Headers): void {
  expect(headers.get('cache-control')).to.equal('no-store');
  expect(headers.get('referrer-policy')).to.equal('no-referrer');
  expect(headers.get('x-robots-tag')).to.equal('noindex');
  expect(headers.get('etag')).to.equal(null);
}
