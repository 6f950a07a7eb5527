import { brand } from '../../domain/brand.js';
import { escapeHtml } from '../../domain/text.js';
import { DIALOG_CODE_META } from '../features/demo-request/demo-launcher.js';
import { BOOKING_APP_META } from '../features/manage-booking/booking-page-data.js';
import { bookingRulesMeta } from '../features/date-time-picker/booking-rules-meta.js';
import { globalCss } from './global-style.js';
import type { PageMeta } from './routes.js';

export interface DocumentParts {
  meta: PageMeta;
  /** Server-rendered markup of the root component. */
  body: string;
  /** The style tags ServerStyleSheet collected: the page's critical CSS, inline. */
  styles: string;
  scripts: readonly string[];
  /**
   * Scripts written into the end of the body: the landing page's and the booking page's first small script, so the
   * first paint waits on no second request (the server allows each by its hash, see api/web.ts).
   */
  inlineScripts?: readonly string[];
  /** Scripts the page fetches ahead when a visitor shows an intent, named in a meta tag (see demo-launcher.ts). */
  dialogScripts?: readonly string[];
  /** The booking page's React code, which its first script fetches on a visitor's first intent (booking-main.ts). */
  bookingAppScripts?: readonly string[];
  favicon: string;
  /** The booking zone, on the pages that show booking times (the landing page, the booking page); the server replaces it with its own. */
  bookingTimeZone?: string;
}

export function htmlDocument({
  meta,
  body,
  styles,
  scripts,
  inlineScripts = [],
  dialogScripts,
  bookingAppScripts,
  favicon,
  bookingTimeZone,
}: DocumentParts): string {
  for (const code of inlineScripts) {
    if (/<\/script|<!--/i.test(code)) throw new Error('an inline script must not contain </script or <!--');
  }
  const title = escapeHtml(meta.title);
  const description = escapeHtml(meta.description);
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${title}</title>`,
    `<meta name="description" content="${description}">`,
    '<meta name="theme-color" content="#0b1530">',
    `<link rel="icon" href="${favicon}" type="image/svg+xml">`,
    '<meta property="og:type" content="website">',
    `<meta property="og:site_name" content="${escapeHtml(brand.product)}">`,
    `<meta property="og:title" content="${title}">`,
    `<meta property="og:description" content="${description}">`,
    '<meta name="twitter:card" content="summary">',
    ...(bookingTimeZone === undefined ? [] : bookingRulesMeta(escapeHtml(bookingTimeZone))),
    ...(dialogScripts?.length ? [`<meta name="${DIALOG_CODE_META}" content="${escapeHtml(dialogScripts.join(' '))}">`] : []),
    ...(bookingAppScripts?.length ? [`<meta name="${BOOKING_APP_META}" content="${escapeHtml(bookingAppScripts.join(' '))}">`] : []),
    ...scripts.map((src) => `<script defer src="${src}"></script>`),
    `<style>${globalCss}</style>`,
    styles,
    '</head>',
    '<body>',
    `<div id="root">${body}</div>`,
    ...inlineScripts.map((code) => `<script>${code}</script>`),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
