/** Clean-up of what people type, shared by the API (before storing) and the worker (before e-mailing). */

/** Control characters (CR, LF, tab, NUL …), line separators and runs of spaces collapse to one space. */
export function singleLine(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
}

/** Text that may run over several lines: line breaks and tabs stay, other control characters (NUL …) go. */
export function multiLine(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '').trim();
}

/** Error text from a mail server often quotes the recipient: logs and stored errors keep no address. */
export function withoutAddresses(text: string): string {
  return text.replace(/[^\s<>"'(),;:[\]]+@[^\s<>"'(),;:[\]]+/g, '[address]');
}
