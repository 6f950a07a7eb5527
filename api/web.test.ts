import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import { startAppUnderTest, type AppUnderTest } from '../test/app-under-test.js';
import { bookingToken } from '../server-shared/booking-link.js';
import { nextBookableSlot } from '../test/booking.js';
import { pngSize } from '../test/png.js';
import { TEST_LINK_SECRET } from '../test/stack.js';
import { expectPrivatePageHeaders, makeWebRoot } from '../test/web-root.js';
import { DEFAULT_WEB_ROOT as BUILT_WEB_ROOT } from './config.js';

describe('serving the site', () => {
  let app: AppUnderTest;
  let webRoot: string;
  const bookingStyle = '.b{color:blue}';
  before(async () => {
    webRoot = await makeWebRoot();
    await writeFile(
      path.join(webRoot, 'booking.html'),
      `<!doctype html><html lang="en"><head><meta name="booking-time-zone" content="Europe/Berlin"><style>${bookingStyle}</style></head>` +
        '<body><h1>Your Converge demo</h1><p>Loading your booking…</p></body></html>',
    );
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
      http
        .get(`${app.url}/`, { headers: { 'If-None-Match': etag! } }, (res) => {
          res.resume();
          resolve(res.statusCode);
        })
        .on('error', reject);
    });
    expect(again).to.equal(304);
  });

  it('serves legal pages at /legal/<name>', async () => {
    const response = await fetch(`${app.url}/legal/privacy`);
    expect(response.status).to.equal(200);
    expect(await response.text()).to.contain('<h1>Privacy Policy</h1>');
    expect((await fetch(`${app.url}/legal/nothing`)).status).to.equal(404);
  });

  it("serves the booking manage page at /booking/<token>: the booking zone, its own styles' hashes, never stored or indexed", async () => {
    const token = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-AbCdE';
    for (const address of [`/booking/${token}`, `/booking/${token}/`, '/booking/anything-at-all']) {
      const response = await fetch(`${app.url}${address}`);
      expect(response.status, address).to.equal(200);
      expect(response.headers.get('content-type'), address).to.equal('text/html; charset=utf-8');
      expect(response.headers.get('cache-control'), address).to.equal('no-store');
      expect(response.headers.get('referrer-policy'), address).to.equal('no-referrer');
      expect(response.headers.get('x-robots-tag'), address).to.equal('noindex');
      expect(response.headers.get('etag'), address).to.equal(null);
      const styleHash = `'sha256-${createHash('sha256').update(bookingStyle).digest('base64')}'`;
      expect(response.headers.get('content-security-policy'), address)
        .to.contain(styleHash)
        .and.contain("script-src 'self'");
      const html = await response.text();
      expect(html, address)
        .to.contain('<meta name="booking-time-zone" content="Europe/Lisbon">')
        .and.contain('Loading your booking');
    }
    const head = await fetch(`${app.url}/booking/${token}`, { method: 'HEAD' });
    expect(head.status).to.equal(200);
    expect(head.headers.get('cache-control')).to.equal('no-store');
  });

  it('answers /booking without a token, with more than one segment, or as a file with the 404 page; a POST with 405', async () => {
    for (const address of ['/booking', '/booking/', '/booking/a/b', '/booking.html']) {
      const response = await fetch(`${app.url}${address}`);
      expect(response.status, address).to.equal(404);
      expect(await response.text(), address).to.contain('404 Page Not Found');
    }
    const post = await fetch(`${app.url}/booking/some-token`, { method: 'POST' });
    expect(post.status).to.equal(405);
    expect(post.headers.get('allow')).to.equal('GET, HEAD');
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

describe("serving a booking's page rendered with its booking", () => {
  let app: AppUnderTest;
  let databaseDown: AppUnderTest;
  let webRoot: string;
  const renderedStyle = '.r{color:green}';
  const sha = (css: string) => `'sha256-${createHash('sha256').update(css).digest('base64')}'`;
  before(async () => {
    webRoot = await makeWebRoot();
    await writeFile(
      path.join(webRoot, 'booking.html'),
      '<!doctype html><html lang="en"><head><meta name="booking-time-zone" content="Europe/Berlin"><style data-styled="true" data-styled-version="6">.p{color:red}</style></head>' +
        '<body>\n<div id="root"><p>Loading your booking…</p></div>\n</body></html>',
    );
    // A stand-in for the web build's server render (dist/web-ssr/booking-prerender.cjs beside dist/web).
    await mkdir(`${webRoot}-ssr`);
    await writeFile(
      path.join(`${webRoot}-ssr`, 'booking-prerender.cjs'),
      `exports.renderBookingFor = (token, booking, zone) => ({
        body: '<h1>' + (booking ? booking.name + ', ' + booking.status : 'No booking') + ' in ' + zone + '</h1>',
        styles: '<style data-styled="true" data-styled-version="6">${renderedStyle}</style>',
        data: '<script type="application/json" id="booking-data">' + JSON.stringify({ booking }) + '</script>',
      });`,
    );
    app = await startAppUnderTest({ webRoot, timeZone: 'Europe/Lisbon' });
    databaseDown = await startAppUnderTest({
      webRoot,
      databaseUrl: 'postgres://postgres@127.0.0.1:1/converge_nowhere',
    });
  });
  after(async () => {
    await Promise.all([app.close(), databaseDown.close()]);
    await rm(webRoot, { recursive: true, force: true });
    await rm(`${webRoot}-ssr`, { recursive: true, force: true });
  });

  it('writes the booking into the page, with the hashes of its own styles, never stored or indexed, the token nowhere in it', async () => {
    const booked = await app.post('/api/demo-request', {
      name: 'Ana Lima',
      email: 'ana@alder-finch.com',
      company: 'Alder & Finch',
      timeSlot: nextBookableSlot(new Date(), 'Europe/Lisbon').iso,
    });
    expect(booked.status).to.equal(201);
    const token = /^\/api\/bookings\/([^/]+)\//.exec(String(booked.body.invitePath))?.[1] ?? '';
    const response = await fetch(`${app.url}/booking/${token}`);
    expect(response.status).to.equal(200);
    expectPrivatePageHeaders(response.headers);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).to.contain(sha(renderedStyle)).and.not.contain(sha('.p{color:red}'));
    const html = await response.text();
    expect(html).to.contain(
      '<div id="root"><h1>Ana Lima, booked in Europe/Lisbon</h1></div><script type="application/json" id="booking-data">',
    );
    expect(html)
      .to.contain('<meta name="booking-time-zone" content="Europe/Lisbon">')
      .and.not.contain('Loading your booking');
    expect(html).to.not.contain(token).and.not.contain('ana@alder-finch.com');
  });

  it('answers a token that opens nothing with 404 and the page saying so', async () => {
    const response = await fetch(`${app.url}/booking/not-a-token`);
    expect(response.status).to.equal(404);
    expect(response.headers.get('cache-control')).to.equal('no-store');
    expect(await response.text())
      .to.contain('<h1>No booking in Europe/Lisbon</h1>')
      .and.contain('{"booking":null}');
  });

  it("answers 503 when the database cannot say, with the page that says to try again shortly (the build's, or a plain one), never the loading state", async () => {
    const token = bookingToken(randomUUID(), TEST_LINK_SECRET);
    const plain = await fetch(`${databaseDown.url}/booking/${token}`);
    expect(plain.status).to.equal(503);
    expect(plain.headers.get('retry-after')).to.equal('30');
    expectPrivatePageHeaders(plain.headers);
    expect(plain.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    expect(await plain.text())
      .to.contain('Please try again shortly')
      .and.not.contain('Loading your booking')
      .and.not.contain('booking-data');
    const unavailableStyle = '.u{color:gray}';
    await writeFile(
      path.join(webRoot, 'booking-unavailable.html'),
      `<!doctype html><html lang="en"><head><style>${unavailableStyle}</style></head><body><h1>Your Converge demo</h1><p>Please try again shortly.</p></body></html>`,
    );
    try {
      const built = await fetch(`${databaseDown.url}/booking/${token}`);
      expect(built.status).to.equal(503);
      expect(built.headers.get('retry-after')).to.equal('30');
      expectPrivatePageHeaders(built.headers);
      expect(built.headers.get('content-security-policy')).to.contain(sha(unavailableStyle));
      expect(await built.text()).to.contain('<p>Please try again shortly.</p>');
      // The file has no address of its own.
      expect((await fetch(`${app.url}/booking-unavailable.html`)).status).to.equal(404);
    } finally {
      await rm(path.join(webRoot, 'booking-unavailable.html'));
    }
  });
});

describe("the built pages' heads: a link preview and the page's typeface (needs `npm run build:web`)", () => {
  const publicUrl = 'https://www.converge.example';
  let app: AppUnderTest;
  before(async function () {
    if (!existsSync(path.join(BUILT_WEB_ROOT, 'index.html')))
      throw new Error('No production build: run `npm run build:web` first.');
    app = await startAppUnderTest({ webRoot: BUILT_WEB_ROOT, publicUrl });
  });
  after(async () => {
    await app.close();
  });

  /** The head's <meta property|name="…" content="…"> tags, by name (unescaped: the values here hold no entity but &amp;). */
  const metaOf = (html: string) =>
    Object.fromEntries(
      [...html.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)">/g)].map((match) => [
        match[1],
        match[2]?.replaceAll('&amp;', '&'),
      ]),
    );

  it('carries og: and twitter: tags with absolute addresses under PUBLIC_URL, and the picture is a 1200 × 630 PNG the site serves', async () => {
    const html = await (await fetch(`${app.url}/`)).text();
    const meta = metaOf(html);
    expect(meta['og:url']).to.equal(`${publicUrl}/`);
    expect(meta['twitter:card']).to.equal('summary_large_image');
    expect(meta['twitter:title'])
      .to.equal(meta['og:title'])
      .and.match(/^Converge/);
    expect(meta['twitter:description'])
      .to.equal(meta['og:description'])
      .and.match(/^Converge unifies/);
    expect(meta['og:image']).to.match(new RegExp(`^${publicUrl}/assets/share\\.[0-9a-f]{10}\\.png$`));
    expect(meta['twitter:image']).to.equal(meta['og:image']);
    expect([meta['og:image:type'], meta['og:image:width'], meta['og:image:height']]).to.deep.equal([
      'image/png',
      '1200',
      '630',
    ]);
    expect(meta['og:image:alt']).to.match(/^The Converge console: /);
    expect(meta['twitter:image:alt']).to.equal(meta['og:image:alt']);

    const image = await fetch(`${app.url}${new URL(meta['og:image']!).pathname}`);
    expect(image.status).to.equal(200);
    expect(image.headers.get('content-type')).to.equal('image/png');
    // Another site's page may show it (a social network's preview), and a new picture gets a new address.
    expect(image.headers.get('cross-origin-resource-policy')).to.equal('cross-origin');
    expect(image.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
    expect(pngSize(Buffer.from(await image.arrayBuffer()))).to.deep.equal({ width: 1200, height: 630 });

    // A legal page has its own address; a booking's page (its token in the address) names none.
    expect(metaOf(await (await fetch(`${app.url}/legal/privacy`)).text())['og:url']).to.equal(
      `${publicUrl}/legal/privacy`,
    );
    const booking = metaOf(await (await fetch(`${app.url}/booking/not-a-token`)).text());
    expect(booking['og:url']).to.equal(undefined);
    expect(booking['og:image']).to.equal(meta['og:image']);
  });

  it('sets its text in one font, the Latin subset of Inter (weight axis), swapped in, self-hosted as the policy allows', async () => {
    const preloadsOf = (html: string) =>
      [...html.matchAll(/<link rel="preload" href="([^"]+)" as="font" type="font\/woff2" crossorigin>/g)].map(
        (match) => match[1],
      );
    // A page without a script preloads it and uses it from the start.
    const legal = await fetch(`${app.url}/legal/privacy`);
    expect(legal.headers.get('content-security-policy')).to.contain("font-src 'self'");
    const legalHtml = await legal.text();
    expect(legalHtml).to.contain('<html lang="en">');
    const [href, ...more] = preloadsOf(legalHtml);
    expect(more).to.deep.equal([]);
    expect(href).to.match(/^\/assets\/inter-latin-wght\.[0-9a-f]{10}\.woff2$/);
    // The landing page's first paint goes first: its script asks for the font then (the browser test sees it used).
    const landing = await (await fetch(`${app.url}/`)).text();
    expect(landing).to.contain('<html lang="en" class="font-later">');
    expect(preloadsOf(landing)).to.deep.equal([]);
    for (const html of [legalHtml, landing]) {
      // The @font-face rule: the package's own, with its Latin range; and the metric-matched fallback.
      const faces = [...html.matchAll(/@font-face\s*\{[^}]*\}/g)].map((match) => match[0]);
      const inter = faces.find((face) => face.includes(`url(${href})`));
      expect(inter)
        .to.contain("font-family: 'Inter Variable'")
        .and.contain('font-display: swap')
        .and.contain('font-weight: 100 900')
        .and.contain('unicode-range: U+0000-00FF');
      expect(faces.find((face) => face.includes("'Inter Fallback'"))).to.match(
        /src:local\('Arial'\).*size-adjust:[\d.]+%;ascent-override:[\d.]+%/,
      );
      // Where no Arial is installed, DejaVu Sans, a face for its regular and one for its much wider bold.
      const dejaVu = faces.filter((face) => face.includes("'Inter Fallback DejaVu'"));
      expect(dejaVu.map((face) => /font-weight:([\d ]+);/.exec(face)?.[1])).to.deep.equal(['100 549', '550 900']);
      expect(faces, 'no other face, no other subset').to.have.length(4);
    }
    const font = await fetch(`${app.url}${href}`);
    expect(font.status).to.equal(200);
    expect(font.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
    expect(Buffer.from(await font.arrayBuffer()).toString('latin1', 0, 4)).to.equal('wOF2');
  });
});

describe("the built pages' footer: the sales desk's contact as configured (needs `npm run build:web`)", () => {
  const contact = { email: 'demos+emea@acme.example', phone: '+1 (555) 010-0100' };
  let app: AppUnderTest;
  before(async function () {
    if (!existsSync(path.join(BUILT_WEB_ROOT, 'index.html')))
      throw new Error('No production build: run `npm run build:web` first.');
    app = await startAppUnderTest({ webRoot: BUILT_WEB_ROOT, contact });
  });
  after(async () => {
    await app.close();
  });

  /** The footer's contact links: their addresses and their words. */
  const contactLinksOf = (html: string) =>
    [...html.matchAll(/<a href="((?:mailto|tel):[^"]*)">([^<]*)<\/a>/g)].map((match) => [match[1], match[2]]);

  it("shows CONTACT_EMAIL and CONTACT_PHONE on every page, a booking's page rendered with its booking too, and the brand's nowhere", async () => {
    const booked = await app.post('/api/demo-request', {
      name: 'Ana Lima',
      email: 'ana@alder-finch.com',
      company: 'Alder & Finch',
      timeSlot: nextBookableSlot(new Date(), 'Europe/Berlin').iso,
    });
    expect(booked.status).to.equal(201);
    const token = /^\/api\/bookings\/([^/]+)\//.exec(String(booked.body.invitePath))?.[1] ?? '';
    for (const page of ['/', '/legal/privacy', '/legal/terms', '/no-such-page', `/booking/${token}`]) {
      const html = await (await fetch(`${app.url}${page}`)).text();
      expect(contactLinksOf(html), page).to.deep.include.members([
        ['mailto:demos+emea@acme.example', 'demos+emea@acme.example'],
        ['tel:+15550100100', '+1 (555) 010-0100'],
      ]);
      expect(html, page)
        .not.to.contain('northstar-converge.com')
        .and.not.contain('5557 2100')
        .and.not.contain('493055572100');
    }
    // The booking's page is the server's render of it, not the loading state.
    expect(await (await fetch(`${app.url}/booking/${token}`)).text())
      .to.contain('Ana Lima')
      .and.not.contain('Loading your booking');
  });
});
