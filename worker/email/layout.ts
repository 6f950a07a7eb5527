/**
 * The frame every e-mail to a prospect shares, in HTML and plain text: the product's name, a heading, the body a
 * template gives, and the sign-off with the site's address. Templates escape what they put in the HTML body.
 */
import { brand } from '../../domain/brand.js';
import { escapeHtml } from '../../domain/text.js';

export interface EmailContent {
  subject: string;
  heading: string;
  /** Plain-text body lines, after the greeting. */
  textLines: string[];
  /** HTML body, already escaped, after the greeting. */
  html: string;
  /** The recipient's name, header-safe. */
  name: string;
  publicUrl: string;
}

export const MUTED = '#4b5a78';
/** The site's primary colour (web/app/theme.ts), for the e-mails' buttons. */
const PRIMARY = '#4338ca';

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
  const button = `display:inline-block;margin:0 8px 8px 0;padding:10px 14px;border-radius:8px;background:${PRIMARY};color:#ffffff;text-decoration:none;font-weight:600;font-size:14px`;
  const buttons = CALENDAR_LABELS.map(([key, label]) => `<a href="${escapeHtml(links[key])}" style="${button}">${escapeHtml(label)}</a>`);
  return `    <p style="margin:16px 0 8px">Add it to your calendar:</p>
    <p style="margin:0 0 16px">${buttons.join('')}</p>`;
}

export function renderLayout(content: EmailContent): { text: string; html: string } {
  const { subject, heading, name, publicUrl } = content;
  const text = [
    `Hi ${name},`,
    '',
    ...content.textLines,
    '',
    `The ${brand.product} team`,
    `${brand.product} by ${brand.parentProvider} · ${publicUrl}`,
  ].join('\n');

  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f6fb;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#0f1a33">
  <div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:12px;padding:32px">
    <p style="margin:0 0 8px;font-size:14px;color:${MUTED}">${escapeHtml(brand.product)}</p>
    <h1 style="margin:0 0 16px;font-size:22px">${escapeHtml(heading)}</h1>
    <p>Hi ${escapeHtml(name)},</p>
${content.html}
    <p>The ${escapeHtml(brand.product)} team</p>
    <p style="font-size:12px;color:${MUTED}">${escapeHtml(brand.product)} by ${escapeHtml(brand.parentProvider)} · <a href="${escapeHtml(publicUrl)}">${escapeHtml(publicUrl)}</a></p>
  </div>
</body>
</html>`;
  return { text, html };
}
