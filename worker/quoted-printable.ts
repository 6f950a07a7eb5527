/**
 * Quoted-printable (RFC 2045) for the text parts worker/mime.ts writes, in one pass over the string: no Buffer of the
 * text, no second pass to wrap it. Line breaks (CRLF) stay line breaks; a line longer than 76 characters is broken
 * with soft line breaks, never inside the encoding of a character; a space or tab that ends a line is encoded.
 */

const MAX_LINE = 76;

/** What each ASCII character is written as: itself, or =XX ('=' itself, control characters). */
const ASCII_TOKENS: string[] = Array.from({ length: 128 }, (_, code) =>
  (code >= 0x21 && code <= 0x7e && code !== 0x3d) || code === 0x20 || code === 0x09 ? String.fromCharCode(code) : hex(code),
);

function hex(byte: number): string {
  return `=${byte < 16 ? '0' : ''}${byte.toString(16).toUpperCase()}`;
}

/** The =XX=XX… of a character beyond ASCII's UTF-8 bytes (a lone surrogate as U+FFFD, as Buffer.from writes it). */
function utf8Token(codePoint: number): string {
  if (codePoint < 0x800) return hex(0xc0 | (codePoint >> 6)) + hex(0x80 | (codePoint & 0x3f));
  if (codePoint < 0x10000) return hex(0xe0 | (codePoint >> 12)) + hex(0x80 | ((codePoint >> 6) & 0x3f)) + hex(0x80 | (codePoint & 0x3f));
  return hex(0xf0 | (codePoint >> 18)) + hex(0x80 | ((codePoint >> 12) & 0x3f)) + hex(0x80 | ((codePoint >> 6) & 0x3f)) + hex(0x80 | (codePoint & 0x3f));
}

/** Characters written as they are anywhere on a line: printable ASCII but '='. */
const isLiteral = (code: number) => code >= 0x21 && code <= 0x7e && code !== 0x3d;

export function quotedPrintable(text: string): string {
  const parts: string[] = [];
  const length = text.length;
  // Characters on the output line so far; room is kept for the '=' of a soft line break.
  let column = 0;
  const room = MAX_LINE - 1;
  let i = 0;
  while (i < length) {
    // A run of characters written as they are (a space or tab inside it too) goes out in slices.
    let end = i;
    for (;;) {
      const code = text.charCodeAt(end);
      if (isLiteral(code)) end++;
      else if ((code === 0x20 || code === 0x09) && end + 1 < length && !(text.charCodeAt(end + 1) === 0x0d && text.charCodeAt(end + 2) === 0x0a)) end++;
      else break;
    }
    while (i < end) {
      if (column === room) {
        parts.push('=\r\n');
        column = 0;
      }
      const take = Math.min(end - i, room - column);
      parts.push(text.slice(i, i + take));
      column += take;
      i += take;
    }
    if (i >= length) break;
    const code = text.charCodeAt(i);
    if (code === 0x0d && text.charCodeAt(i + 1) === 0x0a) {
      parts.push('\r\n');
      column = 0;
      i += 2;
      continue;
    }
    let token: string;
    if (code < 0x80) {
      // '=', a control character, or a space or tab that ends a line or the text (it would be lost on the way).
      token = ASCII_TOKENS[code] === String.fromCharCode(code) ? hex(code) : (ASCII_TOKENS[code] as string);
      i++;
    } else {
      let codePoint = code;
      i++;
      if (code >= 0xd800 && code <= 0xdbff) {
        const low = text.charCodeAt(i);
        if (low >= 0xdc00 && low <= 0xdfff) {
          codePoint = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
          i++;
        } else codePoint = 0xfffd;
      } else if (code >= 0xdc00 && code <= 0xdfff) codePoint = 0xfffd;
      token = utf8Token(codePoint);
    }
    if (column + token.length > room) {
      parts.push('=\r\n');
      column = 0;
    }
    parts.push(token);
    column += token.length;
  }
  return parts.join('');
}
