import { theme } from '../../components/theme.js';

const { colors, space, text, media, radius } = theme;
const rule = 'rgba(195, 203, 224, 0.2)';

/**
 * The footer's rules, as plain CSS in every page's head (web/app/global-style.ts) rather than styled-components:
 * the footer never changes after the prerender, and styled-components would carry its rules in the page's script
 * as well. Phones: the provider over the link groups, two to a row; from sm three groups a row; from lg the
 * provider beside them. Below, the address beside the imprint from md. The social icons are images in the links'
 * colour, so a link's hover turns its icon white with a filter (brightness(0) invert(1)) where text takes `color`; with
 * forced colours on a light background, where that colour would all but vanish, they are black.
 */
export const siteFooterCss = `
.site-footer{background:${colors.night};color:${colors.onNightMuted};padding:${space[12]} 0 ${space[8]}}
.site-footer a{color:${colors.onNightMuted}}
.site-footer a:hover{color:${colors.onNight}}
.site-footer-social a:hover img{filter:brightness(0) invert(1)}
.site-footer ul{padding:0;list-style:none}
.site-footer-top{display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:${space[8]} ${space[6]};padding-bottom:${space[8]};border-bottom:1px solid ${rule}}
.site-footer-brand{grid-column:1/-1;max-width:26rem;color:${colors.onNight}}
.site-footer-brand p{margin:${space[3]} 0 ${space[5]};color:${colors.onNightMuted}}
.site-footer-social{display:flex;flex-wrap:wrap;gap:${space[2]}}
.site-footer-social a{display:inline-grid;place-items:center;width:44px;height:44px;border-radius:${radius.pill};border:1px solid rgba(195, 203, 224, 0.35)}
.site-footer-group h2{margin-bottom:${space[3]};color:${colors.onNight};font-size:${text.sm};font-weight:700;letter-spacing:0.08em;text-transform:uppercase}
.site-footer-group a{display:inline-block;padding:${space[1]} 0;text-decoration:none}
.site-footer-group a:hover{text-decoration:underline}
.site-footer-bottom{display:grid;gap:${space[4]};padding-top:${space[6]};font-size:${text.sm}}
.site-footer-bottom p+p{margin-top:${space[2]}}
.site-footer-bottom address{font-style:normal}
.site-footer-bottom address span{display:block}
.site-footer-bottom address a{display:inline-block;padding:${space[1]} 0}
.site-footer-bottom address span:first-child{font-weight:700;color:${colors.onNight}}
${media.sm}{.site-footer-top{grid-template-columns:repeat(3,minmax(0,1fr))}}
${media.md}{.site-footer-bottom{grid-template-columns:minmax(12rem,1fr) 2fr}}
${media.lg}{.site-footer-top{grid-template-columns:2fr repeat(3,minmax(0,1fr))}.site-footer-brand{grid-column:auto}}
@media (forced-colors:active) and (prefers-color-scheme:light){.site-footer-social a img,.site-footer-social a:hover img{filter:brightness(0)}}
`.trim();
