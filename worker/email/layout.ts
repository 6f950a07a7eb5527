/**
 * The frame every e-mail shares, in HTML and plain text: the brand's mark and colours, a heading, the body a template
 * gives, the booking's buttons, and the sign-off with the site's address. The mark is a PNG the site serves (Gmail and
 * Outlook drop inline SVG), sized in the HTML so a client that blocks images keeps the line's shape, and the product's
 * name beside it stays text. One column of at most 560 px
 * that narrows with the screen, so it reads at 375 px. Templates escape what they put in the HTML body.
 */
import { brand, EMAIL_LOGO, type Contact } from '../../domain/brand.js';
import { escapeHtml } from '../../domain/text.js';

export interface EmailContent {
  subject: string;
  heading: string;
  /** Plain-text body lines, after the greeting. */
  textLines: string[];
  /** HTML body, already escaped, after the greeting. */
  html: string;
  /** The name the greeting uses (a person's first name: `firstName`), header-safe. */
  name: string;
  publicUrl: string;
  /** How buyers reach the sales desk: the legal footer names it. */
  contact: Contact;
  /** The booking's own page (reschedule, cancel): a button under the body, and a line in the text. */
  manageUrl?: string;
}

export const MUTED = brand.colors.muted;
const { primary: PRIMARY, ink: INK, canvas: CANVAS } = brand.colors;

const BUTTON = `display:inline-block;margin:0 8px 8px 0;padding:10px 14px;border-radius:8px;background:${PRIMARY};color:#ffffff;text-decoration:none;font-weight:600;font-size:14px`;
const SECONDARY_BUTTON = `display:inline-block;margin:0 8px 8px 0;padding:9px 13px;border-radius:8px;border:1px solid ${PRIMARY};color:${PRIMARY};text-decoration:none;font-weight:600;font-size:14px`;

export function button(href: string, label: string, secondary = false): string {
  return `<a href="${escapeHtml(href)}" style="${secondary ? SECONDARY_BUTTON : BUTTON}">${escapeHtml(label)}</a>`;
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

export function calendarLinksText(links: CalendarLinks): string[] {
  return ['Add it to your calendar:', ...CALENDAR_LABELS.map(([key, label]) => `  ${label}: ${links[key]}`)];
}

/** Buttons that wrap onto several lines on a narrow screen. */
export function calendarLinksHtml(links: CalendarLinks): string {
  const buttons = CALENDAR_LABELS.map(([key, label]) => button(links[key], label));
  return `    <p style="margin:16px 0 8px">Add it to your calendar:</p>
    <p style="margin:0 0 16px">${buttons.join('')}</p>`;
}

/** Facts as label and value, one a row (a lead's details, where a visit came from); values escaped here. */
export function detailsTableHtml(entries: readonly (readonly [string, string])[]): string {
  const label = `padding:4px 16px 4px 0;color:${MUTED};vertical-align:top`;
  return `    <table role="presentation" style="border-collapse:collapse;margin:8px 0 16px">
${entries.map(([key, value]) => `      <tr><td style="${label}">${escapeHtml(key)}</td><td style="padding:4px 0">${escapeHtml(value)}</td></tr>`).join('\n')}
    </table>`;
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

/** The mark: the PNG the web build draws from the brand's SVG (web/app/brand-images.tsx), at the site's address. */
function logoUrl(publicUrl: string): string {
  return `${publicUrl.replace(/\/+$/, '')}${EMAIL_LOGO.path}`;
}

function markImage(publicUrl: string): string {
  const { size } = EMAIL_LOGO;
  return `<img src="${escapeHtml(logoUrl(publicUrl))}" width="${size}" height="${size}" alt="${escapeHtml(`${brand.product} logo`)}" style="display:inline-block;width:${size}px;height:${size}px;border:0;vertical-align:middle">`;
}

export function renderLayout(content: EmailContent): { text: string; html: string } {
  const { subject, heading, name, publicUrl, manageUrl } = content;
  const text = [
    `Hi ${name},`,
    '',
    ...content.textLines,
    ...(manageUrl ? ['', `${MANAGE_LABEL}: ${manageUrl}`] : []),
    '',
    `The ${brand.product} team`,
    '',
    `${brand.product} by ${brand.parentProvider} · ${publicUrl}`,
    ...legalLines(content.contact),
  ].join('\n');

  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:16px 8px;background:${CANVAS};font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:${INK};font-size:16px;line-height:1.5">
  <main style="display:block;max-width:560px;width:100%;margin:0 auto;box-sizing:border-box">
    <p style="margin:0 0 12px;padding:0 8px;font-size:20px;font-weight:800;color:${PRIMARY}">${markImage(publicUrl)} <span style="vertical-align:middle">${escapeHtml(brand.product)}</span></p>
    <div style="background:#ffffff;border-radius:12px;border-top:4px solid ${PRIMARY};padding:24px;box-sizing:border-box;overflow-wrap:anywhere;word-break:break-word">
      <h1 style="margin:0 0 16px;font-size:22px;line-height:1.3">${escapeHtml(heading)}</h1>
      <p>Hi ${escapeHtml(name)},</p>
${content.html}
${manageUrl ? `      <p style="margin:16px 0">${button(manageUrl, MANAGE_LABEL, true)}</p>\n` : ''}      <p>The ${escapeHtml(brand.product)} team</p>
    </div>
    <p style="margin:12px 0 0;padding:0 8px;font-size:12px;color:${MUTED}">${escapeHtml(brand.product)} by ${escapeHtml(brand.parentProvider)} · <a href="${escapeHtml(publicUrl)}" style="color:${MUTED}">${escapeHtml(publicUrl)}</a></p>
    <p style="margin:8px 0 0;padding:0 8px;font-size:12px;color:${MUTED}">${legalLines(content.contact).map(escapeHtml).join('<br>')}</p>
  </main>
</body>
</html>`;
  return { text, html };
}
