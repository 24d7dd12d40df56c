// Correcting what was read (§21 "Review"): PATCH replaces the named fields of `extracted` (a supplier's named
// fields within it) while the document is in review, writes inbound_document.updated with what it was, and finds
// the document's original again by what it now says; a document past review is a 409, a field that is not one of
// `extracted`'s a 422.
import { env } from 'cloudflare:workers';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorPaths, expectError } from '../helpers/api';
import { createUser, type TestUser } from '../helpers/factories';
import { type Supplier, supplierStudio } from './exports';
import { accept, correct, documentOf, eventsOf, invoiceInReview, reject } from './in-review';

let supplier: Supplier;
let me: TestUser;

beforeAll(async () => {
  supplier = await supplierStudio();
  me = await createUser('Receiver');
});

beforeEach(() => {
  vi.restoreAllMocks();
  vi.spyOn(env.INBOUND_QUEUE, 'send').mockResolvedValue(undefined as never);
});

describe('PATCH /v1/inbound-documents/{id}', () => {
  it('replaces the named fields, and within the supplier its named fields, keeping the rest as read', async () => {
    const { document } = await invoiceInReview(me.key, supplier);
    const before = document.extracted;
    const res = await correct(me.key, document.id, { supplier: { name: 'Ada Studio' }, due_date: '2030-01-31', purchase_order: 'PO-9' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.extracted).toEqual({ ...before, supplier: { ...before.supplier, name: 'Ada Studio' }, due_date: '2030-01-31', purchase_order: 'PO-9' });
    expect(res.body).toMatchObject({ status: 'needs_review', validation: document.validation, duplicate_of: null });
    expect(res.body.updated_at > document.updated_at).toBe(true);
    expect(await documentOf(me.key, document.id)).toEqual(res.body);

    const [event] = (await eventsOf(me.key, 'inbound_document.updated')).filter((e) => e.data.object.id === document.id);
    expect(event!.data.object).toEqual(res.body);
    expect(event!.data.previous_attributes).toEqual({ extracted: before });
    expect(event!.actor).toMatchObject({ type: 'user', id: me.id });

    // Lines and tax groups are replaced whole; the accepted expense takes what was corrected.
    const lines = [{ description: 'Design work', quantity: 1, unit_amount: 29_998, amount: 29_998, tax_rate: 13 }];
    const groups = [{ category: 'S', rate: 13, taxable_amount: 29_998, tax_amount: 3_900 }];
    expect((await correct(me.key, document.id, { lines, tax_breakdown: groups })).body.extracted).toMatchObject({ lines, tax_breakdown: groups });
    const booked = await accept(me.key, document.id);
    expect(booked.status).toBe(200);
    expect(booked.body.extracted.supplier.name).toBe('Ada Studio');
  });

  it('makes a document a duplicate, or no longer one, by the supplier and number it now states', async () => {
    const user = await createUser();
    const { invoice: first, document: original } = await invoiceInReview(user.key, supplier);
    const { document: other } = await invoiceInReview(user.key, supplier);
    expect(other.duplicate_of).toBeNull();
    const now = await correct(user.key, other.id, { number: first.number });
    expect(now.body.duplicate_of).toBe(original.id);
    expectError(await accept(user.key, other.id), 409, 'conflict');
    const again = await correct(user.key, other.id, { number: `${first.number}-B` });
    expect(again.body.duplicate_of).toBeNull();
    // The supplier's VAT id is what makes it the same supplier, whatever its name.
    expect((await correct(user.key, other.id, { number: first.number, supplier: { name: 'ADA STUDIO' } })).body.duplicate_of).toBe(original.id);
  });

  it('fills in a document nothing could be read from', async () => {
    const { document } = await invoiceInReview(me.key, supplier);
    await env.DB.prepare('UPDATE inbound_documents SET extracted = NULL, supplier_key = NULL, number = NULL WHERE id = ?').bind(document.id).run();
    const res = await correct(me.key, document.id, { supplier: { name: 'Corner café' }, total: 1_190, subtotal: 1_000, tax: 190, currency: 'EUR', issue_date: '2026-03-02' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.extracted).toEqual({
      kind: 'invoice', supplier: { name: 'Corner café', vat_id: null, tax_id: null, address: null, iban: null }, number: null, issue_date: '2026-03-02',
      due_date: null, currency: 'EUR', subtotal: 1_000, tax: 190, total: 1_190, tax_breakdown: [], lines: [], buyer_reference: null, purchase_order: null,
    });
    expect((await accept(me.key, document.id)).status).toBe(200);
  });

  it('is a 409 once the document is accepted or rejected, and a 422 for what is not a field of extracted', async () => {
    const { document: booked } = await invoiceInReview(me.key, supplier);
    await accept(me.key, booked.id);
    expect(expectError(await correct(me.key, booked.id, { number: 'X' }), 409, 'invalid_state').message).toContain('accepted');
    const { document: turnedAway } = await invoiceInReview(me.key, supplier);
    await reject(me.key, turnedAway.id);
    expectError(await correct(me.key, turnedAway.id, { number: 'X' }), 409, 'invalid_state');

    const { document } = await invoiceInReview(me.key, supplier);
    const cases: [Record<string, unknown>, string][] = [
      [{ total: -1 }, 'extracted.total'],
      [{ total: 12.5 }, 'extracted.total'],
      [{ currency: 'EURO' }, 'extracted.currency'],
      [{ issue_date: '2026-02-30' }, 'extracted.issue_date'],
      [{ kind: 'receipt' }, 'extracted.kind'],
      [{ vendor: 'Ada' }, 'extracted.vendor'],
      [{ supplier: { website: 'ada.example' } }, 'extracted.supplier.website'],
      [{ tax_breakdown: [{ category: 'X', rate: 19, taxable_amount: 1, tax_amount: 0 }] }, 'extracted.tax_breakdown.0.category'],
    ];
    for (const [extracted, path] of cases) {
      const res = await correct(me.key, document.id, extracted);
      expectError(res, 422, 'validation_failed');
      expect(errorPaths(res), JSON.stringify(extracted)).toContain(path);
    }
    expect(await documentOf(me.key, document.id)).toEqual(document);
  });
});
