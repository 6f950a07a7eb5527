/**
 * The one place that names the product. The page, the confirmation e-mails and the docs read from here.
 */
export const brand = {
  product: 'Converge',
  tagline: 'The AI-powered enterprise communication platform',
  parentProvider: 'Northstar Telecom',
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

export type SocialNetwork = (typeof brand.socialLinks)[number]['network'];
