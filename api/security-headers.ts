/**
 * The security headers of every answer: pages, assets, the API and the 404 page. The site loads nothing from another
 * host and runs no inline script, so the policy can be strict. Pages add the hashes of their own inline style
 * blocks (see web.ts); nothing else needs inline style.
 */
import { createHash } from 'node:crypto';
import type { Context, Next } from 'koa';

/**
 * styled-components' runtime sheet is an empty <style> element filled through CSSOM (insertRule), which CSP does
 * not govern: allowing the empty element is all it needs, where a nonce would make every page unique (no ETag, no 304).
 */
const EMPTY_STYLE_HASH = sourceHash('');

/** The CSP source that allows one inline block with exactly this text. */
export function sourceHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/**
 * The Content-Security-Policy, with the hashes of the inline style blocks and inline scripts the answer carries (the
 * landing page inlines its one small script, so its first paint waits on no second request).
 */
export function contentSecurityPolicy(
  styleHashes: readonly string[] = [],
  scriptHashes: readonly string[] = [],
): string {
  return [
    "default-src 'self'",
    ["script-src 'self'", ...new Set(scriptHashes)].join(' '),
    `style-src 'self' ${[EMPTY_STYLE_HASH, ...new Set(styleHashes)].join(' ')}`,
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Every feature the page never uses, turned off for it and for anything that might frame it. */
const PERMISSIONS_POLICY = [
  'accelerometer',
  'autoplay',
  'camera',
  'display-capture',
  'encrypted-media',
  'fullscreen',
  'geolocation',
  'gyroscope',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'picture-in-picture',
  'publickey-credentials-get',
  'screen-wake-lock',
  'usb',
  'xr-spatial-tracking',
]
  .map((feature) => `${feature}=()`)
  .join(', ');

/** 180 days is the least the issue asks; a year is what preload lists expect. */
const HSTS = 'max-age=31536000; includeSubDomains';

const BASE_HEADERS: Record<string, string> = {
  'Content-Security-Policy': contentSecurityPolicy(),
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Permissions-Policy': PERMISSIONS_POLICY,
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  // For browsers that predate frame-ancestors.
  'X-Frame-Options': 'DENY',
};

const BASE_HEADER_ENTRIES = Object.entries(BASE_HEADERS);

/**
 * Set before anything else runs, so an error answer carries them too. HSTS only on answers to HTTPS requests:
 * directly, or as X-Forwarded-Proto from a proxy the app trusts (Koa's ctx.secure reads it only then).
 */
export function securityHeaders() {
  return async (ctx: Context, next: Next): Promise<void> => {
    // Straight onto the response: the values are fixed, and Koa's ctx.set would look at each again.
    const res = ctx.res;
    for (const [name, value] of BASE_HEADER_ENTRIES) res.setHeader(name, value);
    if (ctx.secure) res.setHeader('Strict-Transport-Security', HSTS);
    await next();
  };
}
