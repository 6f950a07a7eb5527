/**
 * CSV as RFC 4180 writes it (every cell quoted, quotes doubled, CRLF line ends), with a guard against formula
 * injection: a cell a spreadsheet would run as a formula (starting with =, +, -, @, a tab or a carriage return) is
 * written with a leading apostrophe, so it opens as the text the prospect typed.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string | number | null | undefined): string {
  const text = value === null || value === undefined ? '' : String(value);
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

export function csvLine(values: readonly (string | number | null | undefined)[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
