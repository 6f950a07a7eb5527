import { brand } from '../../domain/brand.js';
import { escapeHtml } from '../../domain/text.js';
import { DIALOG_CODE_META } from '../features/demo-request/demo-launcher.js';
import { BOOKING_APP_META } from '../features/manage-booking/booking-page-data.js';
import { bookingRulesMeta } from '../features/date-time-picker/booking-rules-meta.js';
import { FONT_LATER_CLASS } from '../components/font-loading.js';
import { globalCss } from './global-style.js';
import type { PageMeta } from './routes.js';

/** The picture a shared link shows (og:image): its path (the server makes it absolute), size and text alternative. */
export interface ShareImage {
  href: string;
  width: number;
  height: number;
  alt: string;
}

export interface DocumentParts {
  meta: PageMeta;
  /** The page's own path (og:url), when it has one; the server makes it absolute. */
  address?: string | undefined;
  shareImage: ShareImage;
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
  /**
   * Scripts written into the head, run before the body is parsed: the landing page's Request Demo opener, which
   * answers a press from the first paint on (dialog-opener.ts). The server allows each by its hash too.
   */
  headScripts?: readonly string[];
  /** Scripts the page fetches ahead when a visitor shows an intent, named in a meta tag (see demo-launcher.ts). */
  dialogScripts?: readonly string[];
  /** The booking page's React code, which its first script fetches on a visitor's first intent (booking-main.ts). */
  bookingAppScripts?: readonly string[];
  favicon: string;
  /** The page's typeface: its file and the @font-face rule that names it (web/webpack.config.js). */
  font: { href: string; css: string };
  /**
   * 'preload': the page asks for the font with its HTML and sets its text in it from the start (pages without a
   * script); 'after-first-paint': its script asks for it once the first contentful paint is done (font-loading.ts).
   */
  fontLoading: 'preload' | 'after-first-paint';
  /** The booking zone, on the pages that show booking times (the landing page, the booking page); the server replaces it with its own. */
  bookingTimeZone?: string;
}

/** A style block without attributes: plain CSS, which no styled-components in the browser reads back. */
const PLAIN_STYLE_BLOCK = /<style>([\s\S]*?)<\/style>/g;

/**
 * The document's CSS and the page's plain style blocks as one block (the server's policy then names one hash, not one
 * a block: its header is part of the page's first round trip); blocks styled-components will rehydrate stay apart.
 */
function styleBlocks(documentCss: string, styles: string): string {
  const plain = [...styles.matchAll(PLAIN_STYLE_BLOCK)].map((match) => match[1] ?? '');
  const marked = styles.replace(PLAIN_STYLE_BLOCK, '');
  return [`<style>${[documentCss, ...plain].join('\n')}</style>`, ...(marked ? [marked] : [])].join('\n');
}

export function htmlDocument({
  meta,
  address,
  shareImage,
  body,
  styles,
  scripts,
  inlineScripts = [],
  headScripts = [],
  dialogScripts,
  bookingAppScripts,
  favicon,
  font,
  fontLoading,
  bookingTimeZone,
}: DocumentParts): string {
  for (const code of [...inlineScripts, ...headScripts]) {
    if (/<\/script|<!--/i.test(code)) throw new Error('an inline script must not contain </script or <!--');
  }
  const title = escapeHtml(meta.title);
  const description = escapeHtml(meta.description);
  return [
    '<!doctype html>',
    fontLoading === 'preload' ? '<html lang="en">' : `<html lang="en" class="${FONT_LATER_CLASS}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${title}</title>`,
    `<meta name="description" content="${description}">`,
    '<meta name="theme-color" content="#0b1530">',
    `<link rel="icon" href="${favicon}" type="image/svg+xml">`,
    // Fetched with the page, not once the CSS is applied: the text is drawn in Inter from its first paint, or soon after.
    ...(fontLoading === 'preload'
      ? [`<link rel="preload" href="${font.href}" as="font" type="font/woff2" crossorigin>`]
      : []),
    '<meta property="og:type" content="website">',
    `<meta property="og:site_name" content="${escapeHtml(brand.product)}">`,
    `<meta property="og:title" content="${title}">`,
    `<meta property="og:description" content="${description}">`,
    ...(address === undefined ? [] : [`<meta property="og:url" content="${escapeHtml(address)}">`]),
    `<meta property="og:image" content="${escapeHtml(shareImage.href)}">`,
    '<meta property="og:image:type" content="image/png">',
    `<meta property="og:image:width" content="${shareImage.width}">`,
    `<meta property="og:image:height" content="${shareImage.height}">`,
    `<meta property="og:image:alt" content="${escapeHtml(shareImage.alt)}">`,
    '<meta name="twitter:card" content="summary_large_image">',
    `<meta name="twitter:title" content="${title}">`,
    `<meta name="twitter:description" content="${description}">`,
    `<meta name="twitter:image" content="${escapeHtml(shareImage.href)}">`,
    `<meta name="twitter:image:alt" content="${escapeHtml(shareImage.alt)}">`,
    ...(bookingTimeZone === undefined ? [] : bookingRulesMeta(escapeHtml(bookingTimeZone))),
    ...(dialogScripts?.length
      ? [`<meta name="${DIALOG_CODE_META}" content="${escapeHtml(dialogScripts.join(' '))}">`]
      : []),
    ...(bookingAppScripts?.length
      ? [`<meta name="${BOOKING_APP_META}" content="${escapeHtml(bookingAppScripts.join(' '))}">`]
      : []),
    ...scripts.map((src) => `<script defer src="${src}"></script>`),
    ...headScripts.map((code) => `<script>${code}</script>`),
    styleBlocks(`${font.css}\n${globalCss}`, styles),
    '</head>',
    '<body>',
    `<div id="root">${body}</div>`,
    ...inlineScripts.map((code) => `<script>${code}</script>`),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
