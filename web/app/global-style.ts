import { siteFooterCss } from '../features/site-footer/site-footer-css.js';
import { topBarMenuCss } from '../features/top-bar/top-bar-css.js';
import { FONT_LATER_CLASS } from '../components/font-loading.js';
import { theme } from '../components/theme.js';

/**
 * Arial's metric twins (Liberation Sans, Arimo on Linux), scaled to Inter: Inter's letters are 7.4 % wider on average,
 * and its ascender and descender (1984 and 494 of 2048 units) divided by that scale give the overrides. Text set in
 * it takes the room Inter will take, so the swap to Inter shifts no line.
 */
const INTER_FALLBACK =
  "@font-face{font-family:'Inter Fallback';src:local('Arial'),local('ArialMT'),local('Liberation Sans'),local('LiberationSans'),local('Arimo');size-adjust:107.4%;ascent-override:90.2%;descent-override:22.48%;line-gap-override:0%}";

/**
 * The document-wide rules. They go into the prerendered HTML as a plain style tag rather than through
 * createGlobalStyle, so the browser does not rebuild and re-inject them while hydrating.
 */
const documentCss = `
${INTER_FALLBACK}
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
