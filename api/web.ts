/** Serves the built page: hashed assets cached for a year, HTML revalidated, unknown pages answered by the 404 page. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import serve from 'koa-static';
import type { Context, Middleware, Next } from 'koa';
import { ApiError } from './errors.js';

const HASHED_ASSET = /[/\\]assets[/\\]/;

export function webRoutes(webRoot: string): Middleware[] {
  const statics = serve(webRoot, {
    index: 'index.html',
    gzip: false,
    brotli: false,
    setHeaders(res, filePath) {
      if (HASHED_ASSET.test(filePath)) {
        res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
      } else if (filePath.endsWith('.html')) {
        res.setHeader('Cache-Control', 'no-cache');
      } else {
        res.setHeader('Cache-Control', 'public, max-age=3600');
      }
    },
  });

  let notFoundPage: Promise<string> | undefined;
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
    }
    if (ctx.body !== undefined && ctx.body !== null) return;
    // The 404 page is the one file read at request time; read it once.
    notFoundPage ??= readFile(path.join(webRoot, '404.html'), 'utf8').catch(() => {
      notFoundPage = undefined;
      return '<!doctype html><html lang="en"><title>404 Page Not Found</title><h1>404 Page Not Found</h1><p>The page is not built yet: run npm run build:web.</p></html>';
    });
    ctx.status = 404;
    ctx.type = 'html';
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = await notFoundPage;
  };

  // Only the landing page itself is "/"; /index.html is not a second address for it.
  const onlyRootIndex = async (ctx: Context, next: Next): Promise<void> => {
    if (ctx.path === '/index.html' || ctx.path === '/404.html') return;
    await next();
  };

  return [notFound, onlyRootIndex, statics];
}
