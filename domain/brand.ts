/**
 * The one place that names the product. The page, the confirmation e-mails and the docs read from here.
 */
export const brand = {
  product: 'Converge',
  tagline: 'The AI-powered enterprise communication platform',
  /** The colours the page's theme (web/components/theme.ts) and the e-mails share. */
  colors: { primary: '#4338ca', ink: '#0b1530', muted: '#55607a', canvas: '#f4f6fb', markPoint: '#5eead4' },
  /** The mark: two arcs converging on a point, drawn on a 32 × 32 tile in the primary colour. */
  mark: {
    viewBox: '0 0 32 32',
    tileRadius: 8,
    arcs: 'M7 10c6 0 9 3 9 6M7 22c6 0 9-3 9-6M16 16h9',
    point: { cx: 25, cy: 16, r: 2.4 },
  },
  parentProvider: 'Northstar Telecom',
  /** The parent provider as a company: the footer's postal address and imprint. */
  company: {
    legalName: 'Northstar Telecom GmbH',
    /** The postal address, line by line as it is printed. */
    address: ['Nordsternplatz 1', '10117 Berlin', 'Germany'],
    registeredOffice: 'Berlin',
    register: { court: 'Amtsgericht Charlottenburg', number: 'HRB 248117 B' },
    managingDirectors: ['Helena Marsh', 'Jonas Reiter'],
    /**
     * How buyers reach the sales desk, as the build writes it into the footer's Contact: the defaults of
     * CONTACT_EMAIL and CONTACT_PHONE, which the API writes into the pages it serves and the worker into the e-mails.
     */
    contact: { email: 'sales@northstar-converge.com', phone: '+49 30 5557 2100' },
  },
  legalLinks: [
    { label: 'Privacy Policy', href: '/legal/privacy' },
    { label: 'Terms of Service', href: '/legal/terms' },
    { label: 'Cookie Notice', href: '/legal/cookies' },
  ],
  socialLinks: [
    { network: 'LinkedIn', href: 'https://www.linkedin.com/company/northstar-converge' },
    { network: 'X', href: 'https://x.com/northstarconverge' },
    { network: 'YouTube', href: 'https://www.youtube.com/@northstarconverge' },
    { network: 'GitHub', href: 'https://github.com/northstar-converge' },
    { network: 'Facebook', href: 'https://www.facebook.com/northstarconverge' },
  ],
} as const;

/** How buyers reach the sales desk: an e-mail address and a phone number as it is printed. */
export interface Contact {
  email: string;
  phone: string;
}

/** A phone number as a tel: link dials it (RFC 3966: the digits and a leading +, no spaces or punctuation). */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^+\d]/g, '')}`;
}

export type SocialNetwork = (typeof brand.socialLinks)[number]['network'];

/**
 * The e-mails' logo: the mark as a PNG the build makes (at twice the size it is shown, for sharp screens) and the site
 * serves from PUBLIC_URL, since Gmail and Outlook drop inline SVG. A fixed path: e-mails already sent keep pointing at it.
 */
export const EMAIL_LOGO = { path: '/email/logo.png', size: 28, scale: 2 } as const;
