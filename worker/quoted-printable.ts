/**
 * Quoted-printable (RFC 2045) for the text parts worker/mime.ts writes, line by line, without a Buffer of the text.
 * Line breaks (CRLF) stay line breaks; a line longer than 76 characters is broken with soft line breaks, never
 * inside the encoding of a character; a space or tab that ends a line is encoded.
 */

/** Characters on an encoded line before its soft line break ('='), which makes the 76 of RFC 2045. */
const ROOM = 75;

/** =XX of each byte, worked out once. */
const HEX_OF_BYTE: readonly string[] = Array.from({ length: 256 }, (_, byte) => `=${byte.toString(16).toUpperCase().padStart(2, '0')}`);

const hex = (byte: number) => HEX_OF_BYTE[byte] as string;

/** The =XX=XX… of a character beyond ASCII's UTF-8 bytes (a lone surrogate as U+FFFD, as Buffer.from writes it). */
function utf8Token(codePoint: number): string {
  if (codePoint < 0x800) return hex(0xc0 | (codePoint >> 6)) + hex(0x80 | (codePoint & 0x3f));
  if (codePoint < 0x10000) return hex(0xe0 | (codePoint >> 12)) + hex(0x80 | ((codePoint >> 6) & 0x3f)) + hex(0x80 | (codePoint & 0x3f));
  return hex(0xf0 | (codePoint >> 18)) + hex(0x80 | ((codePoint >> 12) & 0x3f)) + hex(0x80 | ((codePoint >> 6) & 0x3f)) + hex(0x80 | (codePoint & 0x3f));
}

const isBlank = (code: number) => code === 0x20 || code === 0x09;

/** A character that is not written as it is: '=', a control character, or one beyond ASCII. */
const ENCODED = /[^\t\x20-\x3c\x3e-\x7e]/g;

/** The encoding of the character at `at`, and where the next one starts. */
function tokenAt(line: string, at: number): [token: string, next: number] {
  const code = line.charCodeAt(at);
  // '=', a control character, or a space or tab that ends the line (it would be lost on the way).
  if (code < 0x80) return [hex(code), at + 1];
  if (code >= 0xd800 && code <= 0xdbff) {
    const low = line.charCodeAt(at + 1);
    if (low >= 0xdc00 && low <= 0xdfff) return [utf8Token(0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00)), at + 2];
    return [utf8Token(0xfffd), at + 1];
  }
  return [utf8Token(code >= 0xdc00 && code <= 0xdfff ? 0xfffd : code), at + 1];
}

/** One line (no CRLF in it), with soft line breaks where it is longer than the room on a line. */
function encodeLine(line: string): string {
  const length = line.length;
  if (length === 0) return '';
  // Written as they are: everything up to the next character to encode, but a space or tab that ends the line.
  const plainUpTo = isBlank(line.charCodeAt(length - 1)) ? length - 1 : length;
  ENCODED.lastIndex = 0;
  if (plainUpTo === length && !ENCODED.test(line)) {
    // The common case: text that needs no encoding.
    if (length <= ROOM) return line;
    let out = line.slice(0, ROOM);
    for (let at = ROOM; at < length; at += ROOM) out += `=\r\n${line.slice(at, at + ROOM)}`;
    return out;
  }
  let out = '';
  let column = 0;
  let i = 0;
  while (i < length) {
    ENCODED.lastIndex = i;
    const found = ENCODED.exec(line);
    const plainEnd = found && found.index < plainUpTo ? found.index : plainUpTo;
    while (i < plainEnd) {
      if (column === ROOM) {
        out += '=\r\n';
        column = 0;
      }
      const take = Math.min(plainEnd - i, ROOM - column);
      out += line.slice(i, i + take);
      column += take;
      i += take;
    }
    if (i >= length) break;
    const [token, next] = tokenAt(line, i);
    i = next;
    if (column + token.length > ROOM) {
      out += '=\r\n';
      column = 0;
    }
    out += token;
    column += token.length;
  }
  return out;
}

export function quotedPrintable(text: string): string {
  let out = '';
  let start = 0;
  for (;;) {
    const end = text.indexOf('\r\n', start);
    if (end === -1) return out + encodeLine(start === 0 ? text : text.slice(start));
    out += `${encodeLine(text.slice(start, end))}\r\n`;
    start = end + 2;
  }
}
