// §22 DATEV: GET /v1/exports/datev, read byte by byte as DATEV's import would: Windows-1252, CR LF, the EXTF 700
// header of 31 fields in DATEV's order, the 125 headings of format version 13, and one booking per invoice, credit
// note and expense and tax rate, per payment, per void, with amounts with a decimal comma, DDMM dates, Soll/Haben
// of the account, the chart's accounts and the tax keys where the account does not say the tax itself.
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { COLUMN_HEADINGS } from '../../src/modules/exports/datev/format';
import { call, errorPaths, expectError, open } from '../helpers/api';
import { addMember, createClient, createUser, type TestUser } from '../helpers/factories';
import { putRates } from '../helpers/rates';

const today = new Date().toISOString().slice(0, 10); // the workspace is on UTC, as invoices' default issue date is
const ddmm = `${today.slice(8, 10)}${today.slice(5, 7)}`;
const ymd = today.replace(/-/g, '');

/** The answer as a client gets it (checked against the document); its body read as UTF-8, so only for its status and errors. */
const datev = (key: string, from = today, to = today) => call('GET', `/v1/exports/datev?from=${from}&to=${to}`, { key });

async function bytesOf(key: string, from = today, to = today): Promise<Uint8Array> {
  const res = await open(`https://workspace.test/v1/exports/datev?from=${from}&to=${to}`, { headers: { Authorization: `Bearer ${key}` } });
  expect(res.status).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

/** The file as text, each byte read as its Windows-1252 character. */
const fileOf = async (key: string, from = today, to = today) => new TextDecoder('windows-1252').decode(await bytesOf(key, from, to));

const fields = (line: string) => line.split(';');

let owner: TestUser;
let numbers: Record<string, string>;

beforeAll(async () => {
  await putRates({ EUR: 0.8, USD: 1 });
  owner = await createUser('Owner');
  const settings = await call('PATCH', '/api/workspace', {
    key: owner.key,
    body: {
      default_currency: 'EUR', time_zone: 'UTC',
      issuer: { legal_name: 'Studio GmbH', vat_id: 'DE123456789', address: { line1: 'Torstraße 1', city: 'Berlin', postal_code: '10119', country: 'DE' } },
      accounting: { chart: 'SKR03', consultant_number: 29098, client_number: 55003 },
    },
  });
  expect(settings.status, JSON.stringify(settings.body)).toBe(200);
  const address = (country: string) => ({ line1: 'Street 1', city: 'City', postal_code: '12345', country });
  const muller = await createClient(owner.key, { name: 'Müller GmbH', company: 'Müller GmbH', currency: 'EUR', address: address('DE'), vat_id: 'DE999999999' });
  const dubois = await createClient(owner.key, { name: 'Dubois SARL', company: 'Dubois SARL', currency: 'EUR', address: address('FR'), vat_id: 'FR12345678901' });
  const initrode = await createClient(owner.key, { name: 'Initrode Inc.', company: 'Initrode Inc.', currency: 'USD', address: address('US') });

  const send = async (clientId: string, lines: unknown[]) => {
    const draft = await call('POST', '/v1/invoices', { key: owner.key, body: { client_id: clientId, line_items: lines } });
    expect(draft.status, JSON.stringify(draft.body)).toBe(201);
    const sent = await call('POST', `/v1/invoices/${draft.body.id}/send`, { key: owner.key, body: {} });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    return sent.body;
  };
  // Two rates: two bookings. 100.00 + 19 % and 50.00 + 7 %.
  const twoRates = await send(muller.id, [
    { description: 'Design', quantity: 1, unit_amount: 10_000, tax_category: 'S', tax_rate: 19 },
    { description: 'Books', quantity: 1, unit_amount: 5_000, tax_category: 'S', tax_rate: 7 },
  ]);
  const reverse = await send(dubois.id, [{ description: 'Consulting', quantity: 2, unit_amount: 50_000, tax_category: 'AE', tax_rate: 0 }]);
  const dollars = await send(initrode.id, [{ description: 'Support', quantity: 1, unit_amount: 12_345, tax_category: 'O', tax_rate: 0 }]);
  const voided = await send(muller.id, [{ description: 'Mistake', quantity: 1, unit_amount: 2_000, tax_category: 'S', tax_rate: 19 }]);
  expect((await call('POST', `/v1/invoices/${voided.id}/void`, { key: owner.key, body: {} })).status).toBe(200);
  // A draft is no booking.
  await call('POST', '/v1/invoices', { key: owner.key, body: { client_id: muller.id, line_items: [{ description: 'Draft', quantity: 1, unit_amount: 999 }] } });

  expect((await call('POST', `/v1/invoices/${twoRates.id}/payments`, { key: owner.key, body: { amount: 10_000 } })).status).toBe(200);
  const credit = await call('POST', `/v1/invoices/${twoRates.id}/credit-notes`, {
    key: owner.key, body: { reason: 'other', email: false, lines: [{ description: 'Goodwill', quantity: 1, unit_amount: 1_000, tax_category: 'S', tax_rate: 19 }] },
  });
  expect(credit.status, JSON.stringify(credit.body)).toBe(201);

  const travel = await call('POST', '/api/workflow/expenses', { key: owner.key, body: { category: 'travel', amount: 4_990, vendor: 'Deutsche Bahn', currency: 'EUR' } });
  expect(travel.status, JSON.stringify(travel.body)).toBe(201);
  // An expense from a received document carries its tax groups (§21): 100.00 + 19 % VAT.
  const office = await call('POST', '/api/workflow/expenses', { key: owner.key, body: { category: 'office', amount: 11_900, vendor: 'Paper & Co', currency: 'EUR' } });
  await env.DB.prepare('UPDATE expenses SET net_amount = 10000, tax_amount = 1900, reference = ?, tax_breakdown = ? WHERE id = ?')
    .bind('R-2026/17', JSON.stringify([{ category: 'S', rate: 19, taxable_amount: 10_000, tax_amount: 1_900 }]), office.body.id).run();
  await env.DB_WORKSPACES_2.prepare('UPDATE expenses SET net_amount = 10000, tax_amount = 1900, reference = ?, tax_breakdown = ? WHERE id = ?')
    .bind('R-2026/17', JSON.stringify([{ category: 'S', rate: 19, taxable_amount: 10_000, tax_amount: 1_900 }]), office.body.id).run();

  numbers = { twoRates: twoRates.number, reverse: reverse.number, dollars: dollars.number, voided: voided.number, credit: credit.body.number };
}, 120_000); // a whole set of books through the worker: room beyond the 30 s of a hook on a busy machine

describe('GET /v1/exports/datev', () => {
  it('is a Windows-1252 file with CR LF line ends, named as DATEV\'s import looks for it', async () => {
    const res = await datev(owner.key);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('text/csv; charset=windows-1252');
    expect(res.headers.get('Content-Disposition')).toBe(`attachment; filename="EXTF_Buchungsstapel_${ymd}_${ymd}.csv"`);
    const bytes = await bytesOf(owner.key);
    const text = new TextDecoder('windows-1252').decode(bytes);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    // ü is one byte, 0xFC; no UTF-8 sequence (0xC3 0xBC) anywhere.
    const muller = [...'Müller GmbH'].map((c) => c.charCodeAt(0));
    expect(indexOf(bytes, Uint8Array.from(muller))).toBeGreaterThan(0);
    expect(indexOf(bytes, Uint8Array.from([0xc3, 0xbc]))).toBe(-1);
  });

  it('starts with the EXTF 700 header, its 31 fields in DATEV\'s order, and the 125 headings', async () => {
    const text = await fileOf(owner.key);
    const [header, headings] = text.split('\r\n');
    const h = fields(header!);
    expect(h).toHaveLength(31);
    expect(h[5]).toMatch(/^\d{17}$/); // Erzeugt am, YYYYMMDDHHMMSSmmm
    expect([...h.slice(0, 5), ...h.slice(6)]).toEqual([
      '"EXTF"', '700', '21', '"Buchungsstapel"', '13', '', '"RE"', '""', '""', '29098', '55003', `${today.slice(0, 4)}0101`, '4', ymd, ymd,
      `"Export ${today.slice(8, 10)}.${today.slice(5, 7)}.-${today.slice(8, 10)}.${today.slice(5, 7)}.${today.slice(0, 4)}"`,
      '""', '1', '0', '0', '"EUR"', '', '""', '', '', '"03"', '', '', '""', '""',
    ]);
    expect(headings).toBe(COLUMN_HEADINGS);
    expect(fields(headings!)).toHaveLength(125);
    expect(fields(headings!).slice(0, 14)).toEqual([
      'Umsatz (ohne Soll/Haben-Kz)', 'Soll/Haben-Kennzeichen', 'WKZ Umsatz', 'Kurs', 'Basis-Umsatz', 'WKZ Basis-Umsatz', 'Konto',
      'Gegenkonto (ohne BU-Schlüssel)', 'BU-Schlüssel', 'Belegdatum', 'Belegfeld 1', 'Belegfeld 2', 'Skonto', 'Buchungstext',
    ]);
    expect(fields(headings!)[39]).toBe('EU-Land u. UStID (Bestimmung)');
  });

  it('books each document by tax rate, each payment, the void\'s reversal and each expense, on SKR03\'s accounts', async () => {
    const text = await fileOf(owner.key);
    const rows = text.split('\r\n').slice(2, -1).map(fields);
    for (const row of rows) expect(row).toHaveLength(125);
    const first14 = rows.map((r) => r.slice(0, 14).join(';'));
    const { twoRates, reverse, dollars, voided, credit } = numbers;
    // In any order: DATEV books them by their dates.
    expect([...first14].sort()).toEqual([
      // The two-rate invoice: receivable 1410 to the automatic revenue accounts 8400 (19 %) and 8300 (7 %), gross, no key.
      `119,00;"S";"EUR";;;;1410;8400;;${ddmm};"${twoRates}";;;"${twoRates} Müller GmbH"`,
      `53,50;"S";"EUR";;;;1410;8300;;${ddmm};"${twoRates}";;;"${twoRates} Müller GmbH"`,
      // Reverse charge to another EU country: 8336.
      `1000,00;"S";"EUR";;;;1410;8336;;${ddmm};"${reverse}";;;"${reverse} Dubois SARL"`,
      // In USD: the amount in EUR beside it, at 0.80 EUR per USD (DATEV's Kurs: 1,25 USD per EUR).
      `123,45;"S";"USD";1,250000;98,76;"EUR";1410;8338;;${ddmm};"${dollars}";;;"${dollars} Initrode Inc."`,
      `23,80;"S";"EUR";;;;1410;8400;;${ddmm};"${voided}";;;"${voided} Müller GmbH"`,
      // The void reverses it, on the day it was voided.
      `23,80;"H";"EUR";;;;1410;8400;;${ddmm};"${voided}";;;"Storno ${voided} Müller GmbH"`,
      // The credit note: Haben on the receivable, its invoice in Belegfeld 2.
      `11,90;"H";"EUR";;;;1410;8400;;${ddmm};"${credit}";"${twoRates}";;"Gutschrift ${credit} Müller GmbH"`,
      // The payment clears the invoice's open item: bank 1200 against the receivable, under the invoice's number.
      `100,00;"S";"EUR";;;;1200;1410;;${ddmm};"${twoRates}";;;"Zahlung ${twoRates} Müller GmbH"`,
      // An expense typed in by hand has no input tax; one from a received document has its key (9: VSt 19 %).
      `49,90;"S";"EUR";;;;4670;1200;;${ddmm};"";;;"Deutsche Bahn"`,
      `119,00;"S";"EUR";;;;4930;1200;"9";${ddmm};"R-2026/17";;;"Paper & Co"`,
    ].sort());
    // The buyer's VAT id goes with the supply to another EU country (field 40), for the EC sales list.
    const euRow = rows.find((r) => r[10] === `"${reverse}"`)!;
    expect(euRow[39]).toBe('"FR12345678901"');
    expect(rows.filter((r) => r[39] !== '')).toHaveLength(1);
  });

  it('names the tax key where the account does not say the tax: 3 for 19 %, 2 for 7 % on a plain revenue account', async () => {
    const user = await createUser();
    await call('PATCH', '/api/workspace', {
      key: user.key,
      body: { default_currency: 'EUR', time_zone: 'UTC', accounting: { chart: 'SKR04', consultant_number: 1001, client_number: 1, revenue_accounts: { standard: '4200', reduced: '4200' }, bank_account: '1810' } },
    });
    const client = await createClient(user.key, { currency: 'EUR' });
    const draft = await call('POST', '/v1/invoices', {
      key: user.key,
      body: { client_id: client.id, line_items: [{ description: 'A', quantity: 1, unit_amount: 10_000, tax_rate: 19 }, { description: 'B', quantity: 1, unit_amount: 10_000, tax_rate: 7 }] },
    });
    await call('POST', `/v1/invoices/${draft.body.id}/send`, { key: user.key, body: {} });
    await call('POST', `/v1/invoices/${draft.body.id}/payments`, { key: user.key, body: { amount: 5_000 } });
    const text = await fileOf(user.key);
    const [header, , ...rows] = text.split('\r\n');
    expect(fields(header!)[26]).toBe('"04"');
    expect(rows.slice(0, -1).map((r) => fields(r).slice(0, 9).join(';'))).toEqual([
      '119,00;"S";"EUR";;;;1210;4200;"3"',
      '107,00;"S";"EUR";;;;1210;4200;"2"',
      '50,00;"S";"EUR";;;;1810;1210;',
    ]);
  });

  it('is only the header and headings for a period without records', async () => {
    const text = await fileOf(owner.key, '2020-01-01', '2020-12-31');
    expect(text.split('\r\n')).toHaveLength(3);
  });

  it('asks for the consultant and client numbers first, naming both', async () => {
    const user = await createUser();
    let res = await datev(user.key);
    expectError(res, 422, 'validation_failed');
    expect(errorPaths(res)).toEqual(['accounting.consultant_number', 'accounting.client_number']);
    await call('PATCH', '/api/workspace', { key: user.key, body: { accounting: { chart: 'SKR03', client_number: 7 } } });
    res = await datev(user.key);
    expect(errorPaths(res)).toEqual(['accounting.consultant_number']);
  });

  it('refuses a period DATEV cannot take in one batch, naming `to`, and a malformed one', async () => {
    const year = Number(today.slice(0, 4));
    expect(errorPaths(await datev(owner.key, `${year}-12-01`, `${year + 1}-01-31`))).toEqual(['to']);
    expect(errorPaths(await datev(owner.key, `${year}-02-01`, `${year}-01-31`))).toEqual(['from']);
    expect(errorPaths(await datev(owner.key, `${year}-02-30`, `${year}-03-01`))).toEqual(['from']);
    expectError(await datev(owner.key, `${year}-01-01`, ''), 422, 'validation_failed');
    // With a fiscal year from July, a batch may not run past June.
    const user = await createUser();
    await call('PATCH', '/api/workspace', { key: user.key, body: { accounting: { chart: 'SKR03', consultant_number: 1001, client_number: 1, fiscal_year_start: '07-01' } } });
    expect(errorPaths(await datev(user.key, `${year}-06-01`, `${year}-07-01`))).toEqual(['to']);
    const fine = await datev(user.key, `${year}-07-01`, `${year}-12-31`);
    expect(fine.status).toBe(200);
    expect(fields((await fileOf(user.key, `${year}-07-01`, `${year}-12-31`)).split('\r\n')[0]!)[12]).toBe(`${year}0701`);
  });

  it('is for admins: a member and a viewer get 403', async () => {
    const member = await addMember(owner.key, 'member');
    const viewer = await addMember(owner.key, 'viewer');
    expectError(await datev(member.key), 403, 'forbidden');
    expectError(await datev(viewer.key), 403, 'forbidden');
    const admin = await addMember(owner.key, 'admin');
    expect((await datev(admin.key)).status).toBe(200);
  });
});

describe('GET /v1/exports/datev in another currency', () => {
  it('converts each booking at the rate kept for its date, as the reports do', async () => {
    // A day's rates kept (§22): 0.90 EUR per USD today, where the current snapshot says 0.80.
    for (const db of [env.DB, env.DB_WORKSPACES_2]) {
      await db.prepare("INSERT INTO exchange_rates (currency, day, rate, as_of) VALUES ('EUR', ?1, 0.9, ?2) ON CONFLICT DO UPDATE SET rate = 0.9").bind(today, new Date().toISOString()).run();
    }
    const rows = (await fileOf(owner.key)).split('\r\n').slice(2, -1).map(fields);
    const dollars = rows.find((r) => r[10] === `"${numbers.dollars}"`)!;
    // 123.45 USD at 0.9 = 111.105 EUR, half away from zero: 111.11; DATEV's Kurs: 1.111111 USD per EUR.
    expect(dollars.slice(0, 6)).toEqual(['123,45', '"S"', '"USD"', '1,111111', '111,11', '"EUR"']);
  });
});

function indexOf(haystack: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}
