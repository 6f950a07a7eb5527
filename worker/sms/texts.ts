/**
 * The sms channel's template (issue 40): the words of each text, written to fit one GSM-7 message where the names
 * allow, with the host's first name, the time on the prospect's clock and the booking's short link; and how many
 * message parts a text takes, as the networks count them (GSM-7, else UCS-2).
 */
import { brand } from '../../domain/brand.js';
import type { Lead } from '../delivery-row.js';

/** GSM 03.38's basic set: each of these takes one septet. */
const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
/** Its extension table: each of these takes two septets (an escape, then the character). */
const GSM_EXTENDED = '^{}\\[~]|€\f';

export interface TextSize {
  encoding: 'GSM-7' | 'UCS-2';
  /** Septets (GSM-7) or UTF-16 code units (UCS-2). */
  units: number;
  /** The message parts it is sent in: one up to 160 septets or 70 code units, else parts of 153 or 67. */
  parts: number;
}

export function textSize(text: string): TextSize {
  let septets = 0;
  for (const char of text) {
    if (GSM_BASIC.includes(char)) septets += 1;
    else if (GSM_EXTENDED.includes(char)) septets += 2;
    else {
      const units = text.length;
      return { encoding: 'UCS-2', units, parts: units <= 70 ? 1 : Math.ceil(units / 67) };
    }
  }
  return { encoding: 'GSM-7', units: septets, parts: septets <= 160 ? 1 : Math.ceil(septets / 153) };
}

/** The first word of the host's name, as a text names them. */
const firstName = (name: string) => name.trim().split(/\s+/)[0] ?? name;

/** "Tue 24 Nov, 09:00 CET": short, and on the prospect's clock. */
export function textTime(at: Date, zone: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('weekday')} ${part('day')} ${part('month')}, ${part('hour')}:${part('minute')} ${part('timeZoneName')}`;
}

export type TextKind = 'sms-confirmation' | 'sms-update' | 'sms-cancellation' | 'sms-reminder';

export interface TextOptions {
  /** The prospect's zone (the booking's visitor zone), else the booking zone. */
  zone: string;
  /** The booking's short link ({PUBLIC_URL}/m/{code}), which leads to its manage page. */
  smsLink: string;
}

/** The words of a text of `kind` about `booking` (the lead with the slot the row tells of). */
export function writeText(kind: TextKind, booking: Lead, options: TextOptions): string {
  const withHost = booking.host ? ` with ${firstName(booking.host.name)}` : '';
  const time = textTime(booking.timeSlot, options.zone);
  const demo = `${brand.product} demo${withHost}`;
  // The words stay short, so that one message carries them and the link where the names allow.
  switch (kind) {
    case 'sms-confirmation':
      return `${demo} booked: ${time}. Manage: ${options.smsLink}`;
    case 'sms-update':
      return `${demo} updated: ${time}. Manage: ${options.smsLink}`;
    case 'sms-cancellation':
      return `${brand.product} demo of ${time} cancelled. Details: ${options.smsLink}`;
    case 'sms-reminder':
      return `Reminder: ${demo}, ${time}. Manage: ${options.smsLink}`;
  }
}
