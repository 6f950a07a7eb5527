/**
 * Serves the built site: hashed assets cached for a year, pages revalidated, unknown pages answered by the
 * 404 page. Pages carry the booking zone and notice the server is configured with, so the calendar and the API agree.
 * A booking's manage page (/booking/{token}) is rendered with its booking, kept from caches, referrers and indexes;
 * when the booking cannot be read (the database out of reach), the answer is 503 and a page that says to try again.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress as brotliCompressCallback, constants as zlib } from 'node:zlib';
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import serve from 'koa-static';
import type { Context, Middleware, Next } from 'koa';
import { BOOKING_MIN_NOTICE_META, BOOKING_TIME_ZONE_META } from '../domain/booking.js';
import type { BookingView } from '../domain/demo-request.js';
import { BOOKING_STEP_PARAMETER } from '../domain/no-script-pages.js';
import { brand, telHref, type Contact } from '../domain/brand.js';
import { escapeHtml } from '../domain/text.js';
import { ApiError, ServiceUnavailableError } from './errors.js';
import { contentSecurityPolicy, sourceHash } from './security-headers.js';

const brotliCompress = promisify(brotliCompressCallback);
const HASHED_ASSET = /[/\\]assets[/\\]/;
const ZONE_META = new RegExp(`(<meta name="${BOOKING_TIME_ZONE_META}" content=")[^"]*(")`);
const NOTICE_META = new RegExp(`(<meta name="${BOOKING_MIN_NOTICE_META}" content=")[^"]*(")`);
const NOT_BUILT =
  '<!doctype html><html lang="en"><title>404 Page Not Found</title><h1>404 Page Not Found</h1><p>The page is not built yet: run npm run build:web.</p></html>';
/** The booking page's 503 (built from web/app/booking-prerender.tsx), and what goes out in its place when it is not built. */
const BOOKING_UNAVAILABLE_FILE = 'booking-unavailable.html';
const BOOKING_UNAVAILABLE_PLAIN =
  '<!doctype html><html lang="en"><title>Please try again shortly</title><h1>Please try again shortly</h1>' +
  '<p>Your booking cannot be shown right now: our records are out of reach for a moment. Nothing about your demo has changed. Please try again shortly.</p></html>';
/** Seconds a visitor is asked to wait before loading a booking's page again while the database is out of reach. */
export const BOOKING_RETRY_AFTER_SECONDS = 30;

interface Page {
  html: string;
  etag: string;
  /** The policy that lets this page's own inline style blocks and scripts apply, and nothing else inline. */
  csp: string;
  /**
   * A prerendered page compressed once, with Brotli at its best: a fifth smaller than the quick on-the-fly setting
   * leaves it, which keeps the landing page within the first round trip of a new connection (about 14.6 KB).
   */
  brotli?: Buffer;
}

const STYLE_BLOCK = /<style\b[^>]*>([\s\S]*?)<\/style>/g;
/** A script written into the page (no src attribute). */
const INLINE_SCRIPT = /<script>([\s\S]*?)<\/script>/g;

/** What the server writes into the pages: the booking rules of the pages that show the calendar, and the site's address. */
export interface PageSettings {
  timeZone: string;
  minNoticeMinutes: number;
  /** PUBLIC_URL: where the site is, for the head's addresses that must be absolute (the link preview's image). */
  publicUrl: string;
  /** CONTACT_EMAIL and CONTACT_PHONE, in place of the brand's own that the build wrote into the footer. */
  contact: Contact;
}

/**
 * The footer's contact as the build wrote it (the brand's) turned into the one configured: the address in its
 * mailto: link and its text, the phone in its tel: link and its text. Both are attribute and text values, escaped.
 */
export function withContact(html: string, contact: Contact): string {
  const built = brand.company.contact;
  if (contact.email === built.email && contact.phone === built.phone) return html;
  return html
    .replaceAll(escapeHtml(built.email), escapeHtml(contact.email))
    .replaceAll(telHref(built.phone), telHref(contact.phone))
    .replaceAll(escapeHtml(built.phone), escapeHtml(contact.phone));
}

/**
 * The head's addresses a link preview reads (og:image, og:url, twitter:image): the prerender writes them as paths,
 * and a preview needs them whole.
 */
const SHARE_ADDRESS = /(<meta (?:property|name)="(?:og:image|og:url|twitter:image)" content=")(\/[^"]*")/g;

/** The policy that lets the page's own inline style blocks and scripts apply (by their hashes), and nothing else inline. */
export function policyOf(html: string): string {
  const hashesOf = (blocks: RegExp) => [...html.matchAll(blocks)].map((match) => sourceHash(match[1] ?? ''));
  return contentSecurityPolicy(hashesOf(STYLE_BLOCK), hashesOf(INLINE_SCRIPT));
}

/** Reads a page once per version of its file and fills in the booking zone and notice. */
function pageReader(webRoot: string, rules: PageSettings) {
  const cache = new Map<string, { mtimeMs: number; page: Page }>();
  const origin = escapeHtml(rules.publicUrl.replace(/\/+$/, ''));
  return async (relativePath: string): Promise<Page | undefined> => {
    const file = path.join(webRoot, relativePath);
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) return undefined;
    const cached = cache.get(file);
    if (cached && cached.mtimeMs === info.mtimeMs) return cached.page;
    const built = (await readFile(file, 'utf8'))
      .replace(ZONE_META, (_, start: string, end: string) => `${start}${rules.timeZone}${end}`)
      .replace(NOTICE_META, (_, start: string, end: string) => `${start}${rules.minNoticeMinutes}${end}`)
      .replace(SHARE_ADDRESS, (_, start: string, rest: string) => `${start}${origin}${rest}`);
    const html = withContact(built, rules.contact);
    const brotli = await brotliCompress(html, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT },
    });
    const page = {
      html,
      etag: `"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`,
      csp: policyOf(html),
      brotli,
    };
    cache.set(file, { mtimeMs: info.mtimeMs, page });
    return page;
  };
}

/** The site's footer in a rendered page: where the booking page's render puts the contact. */
export const FOOTER = /<footer\b[\s\S]*<\/footer>/;

/** A booking's manage page, the token its one segment. */
const BOOKING_PAGE = /^\/booking\/([^/]+)\/?$/;

/** The booking a token opens, as its page shows it (null: none); throws when it cannot be read now. */
export type BookingViewReader = (token: string) => Promise<BookingView | null>;

/** The server render of a booking's page: web/app/booking-prerender.tsx, which the web build bundles for Node. */
interface BookingPageRenderer {
  renderBookingFor(
    token: string,
    booking: BookingView | null,
    zone: string,
  ): { body: string; styles: string; data: string };
}

/**
 * The booking page's renderer, built beside the web root (dist/web-ssr/booking-prerender.cjs for dist/web) with
 * the same styled-components as the page's browser code, so the class names match. Loaded on first use: `npm start`
 * may build the page after the app is made. Without it (a web root with no build beside it), the page goes out in its
 * prerendered loading state and its script asks the API for the booking.
 */
function bookingRenderer(webRoot: string): () => BookingPageRenderer | undefined {
  const file = path.join(`${path.resolve(webRoot)}-ssr`, 'booking-prerender.cjs');
  let renderer: BookingPageRenderer | undefined;
  return () => {
    if (!renderer && existsSync(file)) renderer = createRequire(import.meta.url)(file) as BookingPageRenderer;
    return renderer;
  };
}

const ROOT_OPEN = '<div id="root">';
/** The style block of styled-components' rules, which the render replaces with the booking's own. */
const STYLED_BLOCK = /<style data-styled="[^"]*"[^>]*>[\s\S]*?<\/style>/;

/** Where the root ends in a built page (web/app/html-document.ts): before the page's inline scripts, or the body's end. */
const ROOT_END = /<\/div>\n(?:<script>|<\/body>)/g;

/**
 * The page with the render in its root, the render's data block after it (before the page's own script, which reads
 * it) and its styles in place of the prerender's.
 */
function withRender(shell: string, render: { body: string; styles: string; data: string }): string | undefined {
  const start = shell.indexOf(ROOT_OPEN);
  ROOT_END.lastIndex = start;
  const end = start < 0 ? -1 : (ROOT_END.exec(shell)?.index ?? -1);
  if (end < 0) return undefined;
  const html = `${shell.slice(0, start + ROOT_OPEN.length)}${render.body}</div>${render.data}${shell.slice(end + '</div>'.length)}`;
  return STYLED_BLOCK.test(html) ? html.replace(STYLED_BLOCK, () => render.styles) : undefined;
}

/** The booking page's shell with the booking rendered in it (null: "This link does not open a booking"). */
function renderedBooking(
  shell: string,
  render: BookingPageRenderer,
  token: string,
  booking: BookingView | null,
  rules: PageSettings,
): string | undefined {
  const rendered = render.renderBookingFor(token, booking, rules.timeZone);
  // The render writes the brand's contact into its footer; the booking's own words (its name, company, address)
  // are kept as typed, even where they happen to be the brand's contact.
  const body = rendered.body.replace(FOOTER, (footer) => withContact(footer, rules.contact));
  return withRender(shell, { ...rendered, body });
}

function tokenOf(urlPath: string): string {
  const segment = BOOKING_PAGE.exec(urlPath)?.[1] ?? '';
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The token in its address opens a booking: no cache keeps the page, no link on it passes the address on as a
 * referrer, and no search engine lists it.
 */
const BOOKING_PAGE_HEADERS = {
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'X-Robots-Tag': 'noindex',
};

const BOOKING_FILE = 'booking.html';
/** The sales page: not for search engines, and no address of it passed on. */
const SALES_PAGE_HEADERS = { 'Referrer-Policy': 'no-referrer', 'X-Robots-Tag': 'noindex' };

/**
 * The page file a path names: "/" is the landing page, /legal/<name> a legal page, /booking/<token> the booking
 * manage page, /admin the sales page; nothing else is a page.
 */
function pageFile(urlPath: string): string | undefined {
  if (urlPath === '/') return 'index.html';
  if (urlPath === '/admin' || urlPath === '/admin/') return 'admin.html';
  if (BOOKING_PAGE.test(urlPath)) return BOOKING_FILE;
  const legal = /^\/legal\/([a-z-]+)\/?$/.exec(urlPath);
  return legal ? `legal/${legal[1]}.html` : undefined;
}

/**
 * The answer to another address of a booking (a text's short link: api/bookings/sms-link.ts) that opens none: the
 * booking page as it reads for such a link, "This link does not open a booking" with the way home, and a 404; the
 * site's 404 page while the booking page's render is not built.
 */
export function noBookingPage(webRoot: string, rules: PageSettings): (ctx: Context) => Promise<void> {
  const readPage = pageReader(webRoot, rules);
  const renderer = bookingRenderer(webRoot);
  return async (ctx) => {
    const shell = await readPage(BOOKING_FILE);
    const render = renderer();
    const rendered = shell && render ? renderedBooking(shell.html, render, '', null, rules) : undefined;
    const html = rendered ?? (await readPage('404.html'))?.html ?? NOT_BUILT;
    ctx.status = 404;
    ctx.type = 'html';
    ctx.set(BOOKING_PAGE_HEADERS);
    ctx.set('Content-Security-Policy', policyOf(html));
    ctx.body = html;
  };
}

/**
 * The site's pages and files. With `readBooking`, a booking's page goes out with the booking rendered in it (404 and
 * "This link does not open a booking" for a token that opens none); when the booking cannot be read (the database
 * down), 503 with Retry-After and a page that says to try again shortly, never the loading state with a 200: its
 * script would only have asked the API to hear the same. Without the booking page's render beside the web root, the
 * loading state goes out, for its script to ask the API.
 */
export function webRoutes(webRoot: string, rules: PageSettings, readBooking?: BookingViewReader): Middleware[] {
  const readPage = pageReader(webRoot, rules);
  const renderer = bookingRenderer(webRoot);
  const statics = serve(webRoot, {
    index: false,
    gzip: false,
    brotli: false,
    setHeaders(res, filePath) {
      res.setHeader(
        'Cache-Control',
        HASHED_ASSET.test(filePath) ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
      );
      // Pictures other sites show: the e-mails' logo in a webmail's page, the link preview in a social network's.
      if (filePath.endsWith('.png')) res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    },
  });

  const sendPage = (ctx: Context, page: Page, status: number) => {
    ctx.status = status;
    ctx.type = 'html';
    ctx.set('Content-Security-Policy', page.csp);
    // Whatever answers a booking's address has the token in its URL. Never stored, so never revalidated: no ETag.
    if (BOOKING_PAGE.test(ctx.path)) {
      ctx.set(BOOKING_PAGE_HEADERS);
      ctx.body = page.html;
      return;
    }
    ctx.set('Cache-Control', 'no-cache');
    if (pageFile(ctx.path) === 'admin.html') ctx.set(SALES_PAGE_HEADERS);
    if (status === 200) {
      ctx.etag = page.etag;
      if (ctx.fresh) {
        ctx.status = 304;
        return;
      }
    }
    // A compressed body goes out as it is: koa-compress leaves an answer with a Content-Encoding alone.
    ctx.vary('Accept-Encoding');
    if (page.brotli && ctx.acceptsEncodings('br', 'identity') === 'br') {
      ctx.set('Content-Encoding', 'br');
      ctx.body = page.brotli;
    } else ctx.body = page.html;
  };

  const notFound = async (ctx: Context, next: Next): Promise<void> => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.set('Allow', 'GET, HEAD');
      throw new ApiError(
        405,
        'Method not allowed',
        `${ctx.method} is not allowed on ${ctx.path}: pages are only read.`,
      );
    }
    try {
      await next();
    } catch (err) {
      // A path the file server refuses (//, /%2e%2e/…, broken escapes) is, for a visitor, a page that is not there.
      const status = (err as { status?: number }).status;
      if (status === undefined || status < 400 || status >= 500) throw err;
      ctx.body = undefined;
      ctx.status = 404;
    }
    // Only when nothing answered: Koa's status is still its default 404 and there is no body (a 304 has none).
    if (ctx.status !== 404 || (ctx.body !== undefined && ctx.body !== null)) return;
    const page = await readPage('404.html');
    if (page) sendPage(ctx, page, 404);
    else {
      ctx.status = 404;
      ctx.type = 'html';
      ctx.body = NOT_BUILT;
    }
  };

  /** The booking page with its booking in it; undefined when it cannot be rendered so. */
  const renderBookingPage = async (
    ctx: Context,
    shell: Page,
    token: string,
  ): Promise<{ page: Page; status: number } | undefined> => {
    const render = renderer();
    if (!readBooking || !render) return undefined;
    let booking: BookingView | null;
    try {
      booking = await readBooking(token);
    } catch (err) {
      // The database out of reach (readUnlessDatabaseDown has logged it): the page says to come back shortly.
      if (err instanceof ServiceUnavailableError) return bookingUnavailable();
      // Anything else is a fault of ours, logged as one; the loading state goes out and its script asks the API.
      ctx.app.emit('error', err, ctx);
      return undefined;
    }
    const html = renderedBooking(shell.html, render, token, booking, rules);
    return html === undefined
      ? undefined
      : { page: { html, etag: '', csp: policyOf(html) }, status: booking ? 200 : 404 };
  };

  const bookingUnavailable = async (): Promise<{ page: Page; status: number }> => {
    const built = await readPage(BOOKING_UNAVAILABLE_FILE);
    return {
      page: built ?? { html: BOOKING_UNAVAILABLE_PLAIN, etag: '', csp: policyOf(BOOKING_UNAVAILABLE_PLAIN) },
      status: 503,
    };
  };

  const pages = async (ctx: Context, next: Next): Promise<void> => {
    const file = pageFile(ctx.path);
    // The booking page's Reschedule and Cancel without script: its buttons' forms ask for the step (its markup never
    // holds the token), which is a page of its own (api/no-script/routes.ts).
    const step = ctx.query[BOOKING_STEP_PARAMETER];
    if (file === BOOKING_FILE && (step === 'move' || step === 'cancel')) {
      ctx.status = 303;
      ctx.redirect(`${ctx.path.replace(/\/$/, '')}/${step}`);
      ctx.set(BOOKING_PAGE_HEADERS);
      return;
    }
    const page = file ? await readPage(file) : undefined;
    if (page && file === BOOKING_FILE) {
      const rendered = await renderBookingPage(ctx, page, tokenOf(ctx.path));
      if (rendered?.status === 503) ctx.set('Retry-After', String(BOOKING_RETRY_AFTER_SECONDS));
      return rendered ? sendPage(ctx, rendered.page, rendered.status) : sendPage(ctx, page, 200);
    }
    if (page) return sendPage(ctx, page, 200);
    // Page files are reached by their addresses only: /index.html and /404.html are not second names.
    if (ctx.path.endsWith('.html')) return;
    await next();
  };

  return [notFound, pages, statics];
}
