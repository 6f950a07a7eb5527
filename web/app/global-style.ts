import { siteFooterCss } from '../features/site-footer/site-footer-css.js';
import { topBarMenuCss } from '../features/top-bar/top-bar-css.js';
import { FONT_LATER_CLASS } from '../components/font-loading.js';
import { theme } from '../components/theme.js';

/** Inter's ascender and descender, 1984 and 494 of its 2048 units: each fallback's overrides are these over its scale. */
const INTER_ASCENT = 1984 / 2048;
const INTER_DESCENT = 494 / 2048;

/** A face of `local` fonts scaled to Inter's letters: `scale` is Inter's average width over theirs. */
function fallbackFace(family: string, local: readonly string[], scale: number, weight?: string): string {
  const percent = (value: number) => `${(value * 100).toFixed(2)}%`;
  return (
    `@font-face{font-family:'${family}';src:${local.map((name) => `local('${name}')`).join(',')};` +
    (weight ? `font-weight:${weight};` : '') +
    `size-adjust:${percent(scale)};ascent-override:${percent(INTER_ASCENT / scale)};` +
    `descent-override:${percent(INTER_DESCENT / scale)};line-gap-override:0%}`
  );
}

/**
 * Text set in a fallback takes the room Inter will take, so the swap to Inter shifts no line (nor the Request Demo
 * link under a pointer about to press it). Arial and its metric twins (Liberation Sans, Arimo) are scaled by one
 * factor; where none is installed (many Linux desktops) DejaVu Sans is the browser's sans-serif, and its bold is so
 * much wider than its regular that each gets a face of its own, by weight, measured on the landing page's own text.
 */
const INTER_FALLBACKS = [
  fallbackFace('Inter Fallback', ['Arial', 'ArialMT', 'Liberation Sans', 'LiberationSans', 'Arimo'], 1.074),
  fallbackFace('Inter Fallback DejaVu', ['DejaVu Sans', 'DejaVuSans'], 0.941, '100 549'),
  fallbackFace('Inter Fallback DejaVu', ['DejaVu Sans Bold', 'DejaVuSans-Bold'], 0.86, '550 900'),
].join('');

/**
 * The document-wide rules. They go into the prerendered HTML as a plain style tag rather than through
 * createGlobalStyle, so the browser does not rebuild and re-inject them while hydrating.
 */
const documentCss = `
${INTER_FALLBACKS}
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;scroll-padding-top:${theme.layout.topBarHeight}}
@media (prefers-reduced-motion:no-preference){html{scroll-behavior:smooth}}
html:has(dialog:modal){overflow:hidden;scrollbar-gutter:stable}
body{margin:0;font-family:${theme.font.family};font-size:${theme.text.md};line-height:1.6;color:${theme.colors.ink};background:${theme.colors.surface};-webkit-font-smoothing:antialiased}
.${FONT_LATER_CLASS} body{font-family:${theme.font.fallback}}
h1,h2,h3,h4,p,ul,ol,figure,blockquote{margin:0}
h1,h2,h3,h4{line-height:1.15;letter-spacing:-0.01em;text-wrap:balance}
img,svg{display:block;max-width:100%}
a{color:inherit}
button,input,textarea,select{font:inherit;color:inherit}
:focus-visible{outline:3px solid ${theme.colors.focus};outline-offset:2px}
@media (prefers-reduced-motion:reduce){*,*::before,*::after{animation-duration:0.01ms!important;transition-duration:0.01ms!important}}
`.trim();

/**
 * With them, the rules of parts that never change once prerendered, the landing page's menu and the footer of
 * every page: in the head, they cost the page's script nothing.
 */
export const globalCss = [documentCss, topBarMenuCss, siteFooterCss].join('\n');
