import { theme } from '../../components/theme.js';

const { colors, layout, space, shadow, media } = theme;

/**
 * The section links and the menu button, as plain CSS in every page's head (web/app/global-style.ts) rather than
 * styled-components: the rules never depend on props or state, and styled-components would carry them in the
 * page's script as well. The browser opens and closes the menu (a popover) by itself, so the CSS follows its
 * state with :popover-open, before any script has run. A browser without popovers drops those rules and hides the
 * button, and the bar is as it was: the links from the md breakpoint up. In the bar, `all: unset` drops the
 * browser's popover styles (fixed, centred, framed); below it the panel sits under the bar (its height and border)
 * and slides in unless the visitor asked for less motion.
 */
export const topBarMenuCss = `
.top-bar-menu{display:none}
.top-bar-menu ul{list-style:none;padding:0}
.top-bar-menu a{font-weight:600;text-decoration:none}
.top-bar-menu a:hover{color:${colors.primary}}
.top-bar-menu:popover-open{display:block;inset:calc(${layout.topBarHeight} + 1px) 0 auto;width:auto;max-height:calc(100dvh - ${layout.topBarHeight} - 1px);margin:0;padding:${space[2]} ${layout.gutter} ${space[4]};border:0;border-bottom:1px solid ${colors.border};color:inherit;background:${colors.surface};box-shadow:${shadow.raised}}
.top-bar-menu:popover-open li+li{border-top:1px solid ${colors.border}}
.top-bar-menu:popover-open a{display:block;padding:${space[3]} ${space[2]}}
@media (prefers-reduced-motion:no-preference){.top-bar-menu:popover-open{animation:top-bar-menu-in 160ms ease-out}}
@keyframes top-bar-menu-in{from{opacity:0;transform:translateY(-8px)}}
.top-bar-actions{display:flex;gap:${space[2]}}
.top-bar-menu-button{display:inline-grid;place-items:center;width:44px;height:44px;padding:0;border:1px solid ${colors.borderStrong};border-radius:${theme.radius.pill};background:${colors.surface};cursor:pointer}
.top-bar-menu-button svg+svg,.top-bar-menu:popover-open~.top-bar-actions .top-bar-menu-button svg:first-child{display:none}
.top-bar-menu:popover-open~.top-bar-actions .top-bar-menu-button svg+svg{display:block}
@supports not selector(:popover-open){.top-bar-menu-button{display:none}}
${media.md}{.top-bar-menu{all:unset;display:block;color:${colors.inkSoft}}.top-bar-menu ul{display:flex;gap:${space[6]}}.top-bar-menu-button{display:none}}
`.trim();
