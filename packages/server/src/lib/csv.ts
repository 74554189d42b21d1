/** Characters that make a spreadsheet read a cell as a formula (OWASP 'CSV injection'). */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One CSV cell (RFC 4180): quoted when it holds a quote, comma or line break, quotes doubled. A
 * cell a spreadsheet would run as a formula is prefixed with `'`, so visitors' text stays text.
 */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One CSV line, ended with CRLF as RFC 4180 has it. */
export function csvRow(values: string[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
