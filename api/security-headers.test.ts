import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { expect } from 'chai';
import { loadApiConfig } from './config.js';
import { startAppUnderTest, type AppUnderTest } from '../test/app-under-test.js';
import { makeWebRoot } from '../test/web-root.js';
import { REQUIRED_SETTINGS } from '../test/settings-read.js';

const hashOf = (css: string) => `'sha256-${createHash('sha256').update(css).digest('base64')}'`;

function directives(policy: string | null): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of (policy ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name, values);
  }
  return map;
}

describe('security headers', () => {
  let app: AppUnderTest;
  let proxied: AppUnderTest;
  let webRoot: string;
  before(async () => {
    webRoot = await makeWebRoot();
    [app, proxied] = await Promise.all([startAppUnderTest({ webRoot }), startAppUnderTest({ webRoot, trustProxy: 1 })]);
  });
  after(async () => {
    await Promise.all([app.close(), proxied.close()]);
    await rm(webRoot, { recursive: true, force: true });
  });

  const answers = () =>
    [
      ['the landing page', fetch(`${app.url}/`)],
      ['a legal page', fetch(`${app.url}/legal/privacy`)],
      ['an asset', fetch(`${app.url}/assets/main.0123456789ab.js`)],
      ['the 404 page', fetch(`${app.url}/no/such/page`)],
      ['an API answer', fetch(`${app.url}/healthz`)],
      ['an API error', fetch(`${app.url}/api/nothing`)],
      [
        'a refused body',
        fetch(`${app.url}/api/demo-request`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: '{',
        }),
      ],
      ['a 405', fetch(`${app.url}/`, { method: 'DELETE' })],
    ] as const;

  it('are on every answer: pages, assets, the API, errors and the 404 page', async () => {
    for (const [what, pending] of answers()) {
      const response = await pending;
      const headers = response.headers;
      const csp = directives(headers.get('content-security-policy'));
      expect(csp.get('default-src'), what).to.deep.equal(["'self'"]);
      expect(csp.get('script-src'), what).to.deep.equal(["'self'"]);
      expect(csp.get('object-src'), what).to.deep.equal(["'none'"]);
      expect(csp.get('base-uri'), what).to.deep.equal(["'self'"]);
      expect(csp.get('form-action'), what).to.deep.equal(["'self'"]);
      expect(csp.get('frame-ancestors'), what).to.deep.equal(["'none'"]);
      expect(csp.get('img-src'), what).to.deep.equal(["'self'", 'data:']);
      expect(csp.get('connect-src'), what).to.deep.equal(["'self'"]);
      const everything = [...csp.values()].flat();
      expect(everything, what).to.not.include("'unsafe-inline'");
      expect(everything, what).to.not.include("'unsafe-eval'");
      expect(headers.get('x-content-type-options'), what).to.equal('nosniff');
      expect(headers.get('referrer-policy'), what).to.equal('strict-origin-when-cross-origin');
      expect(headers.get('permissions-policy'), what)
        .to.contain('camera=()')
        .and.contain('geolocation=()')
        .and.contain('microphone=()');
      expect(headers.get('cross-origin-opener-policy'), what).to.equal('same-origin');
      expect(headers.get('cross-origin-resource-policy'), what).to.equal('same-origin');
      expect(headers.get('x-frame-options'), what).to.equal('DENY');
      // Plain HTTP: no HSTS.
      expect(headers.get('strict-transport-security'), what).to.equal(null);
    }
  });

  it("lets a page's own inline style blocks apply (by hash), and nothing else inline", async () => {
    const page = await fetch(`${app.url}/`);
    const styleSrc = directives(page.headers.get('content-security-policy')).get('style-src');
    expect(styleSrc).to.have.members(["'self'", hashOf(''), hashOf('body{margin:0}'), hashOf('.a{color:red}')]);
    const api = await fetch(`${app.url}/healthz`);
    expect(directives(api.headers.get('content-security-policy')).get('style-src')).to.deep.equal([
      "'self'",
      hashOf(''),
    ]);
  });

  it('sends HSTS on HTTPS requests from a trusted proxy, never on a forged X-Forwarded-Proto', async () => {
    const behindProxy = await fetch(`${proxied.url}/`, {
      headers: { 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': '203.0.113.1' },
    });
    const hsts = behindProxy.headers.get('strict-transport-security') ?? '';
    expect(hsts).to.match(/^max-age=(\d+); includeSubDomains$/);
    expect(Number(/max-age=(\d+)/.exec(hsts)?.[1])).to.be.at.least(180 * 86_400);
    const forged = await fetch(`${app.url}/`, { headers: { 'X-Forwarded-Proto': 'https' } });
    expect(forged.headers.get('strict-transport-security')).to.equal(null);
  });
});

describe('ADMIN_TOKEN', () => {
  it('stops start-up when shorter than 32 characters, and says how to make one', () => {
    expect(() => loadApiConfig({ ADMIN_TOKEN: 'short-token' })).to.throw(
      'ADMIN_TOKEN must be at least 32 characters long (it has 11); make one with: openssl rand -hex 32',
    );
    expect(loadApiConfig({ ...REQUIRED_SETTINGS, ADMIN_TOKEN: 'x'.repeat(32) }).adminToken).to.equal('x'.repeat(32));
    expect(loadApiConfig(REQUIRED_SETTINGS).adminToken).to.equal(undefined);
  });
});

describe('BOOKING_LINK_SECRET', () => {
  it('stops the API when unset or shorter than 32 characters, and says how to make one', () => {
    expect(() => loadApiConfig({})).to.throw(
      /^BOOKING_LINK_SECRET is not set: it signs the booking links .*; make one with: openssl rand -hex 32$/,
    );
    expect(() => loadApiConfig({ BOOKING_LINK_SECRET: 'short' })).to.throw(
      'BOOKING_LINK_SECRET must be at least 32 characters long (it has 5); make one with: openssl rand -hex 32',
    );
    expect(loadApiConfig({ BOOKING_LINK_SECRET: 's'.repeat(32) }).bookingLinkSecret).to.equal('s'.repeat(32));
  });
});
