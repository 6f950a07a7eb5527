/**
 * The one visual system of the site. Sections read tokens from here through styled-components'
 * ThemeProvider, so a colour or a step of the scale changes in one place.
 */
import { brand } from '../../domain/brand.js';

const FALLBACK_FAMILY =
  "'Inter Fallback', 'Inter Fallback DejaVu', system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif";

export const theme = {
  colors: {
    ink: brand.colors.ink,
    inkSoft: '#3d4966',
    muted: brand.colors.muted,
    surface: '#ffffff',
    surfaceAlt: brand.colors.canvas,
    border: '#d9deea',
    borderStrong: '#8a94ab',
    primary: brand.colors.primary,
    primaryHover: '#3730a3',
    primarySoft: '#eef0ff',
    accent: '#0f766e',
    accentSoft: '#e6f5f3',
    night: '#0b1530',
    nightSoft: '#16224a',
    onNight: '#ffffff',
    onNightMuted: '#c3cbe0',
    success: '#15803d',
    danger: '#b91c1c',
    focus: '#f59e0b',
  },
  font: {
    /**
     * Inter, self-hosted (the build emits its Latin subset); until it is in, a local sans-serif stretched to Inter's
     * metrics (global-style.ts), so the swap moves nothing.
     */
    family: `'Inter Variable', ${FALLBACK_FAMILY}`,
    fallback: FALLBACK_FAMILY,
    mono: "ui-monospace, SFMono-Regular, Menlo, Consolas, 'Liberation Mono', monospace",
  },
  /** Type scale in rem; headings use clamp() between two steps so they shrink on phones. */
  text: {
    xs: '0.75rem',
    sm: '0.875rem',
    md: '1rem',
    lg: '1.125rem',
    xl: '1.25rem',
    '2xl': '1.5rem',
    '3xl': 'clamp(1.5rem, 1.1rem + 1.6vw, 2.25rem)',
    '4xl': 'clamp(2rem, 1.3rem + 3vw, 3.5rem)',
  },
  /** The one spacing scale (4 px grid; 0.5 nudges an icon onto a text line). Margins, gaps and paddings use it. */
  space: {
    0.5: '0.125rem',
    1: '0.25rem',
    2: '0.5rem',
    3: '0.75rem',
    4: '1rem',
    5: '1.25rem',
    6: '1.5rem',
    8: '2rem',
    10: '2.5rem',
    12: '3rem',
    16: '4rem',
    20: '5rem',
    24: '6rem',
  },
  radius: { sm: '6px', md: '10px', lg: '16px', pill: '999px' },
  /** The tile an icon sits on in a list (the use cases' square badges, the industries' round ones). */
  size: { iconTile: '2.75rem' },
  shadow: {
    card: '0 1px 2px rgba(11, 21, 48, 0.06), 0 4px 16px rgba(11, 21, 48, 0.06)',
    raised: '0 12px 40px rgba(11, 21, 48, 0.18)',
  },
  layout: { maxWidth: '1200px', gutter: 'clamp(1rem, 4vw, 2rem)', topBarHeight: '64px' },
  media: {
    sm: '@media (min-width: 640px)',
    md: '@media (min-width: 900px)',
    lg: '@media (min-width: 1100px)',
  },
} as const;

export type Theme = typeof theme;
