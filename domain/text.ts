/**
 * Clean-up of what people type, shared by the API (before storing) and the worker (before e-mailing), and the one
 * HTML escape used by the page's document and the e-mails.
 */

/**
 * Characters that show nothing or turn the text around: zero-width spaces and joiners, the byte-order mark, and
 * the bidirectional controls that make "moc.evil" read as "live.com". Dropped from what people type; an e-mail
 * address that holds one is refused (see invisibleCharacterIn).
 */
const INVISIBLE = /[\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

/** The first zero-width or bidirectional control character in the text, if any. */
export function hasInvisibleCharacter(value: string): boolean {
  INVISIBLE.lastIndex = 0;
  return INVISIBLE.test(value);
}

/**
 * Control characters (CR, LF, tab, NUL …), line separators and runs of spaces collapse to one space; zero-width
 * and bidirectional controls go; a lone surrogate (half a character) becomes U+FFFD.
 */
export function singleLine(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.toWellFormed().replace(INVISIBLE, '').replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
}

/** Text that may run over several lines: line breaks and tabs stay, other control and invisible characters go. */
export function multiLine(value: string): string {
  return (
    value
      .toWellFormed()
      .replace(INVISIBLE, '')
      .replace(/\r\n?|[\u0085\u2028\u2029]/g, '\n')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '')
      .trim()
  );
}

/** Error text from a mail server often quotes the recipient: logs and stored errors keep no address. */
export function withoutAddresses(text: string): string {
  return text.replace(/[^\s<>"'(),;:[\]]+@[^\s<>"'(),;:[\]]+/g, '[address]');
}

/** Text made safe for HTML content and quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
