// §20 "Tax defaults" through the worker: once the workspace has a default_tax_rate, a line that names
// neither tax_rate nor tax_category takes its client's tax treatment (each `auto` branch, each explicit
// treatment), on invoices, draft edits, quotes, recurring templates and the invoices they issue, from-time
// and its expense lines; lines naming their tax keep it; null keeps §15's defaults; e-invoice/check warns
// about lines off the treatment.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { issueDueInvoices } from '../../src/modules/recurring-invoices/issue';
import { call, errorPaths, expectError } from '../helpers/api';
import { createClient, createProject, createUser } from '../helpers/factories';

const untaxed = { description: 'Design work', quantity: 2, unit: 'HUR', unit_amount: 10_000 };
const address = (country: string) => ({ line1: 'Street 1', city: 'City', postal_code: '12345', country });

/** A German workspace billing at 19 % by default, selling `supply_type`. */
async function germanStudio(more: Record<string, unknown> = {}) {
  const user = await createUser();
  const res = await call('PATCH', '/api/workspace', {
    key: user.key,
    body: { default_tax_rate: 19, issuer: { legal_name: 'Studio GmbH', vat_id: 'DE123456789', address: address('DE') }, ...more },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return user;
}

async function taxOfLine(key: string, client: Record<string, unknown>, line: Record<string, unknown> = untaxed) {
  const { id } = await createClient(key, client);
  const res = await call('POST', '/v1/invoices', { key, body: { client_id: id, line_items: [line] } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const [{ tax_category, tax_rate, tax }] = res.body.line_items;
  return { tax_category, tax_rate, tax, exemption_reason: res.body.tax_breakdown[0].exemption_reason };
}

describe('the client\'s tax treatment', () => {
  it('auto: S at home and for an EU client without a VAT id, AE in the EU with one, O outside the EU (services)', async () => {
    const user = await germanStudio();
    const settings = (await call('GET', '/api/workspace', { key: user.key })).body;
    expect(settings).toMatchObject({ default_tax_rate: 19, supply_type: 'services' });

    expect(await taxOfLine(user.key, { address: address('DE'), vat_id: 'DE999999999' })).toEqual({ tax_category: 'S', tax_rate: 19, tax: 3_800, exemption_reason: null });
    expect(await taxOfLine(user.key, { address: address('FR'), vat_id: 'FR12345678901' })).toEqual({ tax_category: 'AE', tax_rate: 0, tax: 0, exemption_reason: 'Reverse charge' });
    expect(await taxOfLine(user.key, { address: address('FR') })).toMatchObject({ tax_category: 'S', tax_rate: 19 });
    expect(await taxOfLine(user.key, { address: address('US'), tax_id: '12-3456789' })).toEqual({ tax_category: 'O', tax_rate: 0, tax: 0, exemption_reason: 'Not subject to VAT' });
    // A client with no country is billed as a domestic one.
    expect(await taxOfLine(user.key, {})).toMatchObject({ tax_category: 'S', tax_rate: 19 });
    const client = (await call('POST', '/api/workflow/clients', { key: user.key, body: { name: 'X' } })).body;
    expect(client.tax_treatment).toBe('auto');
  });

  it('auto for goods: K in the EU with a VAT id, G outside the EU', async () => {
    const user = await germanStudio({ supply_type: 'goods' });
    expect(await taxOfLine(user.key, { address: address('AT'), vat_id: 'ATU12345678' })).toEqual({ tax_category: 'K', tax_rate: 0, tax: 0, exemption_reason: 'Intra-community supply' });
    expect(await taxOfLine(user.key, { address: address('CH') })).toEqual({ tax_category: 'G', tax_rate: 0, tax: 0, exemption_reason: 'Export outside the EU' });
    expect(await taxOfLine(user.key, { address: address('AT') })).toMatchObject({ tax_category: 'S', tax_rate: 19 });
    expect(await taxOfLine(user.key, { address: address('DE') })).toMatchObject({ tax_category: 'S', tax_rate: 19 });
  });

  it('takes an explicit treatment whatever the client\'s country, and keeps the tax a line names', async () => {
    const user = await germanStudio();
    const french = { address: address('FR'), vat_id: 'FR12345678901' };
    expect(await taxOfLine(user.key, { ...french, tax_treatment: 'standard' })).toMatchObject({ tax_category: 'S', tax_rate: 19 });
    expect(await taxOfLine(user.key, { address: address('DE'), tax_treatment: 'reverse_charge' })).toMatchObject({ tax_category: 'AE', tax_rate: 0 });
    expect(await taxOfLine(user.key, { ...french, tax_treatment: 'intra_community' })).toMatchObject({ tax_category: 'K' });
    expect(await taxOfLine(user.key, { ...french, tax_treatment: 'export' })).toMatchObject({ tax_category: 'O' });
    expect(await taxOfLine(user.key, { ...french, tax_treatment: 'not_subject' })).toMatchObject({ tax_category: 'O' });
    // Exempt has no default reason (§15): without one it is a 422, with one it is E.
    const exempt = await createClient(user.key, { ...french, tax_treatment: 'exempt' });
    const refused = await call('POST', '/v1/invoices', { key: user.key, body: { client_id: exempt.id, line_items: [untaxed] } });
    expect(errorPaths(refused)).toEqual(['tax_exemption_reason']);
    const given = await call('POST', '/v1/invoices', { key: user.key, body: { client_id: exempt.id, line_items: [untaxed], tax_exemption_reason: 'Medical care' } });
    expect(given.body.line_items[0]).toMatchObject({ tax_category: 'E', tax_rate: 0 });
    expect(given.body.tax_breakdown).toMatchObject([{ category: 'E', exemption_reason: 'Medical care' }]);

    // Lines that name a rate or a category keep them; the one that names nothing takes the treatment.
    const domestic = await createClient(user.key, { address: address('DE') });
    const mixed = await call('POST', '/v1/invoices', {
      key: user.key,
      body: { client_id: domestic.id, line_items: [{ ...untaxed, tax_rate: 7 }, { ...untaxed, tax_category: 'Z' }, { ...untaxed, tax_rate: 0 }, untaxed] },
    });
    expect(mixed.status, JSON.stringify(mixed.body)).toBe(201);
    expect(mixed.body.line_items.map((l: { tax_category: string; tax_rate: number }) => [l.tax_category, l.tax_rate])).toEqual([['S', 7], ['Z', 0], ['Z', 0], ['S', 19]]);
  });

  it('exported goods are G', async () => {
    const user = await germanStudio({ supply_type: 'goods' });
    expect(await taxOfLine(user.key, { address: address('FR'), tax_treatment: 'export' })).toMatchObject({ tax_category: 'G' });
  });

  it('leaves today\'s defaults alone while default_tax_rate is null', async () => {
    const user = await createUser();
    await call('PATCH', '/api/workspace', { key: user.key, body: { issuer: { legal_name: 'Studio', address: address('DE') } } });
    // No VAT id on the issuer: rate 0 is O; a client's treatment does nothing without a default rate.
    expect(await taxOfLine(user.key, { address: address('FR'), vat_id: 'FR12345678901', tax_treatment: 'reverse_charge' })).toMatchObject({ tax_category: 'O', tax_rate: 0 });
    const cleared = await germanStudio();
    expect((await call('PATCH', '/api/workspace', { key: cleared.key, body: { default_tax_rate: null } })).body.default_tax_rate).toBeNull();
    expect(await taxOfLine(cleared.key, { address: address('DE') })).toMatchObject({ tax_category: 'Z', tax_rate: 0, tax: 0 });
  });

  it('refuses a rate out of range, a supply type or a treatment it does not know, naming the field', async () => {
    const user = await createUser();
    for (const [body, path] of [
      [{ default_tax_rate: 0 }, 'default_tax_rate'], [{ default_tax_rate: 100.5 }, 'default_tax_rate'], [{ default_tax_rate: 8.1234 }, 'default_tax_rate'],
      [{ default_tax_rate: '19' }, 'default_tax_rate'], [{ supply_type: 'both' }, 'supply_type'],
    ] as const) {
      const res = await call('PATCH', '/api/workspace', { key: user.key, body });
      expectError(res, 422, 'validation_failed');
      expect(errorPaths(res)).toEqual([path]);
    }
    const bad = await call('POST', '/api/workflow/clients', { key: user.key, body: { name: 'X', tax_treatment: 'reverse' } });
    expectError(bad, 422, 'validation_failed');
    expect(errorPaths(bad)).toEqual(['tax_treatment']);
    const client = await createClient(user.key);
    expect(errorPaths(await call('PATCH', `/api/workflow/clients/${client.id}`, { key: user.key, body: { tax_treatment: null } }))).toEqual(['tax_treatment']);
    expect((await call('PATCH', `/api/workflow/clients/${client.id}`, { key: user.key, body: { tax_treatment: 'export' } })).body.tax_treatment).toBe('export');
  });
});

describe('everywhere lines are made', () => {
  it('a draft\'s new lines take the treatment of the client it bills (after a move too); kept lines keep theirs', async () => {
    const user = await germanStudio();
    const domestic = await createClient(user.key, { address: address('DE') });
    const french = await createClient(user.key, { address: address('FR'), vat_id: 'FR12345678901' });
    const draft = (await call('POST', '/v1/invoices', { key: user.key, body: { client_id: domestic.id, line_items: [untaxed] } })).body;
    expect(draft.line_items[0]).toMatchObject({ tax_category: 'S', tax_rate: 19 });
    const moved = await call('PATCH', `/v1/invoices/${draft.id}`, { key: user.key, body: { client_id: french.id } });
    expect(moved.body.line_items[0]).toMatchObject({ tax_category: 'S', tax_rate: 19 });
    const relined = await call('PATCH', `/v1/invoices/${draft.id}`, { key: user.key, body: { line_items: [untaxed] } });
    expect(relined.body.line_items[0]).toMatchObject({ tax_category: 'AE', tax_rate: 0 });
  });

  it('quotes, recurring templates and the invoices they issue', async () => {
    const user = await germanStudio();
    const french = await createClient(user.key, { address: address('FR'), vat_id: 'FR12345678901' });
    const quote = await call('POST', '/v1/quotes', { key: user.key, body: { client_id: french.id, line_items: [untaxed] } });
    expect(quote.status, JSON.stringify(quote.body)).toBe(201);
    expect(quote.body.line_items[0]).toMatchObject({ tax_category: 'AE', tax_rate: 0 });
    expect(quote.body.tax_breakdown).toMatchObject([{ category: 'AE', exemption_reason: 'Reverse charge' }]);
    const domestic = await createClient(user.key, { address: address('DE') });
    const requoted = await call('PATCH', `/v1/quotes/${quote.body.id}`, { key: user.key, body: { client_id: domestic.id, line_items: [untaxed] } });
    expect(requoted.body.line_items[0]).toMatchObject({ tax_category: 'S', tax_rate: 19 });

    const today = new Date().toISOString().slice(0, 10);
    const recurring = await call('POST', '/v1/recurring-invoices', { key: user.key, body: { client_id: domestic.id, interval: 'month', start_date: today, line_items: [untaxed] } });
    expect(recurring.status, JSON.stringify(recurring.body)).toBe(201);
    expect(recurring.body.line_items[0]).toMatchObject({ tax_category: 'S', tax_rate: 19, tax: 3_800 });
    expect(recurring.body.total).toBe(23_800);
    await issueDueInvoices(env);
    const [issued] = (await call('GET', `/v1/invoices?recurring_invoice_id=${recurring.body.id}`, { key: user.key })).body.data;
    expect(issued).toMatchObject({ total: 23_800 });
    const invoice = (await call('GET', `/v1/invoices/${issued.id}`, { key: user.key })).body;
    expect(invoice.line_items[0]).toMatchObject({ tax_category: 'S', tax_rate: 19, tax: 3_800 });
  });

  it('from-time: its lines and expense lines take the treatment, or the tax the request names for all of them', async () => {
    const user = await germanStudio();
    const client = await createClient(user.key, { address: address('FR'), vat_id: 'FR12345678901', currency: 'EUR' });
    const project = await createProject(user.key, { client_id: client.id, hourly_rate: 10_000, currency: 'EUR' });
    for (const spent_date of ['2026-10-01', '2026-10-02']) {
      expect((await call('POST', '/v1/time-entries', { key: user.key, body: { project_id: project.id, duration_seconds: 3_600, spent_date, task: spent_date } })).status).toBe(201);
    }
    expect((await call('POST', '/api/workflow/expenses', { key: user.key, body: { project_id: project.id, category: 'travel', amount: 5_000, billable: true, incurred_on: '2026-10-01' } })).status).toBe(201);
    // Each draft is deleted after, which gives its time and expense back for the next.
    const bill = (body: Record<string, unknown> = {}) => call('POST', '/v1/invoices/from-time', { key: user.key, body: { client_id: client.id, group_by: 'task', ...body } });
    const byTreatment = await bill();
    expect(byTreatment.status, JSON.stringify(byTreatment.body)).toBe(201);
    expect(byTreatment.body.line_items.map((l: { tax_category: string }) => l.tax_category)).toEqual(['AE', 'AE', 'AE']);
    await call('DELETE', `/v1/invoices/${byTreatment.body.id}`, { key: user.key });

    const named = await bill({ tax_rate: 7 });
    expect(named.status, JSON.stringify(named.body)).toBe(201);
    expect(named.body.line_items.map((l: { tax_category: string; tax_rate: number }) => [l.tax_category, l.tax_rate])).toEqual([['S', 7], ['S', 7], ['S', 7]]);
    await call('DELETE', `/v1/invoices/${named.body.id}`, { key: user.key });

    const zero = await bill({ tax_category: 'Z' });
    expect(zero.body.line_items.map((l: { tax_category: string }) => l.tax_category)).toEqual(['Z', 'Z', 'Z']);
    await call('DELETE', `/v1/invoices/${zero.body.id}`, { key: user.key });

    for (const [body, path] of [[{ tax_category: 'S' }, 'tax_rate'], [{ tax_category: 'AE', tax_rate: 19 }, 'tax_rate'], [{ tax_rate: 101 }, 'tax_rate'], [{ tax_category: 'X' }, 'tax_category']] as const) {
      const res = await call('POST', '/v1/invoices/from-time', { key: user.key, body: { client_id: client.id, ...body } });
      expectError(res, 422, 'validation_failed');
      expect(errorPaths(res)).toEqual([path]);
    }
  });
});

describe('e-invoice/check warnings', () => {
  it('names each line whose tax differs from the client\'s treatment, and none while nothing is set', async () => {
    const user = await germanStudio();
    const check = async (clientBody: Record<string, unknown>, lines: Record<string, unknown>[]) => {
      const client = await createClient(user.key, clientBody);
      const invoice = (await call('POST', '/v1/invoices', { key: user.key, body: { client_id: client.id, line_items: lines } })).body;
      const res = await call('GET', `/v1/invoices/${invoice.id}/e-invoice/check`, { key: user.key });
      expect(res.status).toBe(200);
      return res.body.warnings as { path: string; message: string }[];
    };
    const domestic = await check({ address: address('DE') }, [untaxed, { ...untaxed, tax_category: 'Z' }, { ...untaxed, tax_rate: 7 }]);
    expect(domestic.map((w) => w.path)).toEqual(['line_items.1.tax_category']);
    expect(domestic[0]!.message).toMatch(/Category Z, but a client in the issuer's country \(DE\) gives S/);
    const eu = await check({ address: address('FR'), vat_id: 'FR12345678901' }, [untaxed, { ...untaxed, tax_rate: 19 }]);
    expect(eu).toEqual([{ path: 'line_items.1.tax_category', message: expect.stringMatching(/Category S, but a client with a VAT id in another EU country \(FR\) for services gives AE/) }]);
    expect(await check({ address: address('FR'), vat_id: 'FR12345678901' }, [untaxed])).toEqual([]);

    const plain = await createUser();
    const client = await createClient(plain.key, { address: address('DE') });
    const invoice = (await call('POST', '/v1/invoices', { key: plain.key, body: { client_id: client.id, line_items: [{ ...untaxed, tax_category: 'Z' }] } })).body;
    expect((await call('GET', `/v1/invoices/${invoice.id}/e-invoice/check`, { key: plain.key })).body.warnings).toEqual([]);
  });
});
