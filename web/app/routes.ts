import { brand } from '../../domain/brand.js';

export type RouteName = 'landing' | 'not-found';

export interface PageMeta {
  title: string;
  description: string;
}

/** The router: one page at "/", and everything else is the 404 page (the server answers those with status 404). */
export function routeFor(pathname: string): RouteName {
  return pathname === '/' ? 'landing' : 'not-found';
}

export const pageMeta: Record<RouteName, PageMeta> = {
  landing: {
    title: `${brand.product}: the AI-powered enterprise communication platform`,
    description: `${brand.product} unifies SMS, WhatsApp, RCS, email and voice with AI agents and network APIs for identity, verification and fraud protection. Trusted by 7,000+ enterprises in 200+ countries.`,
  },
  'not-found': {
    title: '404 Page Not Found',
    description: 'This page does not exist.',
  },
};
