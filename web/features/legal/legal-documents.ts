import { brand } from '../../../domain/brand.js';
import { DEFAULT_RETENTION_DAYS } from '../../../domain/retention.js';

/**
 * The copy of the legal pages. It describes what this site really does and nothing more: if the site starts
 * to collect, store or load something new, these texts change with it.
 */
export interface LegalSection {
  heading: string;
  paragraphs?: readonly string[];
  list?: readonly string[];
}

export interface LegalDocument {
  slug: 'privacy' | 'terms' | 'cookies';
  /** The page's address, as the footer links to it. */
  href: string;
  /** The h1, the same words as the footer link. */
  title: string;
  description: string;
  intro: string;
  sections: readonly LegalSection[];
}

const { product, parentProvider, company } = brand;
/** One story everywhere: the link in every e-mail moves or cancels the demo; a reply reaches the sales team. */
const MANAGE = 'use the "Reschedule or cancel" link in any e-mail about your demo';
const REPLY = 'reply to any e-mail about your demo: replies reach our sales team';

function labelOf(href: string): string {
  const link = brand.legalLinks.find((candidate) => candidate.href === href);
  if (!link) throw new Error(`brand.legalLinks has no ${href}`);
  return link.label;
}

export const LEGAL_DOCUMENTS: readonly LegalDocument[] = [
  {
    slug: 'privacy',
    href: '/legal/privacy',
    title: labelOf('/legal/privacy'),
    description: `What the ${product} website collects when you request a demo, why, where it is kept, and how to reach ${parentProvider} about it.`,
    intro: `This policy covers the ${product} website and its Request Demo form. The site is operated by ${parentProvider}, the provider of ${product}.`,
    sections: [
      {
        heading: 'What we collect',
        paragraphs: ['When you send the Request Demo form, we receive:'],
        list: [
          'your name,',
          'your work e-mail address,',
          'your company,',
          'the date and time you chose for the demo,',
          'your phone number and a message, if you give them (both are optional),',
          "your device's time zone (such as America/New_York), so that our e-mails show the demo's time on your own clock too,",
          'where your visit came from, if the link you followed said so: its campaign tags (utm_source, utm_medium, utm_campaign, utm_term, utm_content) and the address of the site that sent you.',
        ],
      },
      {
        heading: 'Why we use it, and on what legal basis',
        paragraphs: [
          'To schedule the demo you asked for, to choose the member of our sales team who gives it, and to send you a confirmation e-mail with a calendar invitation for the time you chose, a reminder before it, and word of any change. This is a step you asked for before any contract (Art. 6(1)(b) GDPR).',
          'Where your visit came from tells our sales team which campaign or site led you to us; counting requests per network (IP) address keeps anyone from sending many requests; checking that an address looks like a work address keeps out typos and throwaway mailboxes. These serve our legitimate interests in knowing our campaigns and keeping the form usable (Art. 6(1)(f) GDPR). The site uses your details for nothing else.',
          'When you leave the e-mail field, the address is sent to our server to check that it looks like a work address (not a personal or disposable mailbox, no likely typo). That check is not stored.',
        ],
      },
      {
        heading: 'Where it is kept, and who sees it',
        paragraphs: [
          'Your request is stored in our database, together with the time it was sent and the e-mails sent about it. The e-mails are sent through our own mail server.',
          'Our sales team sees your request; the colleague who gives the demo receives it by e-mail and as an event in their work calendar.',
          'The video call takes place on the service its link names (by default Jitsi Meet, at meet.jit.si). Nothing of that service is loaded on this site; its own privacy terms apply when you join the call.',
          'To stop anyone from sending many requests, the server counts requests per network (IP) address for a short time; those counts expire on their own. When an automated program fills in a field of the form that people never see, the server keeps that network address with the request for up to two hours, so that its answers stay consistent, and then deletes it.',
        ],
      },
      {
        heading: 'How long we keep it',
        paragraphs: [
          `Your name, e-mail address, company, phone number, message, time zone and where your visit came from are deleted ${DEFAULT_RETENTION_DAYS} days (two years) after the date of the demo; what is left is the date, the status and the host, with nothing that names you. Sooner if you ask (below).`,
          'Our server logs name no person: no name, no e-mail address and no booking link is written into them.',
        ],
      },
      {
        heading: 'No tracking',
        paragraphs: [
          'The site sets no cookies and loads nothing from other hosts: no analytics, no advertising, no fonts or scripts from third parties. Where your visit came from is kept in your browser tab until you close it, and reaches us with a demo request you send; of it, only the campaign source (utm_source) also goes into the step counts below. The Cookie Notice says more.',
        ],
      },
      {
        heading: 'Counting the steps of the form',
        paragraphs: [
          'To learn where the form loses people, the page tells our own server, once per visit each, when four steps happen: the form is opened, an e-mail address is accepted, a time is chosen, and a demo is booked. Each message carries the step and your visit\'s campaign source (utm_source, such as "newsletter"), and nothing else. Our server adds one to that day\'s count for the step and source; it keeps only those daily totals.',
          `It keeps no e-mail address, name, IP address, browser description or identifier with them, sets no cookie and stores nothing in your browser for them, so a count cannot be traced back to you or linked to your other visits. Messages from known bots are not counted. Nothing is sent before you open the form. The totals are deleted ${DEFAULT_RETENTION_DAYS} days after their day. This serves our legitimate interest in improving the form (Art. 6(1)(f) GDPR).`,
        ],
      },
      {
        heading: 'Your rights',
        paragraphs: [
          `To move or cancel the demo, ${MANAGE}. You have the right to see the data we hold about you (Art. 15 GDPR), to have it corrected (Art. 16) or deleted (Art. 17), to restrict its use (Art. 18), to receive it in a common format (Art. 20), and to object to its use for our legitimate interests (Art. 21). To use any of them, or for any question about this policy, ${REPLY}, or write to ${company.legalName}, ${company.address.join(', ')}.`,
          'You may also complain to a data protection supervisory authority. Ours is the Berlin Commissioner for Data Protection and Freedom of Information (Berliner Beauftragte für Datenschutz und Informationsfreiheit), Alt-Moabit 59–61, 10555 Berlin, Germany.',
        ],
      },
    ],
  },
  {
    slug: 'terms',
    href: '/legal/terms',
    title: labelOf('/legal/terms'),
    description: `The terms for using the ${product} website and requesting a demo from ${parentProvider}.`,
    intro: `The ${product} website is provided by ${parentProvider} to present ${product} and to let businesses request a demo. By using it you accept these terms.`,
    sections: [
      {
        heading: 'Requesting a demo',
        list: [
          'A demo request is free and commits you to nothing.',
          'Use your own name and your work e-mail address; personal and disposable e-mail addresses are not accepted.',
          'Only request a demo for a company you are allowed to speak for.',
          `The confirmation e-mail and its calendar invitation state the time you chose. If it no longer suits you, ${MANAGE}.`,
        ],
      },
      {
        heading: 'Fair use',
        paragraphs: [
          'Do not send requests in bulk or by script, or on behalf of someone else without their consent. The server limits how many requests one network address can send.',
        ],
      },
      {
        heading: 'What the site says',
        paragraphs: [
          `The descriptions and figures on this site present ${product}; they are not an offer to contract. Using ${product} itself is subject to a separate agreement with ${parentProvider}.`,
          'Links to social networks take you to their own sites, under their own terms.',
        ],
      },
      {
        heading: 'Changes and questions',
        paragraphs: [
          `These pages may change as the site changes; the version published here applies. For questions, ${REPLY}.`,
        ],
      },
    ],
  },
  {
    slug: 'cookies',
    href: '/legal/cookies',
    title: labelOf('/legal/cookies'),
    description: `The ${product} website sets no cookies and loads nothing from other hosts.`,
    intro: 'This site sets no cookies.',
    sections: [
      {
        heading: 'Nothing from other hosts',
        paragraphs: [
          `It loads nothing from other hosts: no analytics, no advertising, no fonts, scripts or images from third parties. Every file comes from this site, served by ${parentProvider}.`,
          'That is why there is no cookie banner: nothing here follows you.',
        ],
      },
      {
        heading: 'The one thing kept in your browser',
        paragraphs: [
          "When you arrive through a link with campaign tags (utm_source and the like) or from another site, the page keeps those tags and that site's address in the tab's session storage, so that a demo request sent later in the same visit says where the visit came from. It is not a cookie, and is deleted when you close the tab. Apart from a demo request, only its campaign source (utm_source) is sent, to our own server, with the anonymous step counts the Privacy Policy describes.",
        ],
      },
      {
        heading: 'Links to other sites',
        paragraphs: [
          'The social media links in the footer lead to those networks. Nothing of theirs is loaded here; their own cookie rules apply once you follow a link.',
        ],
      },
      {
        heading: 'Questions',
        paragraphs: [`For questions, ${REPLY}.`],
      },
    ],
  },
];
