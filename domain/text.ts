/**
 * Clean-up of what people type, shared by the API (before storing) and the worker (before e-mailing), and the one
 * HTML escape of the page's document (React escapes the e-mails: worker/email/parts.tsx).
 */

/**
 * Characters that show nothing or turn the text around: every format character (Unicode Cf): zero-width spaces and
 * joiners, the soft hyphen (so "evil.c\u00adom" reads "evil.com"), the byte-order mark, and the bidirectional controls
 * that make "moc.evil" read as "live.com". Dropped from what people type; an e-mail address that holds one is refused
 * (see hasInvisibleCharacter).
 */
const INVISIBLE = /\p{Cf}/gu;
/**
 * What else shows nothing though it is not Cf (Unicode's Default_Ignorable_Code_Point): variation selectors, the
 * Hangul fillers, the combining grapheme joiner. Dropped from a name or company, where "evil.c\ufe0fom" reads
 * "evil.com" as well.
 */
const IGNORABLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;

/** Whether the text holds a format (Cf) character: zero-width, bidirectional control, soft hyphen and the like. */
export function hasInvisibleCharacter(value: string): boolean {
  INVISIBLE.lastIndex = 0;
  return INVISIBLE.test(value);
}

/**
 * Control characters (CR, LF, tab, NUL …), line separators and runs of spaces collapse to one space; format
 * characters (Cf) go; a lone surrogate (half a character) becomes U+FFFD.
 */
export function singleLine(value: string): string {
  return (
    value
      .toWellFormed()
      .replace(INVISIBLE, '')
      // eslint-disable-next-line no-control-regex
      .replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, ' ')
      .trim()
  );
}

/**
 * The text as it looks: in Unicode's compatibility form (NFKC: full-width letters, "ℂ", "ⓞ", the dot leader "․" and
 * the small full stop "﹒" become the letters and the dot they look like), with nothing invisible left (Cf and the
 * other default-ignorable characters). What the link rules read (domain/links-in-text.ts), in the browser too.
 */
export function visibleForm(value: string): string {
  return value.replace(IGNORABLE, '').normalize('NFKC').replace(IGNORABLE, '');
}

/**
 * A name or company as the rules check it, and so as it is stored and e-mailed: its visibleForm, on one line.
 * Normalising again changes nothing.
 */
export function nameText(value: string): string {
  return singleLine(visibleForm(value));
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
