/**
 * Serves the built site: hashed assets cached for a year, pages revalidated, unknown pages answered by the
 * 404 page. Pages carry the booking zone and notice the server is configured with, so the calendar and the API agree.
 * A booking's manage page (/booking/{token}) is one page for every token, kept from caches, referrers and indexes.
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import serve from 'koa-static';
import type { Context, Middleware, Next } from 'koa';
import { BOOKING_MIN_NOTICE_META, BOOKING_TIME_ZONE_META } from '../domain/booking.js';
import { ApiError } from './errors.js';
import { contentSecurityPolicy, sourceHash } from './security-headers.js';

const HASHED_ASSET = /[/\\]assets[/\\]/;
const ZONE_META = new RegExp(`(<meta name="${BOOKING_TIME_ZONE_META}" content=")[^"]*(")`);
const NOTICE_META = new RegExp(`(<meta name="${BOOKING_MIN_NOTICE_META}" content=")[^"]*(")`);
const NOT_BUILT =
  '<!doctype html><html lang="en"><title>404 Page Not Found</title><h1>404 Page Not Found</h1><p>The page is not built yet: run npm run build:web.</p></html>';

interface Page {
  html: string;
  etag: string;
  /** The policy that lets this page's own inline style blocks and scripts apply, and nothing else inline. */
  csp: string;
}

const STYLE_BLOCK = /<style\b[^>]*>([\s\S]*?)<\/style>/g;
/** A script written into the page (no src attribute). */
const INLINE_SCRIPT = /<script>([\s\S]*?)<\/script>/g;

/** The booking rules the server writes into the pages that show the calendar. */
export interface PageBookingRules {
  timeZone: string;
  minNoticeMinutes: number;
}

/** Reads a page once per version of its file and fills in the booking zone and notice. */
function pageReader(webRoot: string, rules: PageBookingRules) {
  const cache = new Map<string, { mtimeMs: number; page: Page }>();
  return async (relativePath: string): Promise<Page | undefined> => {
    const file = path.join(webRoot, relativePath);
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) return undefined;
    const cached = cache.get(file);
    if (cached && cached.mtimeMs === info.mtimeMs) return cached.page;
    const html = (await readFile(file, 'utf8'))
      .replace(ZONE_META, (_, start: string, end: string) => `${start}${rules.timeZone}${end}`)
      .replace(NOTICE_META, (_, start: string, end: string) => `${start}${rules.minNoticeMinutes}${end}`);
    const hashesOf = (blocks: RegExp) => [...html.matchAll(blocks)].map((match) => sourceHash(match[1] ?? ''));
    const page = {
      html,
      etag: `"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`,
      csp: contentSecurityPolicy(hashesOf(STYLE_BLOCK), hashesOf(INLINE_SCRIPT)),
    };
    cache.set(file, { mtimeMs: info.mtimeMs, page });
    return page;
  };
}

/** A booking's manage page: the token is the page's to read (and the API's to judge), never the server's. */
const BOOKING_PAGE = /^\/booking\/[^/]+\/?$/;

/**
 * The token in its address opens a booking: no cache keeps the page, no link on it passes the address on as a
 * referrer, and no search engine lists it.
 */
const BOOKING_PAGE_HEADERS = {
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'X-Robots-Tag': 'noindex',
};

/**
 * The page file a path names: "/" is the landing page, /legal/<name> a legal page, /booking/<token> the booking
 * manage page; nothing else is a page.
 */
function pageFile(urlPath: string): string | undefined {
  if (urlPath === '/') return 'index.html';
  if (BOOKING_PAGE.test(urlPath)) return 'booking.html';
  const legal = /^\/legal\/([a-z-]+)\/?$/.exec(urlPath);
  return legal ? `legal/${legal[1]}.html` : undefined;
}

export function webRoutes(webRoot: string, rules: PageBookingRules): Middleware[] {
  const readPage = pageReader(webRoot, rules);
  const statics = serve(webRoot, {
    index: false,
    gzip: false,
    brotli: false,
    setHeaders(res, filePath) {
      res.setHeader('Cache-Control', HASHED_ASSET.test(filePath) ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
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
    if (status === 200) {
      ctx.etag = page.etag;
      if (ctx.fresh) {
        ctx.status = 304;
        return;
      }
    }
    ctx.body = page.html;
  };

  const notFound = async (ctx: Context, next: Next): Promise<void> => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.set('Allow', 'GET, HEAD');
      throw new ApiError(405, 'Method not allowed', `${ctx.method} is not allowed on ${ctx.path}: pages are only read.`);
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

  const pages = async (ctx: Context, next: Next): Promise<void> => {
    const file = pageFile(ctx.path);
    const page = file ? await readPage(file) : undefined;
    if (page) return sendPage(ctx, page, 200);
    // Page files are reached by their addresses only: /index.html and /404.html are not second names.
    if (ctx.path.endsWith('.html')) return;
    await next();
  };

  return [notFound, pages, statics];
}
