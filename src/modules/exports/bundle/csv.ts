// The bundle's CSV files (§22): RFC 4180 (fields separated by commas, quoted when they hold a comma, a quote or a
// line break, lines ended by CR LF), UTF-8, a header row first. Every amount twice: as a decimal in its
// currency's digits ("1190.00", "1200" for JPY) and in minor units (119000), so a spreadsheet adds them up
// and a program reads them exactly.
import { exponentOf } from '../../../lib/currencies';

const encoder = new TextEncoder();

export type Cell = string | number | boolean | null;

function field(value: Cell): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (cells: Cell[]) => `${cells.map(field).join(',')}\r\n`;

/** Minor units as a decimal in the currency's digits: -12345 EUR → "-123.45", 1200 JPY → "1200". */
export function decimal(minor: number, currency: string): string {
  const exponent = exponentOf(currency);
  if (exponent === 0) return String(minor);
  const digits = String(Math.abs(minor)).padStart(exponent + 1, '0');
  return `${minor < 0 ? '-' : ''}${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}

/** An amount's two columns: the decimal and the minor units. */
export const money = (minor: number, currency: string): [string, number] => [decimal(minor, currency), minor];

/** An amount's two headings: `total`, `total_minor`. */
export const moneyHeadings = (name: string) => [name, `${name}_minor`];

/** A CSV file as bytes: its heading row, then each page's rows as one chunk. */
export async function* csvFile<T>(headings: string[], pages: AsyncIterable<T[]>, cells: (item: T) => Cell[][]): AsyncGenerator<Uint8Array> {
  yield encoder.encode(csvLine(headings));
  for await (const page of pages) {
    const text = page.flatMap(cells).map(csvLine).join('');
    if (text) yield encoder.encode(text);
  }
}
