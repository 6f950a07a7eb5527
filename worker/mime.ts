/**
 * The worker's messages as MIME, built in one pass into one string: the same tree nodemailer builds for them
 * (multipart/mixed of a multipart/alternative text, HTML and, for an invitation, the calendar part; then the
 * attachments), without its streams. Text beyond ASCII goes in encoded words (headers) and quoted-printable
 * (bodies), as nodemailer writes it. A message this does not cover (an address beyond ASCII, a control character
 * in a header, an address line over 78 characters) is left to nodemailer: `composeMime` returns null.
 */
import { randomBytes } from 'node:crypto';
import addressparser from 'nodemailer/lib/addressparser';
import { encodeWords, foldLines } from 'nodemailer/lib/mime-funcs';
import { KeptAnswers } from '../domain/kept-answers.js';
import { quotedPrintable } from './quoted-printable.js';
import type { OutgoingMail } from './send-mail.js';

export interface ComposedMime {
  envelope: { from: string; to: string[] };
  raw: string;
}

/** Printable ASCII, nothing that could end a header line. */
const HEADER_SAFE = /^[\x20-\x7e]*$/;
/** A display name that may stand without quotes: RFC 5322 atext and spaces. */
const ATOM_PHRASE = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~ ]*$/;
const ADDRESS = /^[\x21-\x7e]+@[A-Za-z0-9.-]+$/;
const ASCII_ONLY = /^\p{ASCII}*$/u;
/** A character beyond ASCII: the same test as ASCII_ONLY's, quicker on a whole body. */
const BEYOND_ASCII = /[\u0080-\uffff]/;
/** Control characters: none may go into a header, encoded or not. */
const CONTROL = /\p{Cc}/u;
const MAX_HEADER_LINE = 78;

/** RFC 2047 encoded words (quoted-printable, as nodemailer writes them) for text beyond ASCII. */
const encoded = (text: string) => encodeWords(text, 'Q', 52, true);

function displayName(name: string): string | null {
  if (CONTROL.test(name)) return null;
  if (!ASCII_ONLY.test(name)) return encoded(name);
  if (ATOM_PHRASE.test(name)) return name;
  return `"${name.replace(/["\\]/g, '\\$&')}"`;
}

function mailbox(name: string, address: string): string | null {
  if (!ADDRESS.test(address)) return null;
  if (!name) return address;
  const phrase = displayName(name);
  return phrase === null ? null : `${phrase} <${address}>`;
}

/** The sender and reply addresses are settings, parsed once each. */
const parsedAddresses = new KeptAnswers<{ header: string; address: string } | null>(100);
function fromSetting(value: string): { header: string; address: string } | null {
  return parsedAddresses.of(value, () => {
    const [first, ...rest] = addressparser(value, { flatten: true });
    const header = first && rest.length === 0 ? mailbox(first.name, first.address) : null;
    return first && header !== null ? { header, address: first.address } : null;
  });
}

/** "Name: value", folded at spaces onto lines of at most 78 characters; null if it cannot be. */
function headerLine(name: string, value: string): string | null {
  if (!HEADER_SAFE.test(value)) return null;
  const line = `${name}: ${value}`;
  if (line.length <= MAX_HEADER_LINE) return line;
  const lines: string[] = [];
  let current = `${name}:`;
  for (const word of value.split(' ')) {
    if (current.length + 1 + word.length > MAX_HEADER_LINE && current.trim() !== `${name}:`) {
      lines.push(current);
      current = '';
    }
    current += ` ${word}`;
  }
  lines.push(current);
  return lines.every((part) => part.length <= MAX_HEADER_LINE) ? lines.join('\r\n') : null;
}

/** A subject beyond ASCII (a time range's dash), in encoded words folded as nodemailer folds them. */
function subjectLine(subject: string): string | null {
  if (CONTROL.test(subject)) return null;
  return foldLines(`Subject: ${encoded(subject)}`, 76).replace(/\r?\n/g, '\r\n').replace(/\r\n$/, '');
}

const crlf = (text: string) => text.replace(/\r?\n/g, '\r\n');

/** A line longer than SMTP's 998 characters (without its CRLF). */
function hasLongLine(body: string): boolean {
  for (let start = 0; ; ) {
    const end = body.indexOf('\r\n', start);
    if ((end === -1 ? body.length : end) - start > 998) return true;
    if (end === -1) return false;
    start = end + 2;
  }
}

/** A text part: as it is when it is ASCII on lines SMTP carries, quoted-printable otherwise. */
function textPart(contentType: string, content: string): string {
  const body = crlf(content);
  if (!BEYOND_ASCII.test(body) && !hasLongLine(body)) {
    return `Content-Type: ${contentType}\r\nContent-Transfer-Encoding: 7bit\r\n\r\n${body}`;
  }
  return `Content-Type: ${contentType}\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n${quotedPrintable(body)}`;
}

function base64Lines(content: string): string {
  const encoded = Buffer.from(content, 'utf8').toString('base64');
  const lines: string[] = [];
  for (let i = 0; i < encoded.length; i += 76) lines.push(encoded.slice(i, i + 76));
  return lines.join('\r\n');
}

function attachmentPart(contentType: string, filename: string, content: string): string | null {
  if (!/^[\w.-]+$/.test(filename)) return null;
  return (
    `Content-Type: ${contentType}; name=${filename}\r\nContent-Disposition: attachment; filename=${filename}\r\n` +
    `Content-Transfer-Encoding: base64\r\n\r\n${base64Lines(content)}`
  );
}

function multipart(type: 'mixed' | 'alternative', boundary: string, parts: string[]): string {
  return `Content-Type: multipart/${type}; boundary="${boundary}"\r\n\r\n${parts.map((part) => `--${boundary}\r\n${part}\r\n`).join('')}--${boundary}--\r\n`;
}

/** Boundaries: random for the process, numbered for the message; content cannot guess them. */
const BOUNDARY_PREFIX = `=_Converge_${randomBytes(9).toString('base64url')}`;
let messageCount = 0;

/** RFC 5322 date, as nodemailer writes it. */
const mailDate = (now: Date) => now.toUTCString().replace(/GMT/, '+0000');

export function composeMime(mail: OutgoingMail, now = new Date()): ComposedMime | null {
  const from = fromSetting(mail.from);
  const replyTo = typeof mail.replyTo === 'string' ? fromSetting(mail.replyTo)?.header : mailbox(mail.replyTo.name, mail.replyTo.address);
  const to = mailbox(mail.to.name, mail.to.address);
  if (!from || !replyTo || !to) return null;

  const headers: (string | null)[] = [
    ...Object.entries(mail.headers).map(([name, value]) => (/^[A-Za-z][A-Za-z0-9-]*$/.test(name) ? headerLine(name, value) : null)),
    headerLine('From', from.header),
    headerLine('To', to),
    headerLine('Reply-To', replyTo),
    ASCII_ONLY.test(mail.subject) ? headerLine('Subject', mail.subject) : subjectLine(mail.subject),
    headerLine('Message-ID', mail.messageId),
    `Date: ${mailDate(now)}`,
    'MIME-Version: 1.0',
  ];
  if (headers.some((line) => line === null)) return null;

  messageCount = (messageCount + 1) % Number.MAX_SAFE_INTEGER;
  const boundary = (part: number) => `${BOUNDARY_PREFIX}_${messageCount.toString(36)}_${part}`;
  const alternatives = [textPart('text/plain; charset=utf-8', mail.text), textPart('text/html; charset=utf-8', mail.html)];
  const attachments: (string | null)[] = [];
  if (mail.icalEvent) {
    // As nodemailer does: the invitation as an alternative a calendar acts on, and as a file.
    alternatives.push(textPart(`text/calendar; charset=utf-8; method=${mail.icalEvent.method}`, mail.icalEvent.content));
    attachments.push(attachmentPart('application/ics', mail.icalEvent.filename, mail.icalEvent.content));
  }
  for (const attachment of mail.attachments ?? []) {
    attachments.push(HEADER_SAFE.test(attachment.contentType) ? attachmentPart(attachment.contentType, attachment.filename, attachment.content) : null);
  }
  if (attachments.some((part) => part === null)) return null;

  const body = multipart('mixed', boundary(1), [multipart('alternative', boundary(2), alternatives), ...(attachments as string[])]);
  return { envelope: { from: from.address, to: [mail.to.address] }, raw: `${headers.join('\r\n')}\r\n${body}` };
}
