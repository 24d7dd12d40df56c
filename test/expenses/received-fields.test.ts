// §21 adds to the expense what an accepted received document carries over: supplier, reference, net_amount,
// tax_amount, tax_breakdown, due_date and document_id. They are null on an expense typed in, and no request sets
// them (an expense typed in has no input tax); on an expense from a document, its amount and currency are the
// document's and stay so (409), while what it is for may still change.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { call, expectError } from '../helpers/api';
import { createUser } from '../helpers/factories';

const RECEIVED = { supplier: null, reference: null, net_amount: null, tax_amount: null, tax_breakdown: null, due_date: null, document_id: null };

describe('an expense\'s received-document fields', () => {
  it('are null on an expense typed in, and not a field a request may send', async () => {
    const user = await createUser();
    const created = await call('POST', '/api/workflow/expenses', { key: user.key, body: { category: 'software', amount: 1_500 } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject(RECEIVED);
    expect((await call('GET', `/api/workflow/expenses/${created.body.id}`, { key: user.key })).body).toMatchObject(RECEIVED);
    for (const field of ['tax_amount', 'document_id', 'supplier']) {
      const res = await call('POST', '/api/workflow/expenses', { key: user.key, body: { category: 'software', amount: 1_500, [field]: null } });
      expectError(res, 422, 'validation_failed');
      const patch = await call('PATCH', `/api/workflow/expenses/${created.body.id}`, { key: user.key, body: { [field]: null } });
      expectError(patch, 422, 'validation_failed');
    }
  });

  it('keep an expense from a document at its total and currency, and let the rest change', async () => {
    const user = await createUser();
    const created = (await call('POST', '/api/workflow/expenses', { key: user.key, body: { category: 'software', amount: 11_900, currency: 'USD', incurred_on: '2026-03-02' } })).body;
    // As accepting an inbound document writes it (test/inbound-documents/accept.test.ts goes through the API).
    const supplier = { name: 'Cloud GmbH', vat_id: 'DE123456789', tax_id: null, address: 'Hauptstraße 1, 10115 Berlin', iban: null };
    const breakdown = [{ category: 'S', rate: 19, taxable_amount: 10_000, tax_amount: 1_900 }];
    await env.DB.prepare('UPDATE expenses SET supplier = ?, reference = ?, net_amount = 10000, tax_amount = 1900, tax_breakdown = ?, due_date = ?, document_id = ? WHERE id = ?')
      .bind(JSON.stringify(supplier), 'R-2026-17', JSON.stringify(breakdown), '2026-04-01', 'ind_01JD5ZQ5X8Y4V1N2K3M4P5Q6R7', created.id).run();
    const read = (await call('GET', `/api/workflow/expenses/${created.id}`, { key: user.key })).body;
    expect(read).toMatchObject({
      amount: 11_900, supplier, reference: 'R-2026-17', net_amount: 10_000, tax_amount: 1_900, tax_breakdown: breakdown, due_date: '2026-04-01',
      document_id: 'ind_01JD5ZQ5X8Y4V1N2K3M4P5Q6R7',
    });

    for (const body of [{ amount: 12_000 }, { currency: 'EUR' }]) {
      const res = await call('PATCH', `/api/workflow/expenses/${created.id}`, { key: user.key, body });
      expectError(res, 409, 'invalid_state');
      expect(res.body.error.message).toContain('ind_01JD5ZQ5X8Y4V1N2K3M4P5Q6R7');
    }
    // The same amount and currency again are no change.
    const kept = await call('PATCH', `/api/workflow/expenses/${created.id}`, { key: user.key, body: { amount: 11_900, currency: 'USD', category: 'hardware', billable: true } });
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ amount: 11_900, category: 'hardware', billable: true, tax_amount: 1_900, supplier });
  });
});
