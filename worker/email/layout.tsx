/**
 * The frame every e-mail shares, in HTML and plain text: the brand's mark and colours, a heading, the body a template
 * gives, the booking's button, and the sign-off with the site's address. The mark is a PNG the site serves (Gmail and
 * Outlook drop inline SVG), sized in the HTML so a client that blocks images keeps the line's shape, and the product's
 * name beside it stays text. One column of at most 560 px that narrows with the screen, so it reads at 375 px.
 */
import type { ReactNode } from 'react';
import { brand, EMAIL_LOGO, type Contact } from '../../domain/brand.js';
import { Buttons, CANVAS, htmlOf, INK, Link, MUTED, Paragraph, part, PRIMARY, textOf } from './parts.js';

export interface EmailFrame {
  subject: string;
  heading: string;
  /** The name the greeting uses (a person's first name: `firstName`), header-safe. */
  name: string;
  publicUrl: string;
  /** How buyers reach the sales desk: the legal footer names it. */
  contact: Contact;
  /** The booking's own page (reschedule, cancel): a button under the body. */
  manageUrl?: string;
}

/**
 * The frame of an e-mail to the prospect: greeted by the first name of `name` (already one line), the site's footer,
 * and the booking's page under the body unless `manage` is false (a cancelled booking has nothing left to manage).
 */
export function prospectFrame(
  name: string,
  options: { publicUrl: string; contact: Contact; manageUrl: string },
  words: { subject: string; heading: string; manage?: boolean },
): EmailFrame {
  return {
    subject: words.subject,
    heading: words.heading,
    name: firstName(name),
    publicUrl: options.publicUrl,
    contact: options.contact,
    ...(words.manage === false ? {} : { manageUrl: options.manageUrl }),
  };
}

/** Where one booking's event can be added: Google Calendar, Outlook, and the .ics file behind its link. */
export interface CalendarLinks {
  google: string;
  outlook: string;
  ics: string;
}

const CALENDAR_LABELS: [keyof CalendarLinks, string][] = [
  ['google', 'Google Calendar'],
  ['outlook', 'Outlook'],
  ['ics', 'Other calendars (.ics)'],
];

/** The event's calendars as buttons under a line that says what they do; in the text part, under the same line. */
export function CalendarButtons({ links }: { links: CalendarLinks }) {
  return (
    <>
      <Paragraph style={{ margin: '16px 0 8px' }}>Add it to your calendar:</Paragraph>
      <Buttons
        style={{ margin: '0 0 16px' }}
        buttons={CALENDAR_LABELS.map(([key, label]) => ({ href: links[key], label }))}
      />
    </>
  );
}

const MANAGE_LABEL = 'Reschedule or cancel';

/**
 * How a person is greeted: the first word of their name as they typed it ("Ana" of "Ana Berg"), or the whole name
 * when that word is a title or an initial ("Dr. Ana Berg", "A. Berg") or the name is one word.
 */
export function firstName(name: string): string {
  const whole = name.trim();
  const first = whole.split(/\s+/u)[0] ?? '';
  return first.length < 2 || first.endsWith('.') ? whole : first;
}

/** The company behind the e-mails, as German business e-mail must name it (HGB § 37a, GmbHG § 35a). */
const { company } = brand;
function legalLines(contact: Contact): string[] {
  return [
    `${company.legalName} · ${company.address.join(', ')} · ${contact.email} · ${contact.phone}`,
    `Registered office: ${company.registeredOffice} · ${company.register.court}, ${company.register.number} · Managing directors: ${company.managingDirectors.join(', ')}`,
  ];
}

const FOOTNOTE = { padding: '0 8px', fontSize: '12px', color: MUTED };
const BY = `${brand.product} by ${brand.parentProvider} · `;

/** Under the card: who sends it, the site, and the legal details, each legal line a line of its own. */
const Footer = part(
  ({ publicUrl, contact }: { publicUrl: string; contact: Contact }) => (
    <>
      <p style={{ margin: '12px 0 0', ...FOOTNOTE }}>
        {BY}
        <Link href={publicUrl} style={{ color: MUTED }}>
          {publicUrl}
        </Link>
      </p>
      <p style={{ margin: '8px 0 0', ...FOOTNOTE }}>
        {legalLines(contact).flatMap((line, i) => (i === 0 ? [line] : [<br key={i} />, line]))}
      </p>
    </>
  ),
  ({ publicUrl, contact }) => [`${BY}${publicUrl}`, ...legalLines(contact)].join('\n'),
);

/** The mark: the PNG the web build draws from the brand's SVG (web/app/brand-images.tsx), at the site's address. */
function Mark({ publicUrl }: { publicUrl: string }) {
  const { size } = EMAIL_LOGO;
  return (
    <img
      src={`${publicUrl.replace(/\/+$/, '')}${EMAIL_LOGO.path}`}
      width={size}
      height={size}
      alt={`${brand.product} logo`}
      style={{ display: 'inline-block', width: `${size}px`, height: `${size}px`, border: 0, verticalAlign: 'middle' }}
    />
  );
}

const FONTS = "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";

/** An e-mail's HTML and plain text: the frame around `body`, a tree of parts (parts.tsx). */
export function renderEmail(frame: EmailFrame, body: ReactNode): { text: string; html: string } {
  const { subject, heading, name, publicUrl, manageUrl, contact } = frame;
  const card = (
    <>
      <Paragraph>Hi {name},</Paragraph>
      {body}
      {manageUrl && (
        <Buttons style={{ margin: '16px 0' }} buttons={[{ href: manageUrl, label: MANAGE_LABEL, secondary: true }]} />
      )}
      <Paragraph>The {brand.product} team</Paragraph>
    </>
  );
  const footer = <Footer publicUrl={publicUrl} contact={contact} />;
  const html = htmlOf(
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        {/* What mail programs read rather than the HTML5 forms: Outlook the charset, Apple Mail not to rescale. */}
        <meta httpEquiv="Content-Type" content="text/html; charset=utf-8" />
        <meta name="x-apple-disable-message-reformatting" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light" />
        <title>{subject}</title>
      </head>
      <body
        style={{
          margin: 0,
          padding: '16px 8px',
          background: CANVAS,
          fontFamily: FONTS,
          color: INK,
          fontSize: '16px',
          lineHeight: 1.5,
        }}
      >
        {/* Webmail drops <html> and <head>: the column keeps the language and the subject for screen readers. */}
        <main
          lang="en"
          dir="ltr"
          aria-label={subject}
          style={{ display: 'block', maxWidth: '560px', width: '100%', margin: '0 auto', boxSizing: 'border-box' }}
        >
          <p style={{ margin: '0 0 12px', padding: '0 8px', fontSize: '20px', fontWeight: 800, color: PRIMARY }}>
            <Mark publicUrl={publicUrl} /> <span style={{ verticalAlign: 'middle' }}>{brand.product}</span>
          </p>
          <div
            style={{
              background: '#ffffff',
              borderRadius: '12px',
              borderTop: `4px solid ${PRIMARY}`,
              padding: '24px',
              boxSizing: 'border-box',
              overflowWrap: 'anywhere',
              wordBreak: 'break-word',
            }}
          >
            <h1 style={{ margin: '0 0 16px', fontSize: '22px', lineHeight: 1.3 }}>{heading}</h1>
            {card}
          </div>
          {footer}
        </main>
      </body>
    </html>,
  );
  return { html, text: textOf([card, footer]) };
}
