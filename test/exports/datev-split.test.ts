// §22 DATEV: a period with more bookings than DATEV's import takes in one file (99,999 lines: the header, the headings
// and 99,997 bookings) is answered as a ZIP of EXTF files, one per month, a month with more cut into runs of days and
// a day with more into files of that day; each file within the limit, its header dated by exactly its bookings, and
// all of them together the bookings of the single-file export. The limit is lowered here to 5 lines (3 bookings).
import { unzipSync } from 'fflate';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { datevFileLimit } from '../../src/modules/exports/datev/split';
import { call, open } from '../helpers/api';
import { createClient, createUser, type TestUser } from '../helpers/factories';

const year = new Date().getUTCFullYear() - 1;
const ymd = (date: string) => date.replace(/-/g, '');
const DATEV_LINES = datevFileLimit.lines;

async function answer(key: string, from: string, to: string) {
  const res = await open(`https://workspace.test/v1/exports/datev?from=${from}&to=${to}`, { headers: { Authorization: `Bearer ${key}` } });
  expect(res.status).toBe(200);
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

const cp1252 = (bytes: Uint8Array) => new TextDecoder('windows-1252').decode(bytes);
/** A file's lines, each ended by CR LF. */
function linesOf(text: string): string[] {
  expect(text.endsWith('\r\n')).toBe(true);
  return text.slice(0, -2).split('\r\n');
}
const fields = (line: string) => line.split(';');

let owner: TestUser;

beforeAll(async () => {
  owner = await createUser('Owner');
  const settings = await call('PATCH', '/api/workspace', {
    key: owner.key,
    body: { default_currency: 'EUR', time_zone: 'UTC', accounting: { chart: 'SKR03', consultant_number: 29098, client_number: 55003 } },
  });
  expect(settings.status, JSON.stringify(settings.body)).toBe(200);
  const client = await createClient(owner.key, { name: 'Müller GmbH', company: 'Müller GmbH', currency: 'EUR' });
  // January: an invoice at two rates (two bookings). February: five bookings on three days. 5 March: four.
  const draft = await call('POST', '/v1/invoices', {
    key: owner.key,
    body: {
      client_id: client.id, issue_date: `${year}-01-15`, due_date: `${year}-02-15`,
      line_items: [{ description: 'Design', quantity: 1, unit_amount: 10_000, tax_rate: 19 }, { description: 'Books', quantity: 1, unit_amount: 5_000, tax_rate: 7 }],
    },
  });
  expect((await call('POST', `/v1/invoices/${draft.body.id}/send`, { key: owner.key, body: {} })).status).toBe(200);
  const expenses = [['02-03', 2], ['02-10', 2], ['02-20', 1], ['03-05', 4]] as const;
  for (const [day, count] of expenses) {
    for (let i = 0; i < count; i++) {
      const made = await call('POST', '/api/workflow/expenses', { key: owner.key, body: { category: 'travel', amount: 1_000 + i, currency: 'EUR', vendor: `Bahn ${day}`, incurred_on: `${year}-${day}` } });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
    }
  }
});

afterEach(() => {
  datevFileLimit.lines = DATEV_LINES;
});

describe('GET /v1/exports/datev past DATEV\'s lines a file', () => {
  it('answers a ZIP of EXTF files within the limit, one per month, a month cut by days and a day into files of it', async () => {
    const single = cp1252((await answer(owner.key, `${year}-01-01`, `${year}-12-31`)).bytes);
    const [singleHeader, headings, ...singleBookings] = linesOf(single);
    expect(singleBookings).toHaveLength(11);

    datevFileLimit.lines = 5;
    const { res, bytes } = await answer(owner.key, `${year}-01-01`, `${year}-12-31`);
    expect(res.headers.get('Content-Type')).toBe('application/zip');
    expect(res.headers.get('Content-Disposition')).toBe(`attachment; filename="EXTF_Buchungsstapel_${year}0101_${year}1231.zip"`);
    const files = unzipSync(bytes);
    const names = Object.keys(files);
    // In the order written, which is the order of their names.
    expect(names).toEqual([
      `EXTF_Buchungsstapel_${year}0101_${year}0131_001.csv`,
      `EXTF_Buchungsstapel_${year}0201_${year}0209_002.csv`,
      `EXTF_Buchungsstapel_${year}0210_${year}0228_003.csv`,
      `EXTF_Buchungsstapel_${year}0305_${year}0305_004.csv`,
      `EXTF_Buchungsstapel_${year}0305_${year}0305_005.csv`,
    ]);
    expect([...names].sort()).toEqual(names);
    const checked = await (await fetch('https://unzip.test/', { method: 'POST', body: bytes })).json<{ code: number; output: string }>();
    expect(checked.output).toContain('No errors detected');
    // The answer as the API document describes it.
    expect((await call('GET', `/v1/exports/datev?from=${year}-01-01&to=${year}-12-31`, { key: owner.key })).status).toBe(200);
    const counts: number[] = [];
    const all: string[] = [];
    for (const name of names) {
      const [, from, to] = /_(\d{8})_(\d{8})_\d{3}\.csv$/.exec(name)!;
      const [header, second, ...bookings] = linesOf(cp1252(files[name]!));
      expect(2 + bookings.length).toBeLessThanOrEqual(5);
      expect(second).toBe(headings);
      const h = fields(header!);
      // Datum vom and bis are the file's own; the rest of the header is the single file's (but its label and time).
      expect([h[14], h[15]]).toEqual([from, to]);
      expect(h[16]).toBe(`"Export ${from!.slice(6)}.${from!.slice(4, 6)}.-${to!.slice(6)}.${to!.slice(4, 6)}.${year}"`);
      const s = fields(singleHeader!);
      expect([...h.slice(0, 5), ...h.slice(6, 14), ...h.slice(17)]).toEqual([...s.slice(0, 5), ...s.slice(6, 14), ...s.slice(17)]);
      // Every booking's Belegdatum (DDMM) lies in the file's period.
      for (const line of bookings) {
        const ddmm = fields(line)[9]!;
        const day = `${year}${ddmm.slice(2)}${ddmm.slice(0, 2)}`;
        expect(day >= from! && day <= to!, `${day} in ${from}–${to}`).toBe(true);
      }
      counts.push(bookings.length);
      all.push(...bookings);
    }
    expect(counts).toEqual([2, 2, 3, 3, 1]);
    expect([...all].sort()).toEqual([...singleBookings].sort());
  });

  it('keeps the one file when the bookings fit, to the last line', async () => {
    datevFileLimit.lines = 4; // January's two bookings
    const { res, bytes } = await answer(owner.key, `${year}-01-01`, `${year}-01-31`);
    expect(res.headers.get('Content-Type')).toBe('text/csv; charset=windows-1252');
    expect(res.headers.get('Content-Disposition')).toBe(`attachment; filename="EXTF_Buchungsstapel_${year}0101_${year}0131.csv"`);
    const [header, , ...bookings] = linesOf(cp1252(bytes));
    expect(bookings).toHaveLength(2);
    expect([fields(header!)[14], fields(header!)[15]]).toEqual([ymd(`${year}-01-01`), ymd(`${year}-01-31`)]);
  });

  it('cuts a period not starting on the first of a month at its own bounds', async () => {
    datevFileLimit.lines = 5;
    const { bytes } = await answer(owner.key, `${year}-01-20`, `${year}-02-25`);
    const names = Object.keys(unzipSync(bytes));
    // January 20–31 has no bookings (the invoice is of the 15th): no file.
    expect(names).toEqual([`EXTF_Buchungsstapel_${year}0201_${year}0209_001.csv`, `EXTF_Buchungsstapel_${year}0210_${year}0225_002.csv`]);
  });
});
