// Accepting a received document (§21 "Review"): an expense with what the document states (amount = its total, its
// currency, incurred on its issue date, the supplier, reference, net, tax, tax groups and due date), in one batch
// with the document's change and both events; counted in the dashboard and the project's totals net of its input
// tax. A second accept, a duplicate, a credit note and a document whose amounts are missing or do not add up are
// refused, and of two accepts at once exactly one books the expense.
import { env } from 'cloudflare:workers';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { call, errorPaths, expectError } from '../helpers/api';
import { createProject, createUser, type TestUser } from '../helpers/factories';
import { putRates } from '../helpers/rates';
import { exportedXml, sentInvoice, SUPPLIER_ISSUER, type Supplier, supplierStudio } from './exports';
import { accept, correct, documentOf, eventsOf, invoiceInReview, readDocument, reject } from './in-review';

let supplier: Supplier;

beforeAll(async () => {
  await putRates({ EUR: 0.8 });
  supplier = await supplierStudio();
});

beforeEach(() => {
  vi.restoreAllMocks();
  vi.spyOn(env.INBOUND_QUEUE, 'send').mockResolvedValue(undefined as never);
});

const expensesOf = async (key: string) => (await call('GET', '/api/workflow/expenses?limit=100', { key })).body.data as Record<string, unknown>[];

describe('accepting a document', () => {
  let me: TestUser;
  beforeAll(async () => {
    me = await createUser('Receiver');
  });

  it('books an expense with what the document states, to the cent, with both events in its batch', async () => {
    const project = await createProject(me.key, { currency: 'EUR' });
    const { invoice, document } = await invoiceInReview(me.key, supplier);
    // 1.5 h at 99.99 €: 149.985 → 149.99 €, at 19 % and at 7 %.
    expect([invoice.subtotal, invoice.tax, invoice.total]).toEqual([29_998, 2_850 + 1_050, 33_898]);

    const res = await accept(me.key, document.id, { project_id: project.id, category: 'contractors', billable: true, description: 'Design work for the relaunch' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: document.id, status: 'accepted', extracted: document.extracted, duplicate_of: null });
    expect(res.body.expense_id).toMatch(/^exp_/);
    expect(await documentOf(me.key, document.id)).toEqual(res.body);

    const expense = (await call('GET', `/api/workflow/expenses/${res.body.expense_id}`, { key: me.key })).body;
    expect(expense).toMatchObject({
      scope: 'project', project_id: project.id, category: 'contractors', billable: true, description: 'Design work for the relaunch',
      vendor: 'Ada Studio GmbH', amount: 33_898, currency: 'EUR', incurred_on: document.extracted.issue_date,
      net_amount: 29_998, tax_amount: 3_900, reference: invoice.number, due_date: document.extracted.due_date, document_id: document.id,
      supplier: document.extracted.supplier,
    });
    expect(expense.supplier).toMatchObject({ name: 'Ada Studio GmbH', vat_id: SUPPLIER_ISSUER.vat_id });
    expect([...expense.tax_breakdown].sort((a: { rate: number }, b: { rate: number }) => a.rate - b.rate)).toEqual([
      { category: 'S', rate: 7, taxable_amount: 14_999, tax_amount: 1_050 },
      { category: 'S', rate: 19, taxable_amount: 14_999, tax_amount: 2_850 },
    ]);

    const [acceptedEvent] = await eventsOf(me.key, 'inbound_document.accepted');
    expect(acceptedEvent!.data.object).toEqual(res.body);
    const [createdEvent] = await eventsOf(me.key, 'expense.created');
    expect(createdEvent!.data.object).toEqual(expense);

    // The project counts it net of its input tax: 338.98 € → $423.725 → 42373 cents, of which 39 € → $48.75.
    const totals = (await call('GET', `/v1/projects/${project.id}`, { key: me.key })).body.totals;
    expect(totals).toMatchObject({ expenses: 42_373, input_tax: 4_875, profit: -(42_373 - 4_875) });
    const dashboard = (await call('GET', `/api/workflow/dashboard?from=${expense.incurred_on}&to=${expense.incurred_on}`, { key: me.key })).body.totals;
    expect(dashboard).toMatchObject({ expenses: 42_373, input_tax: 4_875, profit: -37_498 });
  });

  it('is 409 the second time, and for a document not in review', async () => {
    const { document } = await invoiceInReview(me.key, supplier);
    expect((await accept(me.key, document.id)).status).toBe(200);
    const again = await accept(me.key, document.id);
    expect(expectError(again, 409, 'invalid_state').message).toContain('already accepted');
    const rejected = (await invoiceInReview(me.key, supplier)).document;
    expect((await reject(me.key, rejected.id)).status).toBe(200);
    expect(expectError(await accept(me.key, rejected.id), 409, 'invalid_state').message).toContain('rejected');
    expect((await expensesOf(me.key)).filter((e) => e.document_id === document.id || e.document_id === rejected.id)).toHaveLength(1);
  });

  it('books one expense when two accepts arrive at once: the other is a 409', async () => {
    const user = await createUser();
    const { document } = await invoiceInReview(user.key, supplier);
    const answers = await Promise.all([accept(user.key, document.id, { category: 'software' }), accept(user.key, document.id, { category: 'hardware' })]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const winner = answers.find((a) => a.status === 200)!.body;
    expect(expectError(answers.find((a) => a.status === 409)!, 409, 'invalid_state').message).toContain(winner.expense_id);
    const booked = (await expensesOf(user.key)).filter((e) => e.document_id === document.id);
    expect(booked.map((e) => e.id)).toEqual([winner.expense_id]);
    expect(await eventsOf(user.key, 'expense.created')).toHaveLength(1);
    expect(await eventsOf(user.key, 'inbound_document.accepted')).toHaveLength(1);
  });

  it('refuses a duplicate with a 409 naming the first, until the first is rejected', async () => {
    const user = await createUser();
    const { xml, document: first } = await invoiceInReview(user.key, supplier, { format: 'ubl' });
    const copy = await readDocument(user.key, xml, 'the-same-again.xml');
    expect(copy.duplicate_of).toBe(first.id);
    const refused = await accept(user.key, copy.id);
    const error = expectError(refused, 409, 'conflict');
    expect(error.message).toContain(first.id);
    expect(error.details).toEqual([{ path: 'duplicate_of', message: first.id }]);
    // The first one booked, the copy stays refused.
    expect((await accept(user.key, first.id)).status).toBe(200);
    expectError(await accept(user.key, copy.id), 409, 'conflict');
    expect((await expensesOf(user.key)).filter((e) => e.document_id === copy.id)).toEqual([]);
  });

  it('books a duplicate whose first was rejected (it was never booked)', async () => {
    const user = await createUser();
    const { xml, document: first } = await invoiceInReview(user.key, supplier);
    const copy = await readDocument(user.key, xml, 'resent.xml');
    expect(copy.duplicate_of).toBe(first.id);
    expect((await reject(user.key, first.id, 'Unreadable scan, the supplier sent it again')).status).toBe(200);
    const res = await accept(user.key, copy.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.duplicate_of).toBe(first.id);
  });

  it('does not book a credit note: an expense is never negative, so it says how to lower the expense it corrects', async () => {
    const user = await createUser();
    const invoice = await sentInvoice(supplier);
    const note = await call('POST', `/v1/invoices/${invoice.id}/credit-notes`, { key: supplier.owner.key, body: { reason: 'other', email: false } });
    expect(note.status, JSON.stringify(note.body)).toBe(201);
    const xml = (await call('GET', `/v1/credit-notes/${note.body.id}/e-invoice?format=ubl`, { key: supplier.owner.key })).body as string;
    const document = await readDocument(user.key, xml, 'credit-note.xml');
    expect(document.extracted).toMatchObject({ kind: 'credit_note', total: note.body.total });
    const refused = expectError(await accept(user.key, document.id), 409, 'invalid_state');
    expect(refused.message).toContain('credit note');
    expect(refused.message).toContain('reject');
    expect(await documentOf(user.key, document.id)).toMatchObject({ status: 'needs_review', expense_id: null });
    expect((await reject(user.key, document.id, `Credits ${invoice.number}`)).status).toBe(200);
  });

  it('needs a total, a currency and an issue date that add up, and a project of the workspace', async () => {
    const user = await createUser();
    const { document } = await invoiceInReview(user.key, supplier);
    expect((await correct(user.key, document.id, { total: null, currency: null })).status).toBe(200);
    const missing = await accept(user.key, document.id);
    expectError(missing, 409, 'invalid_state');
    expect(errorPaths(missing).sort()).toEqual(['extracted.currency', 'extracted.total']);
    expect((await correct(user.key, document.id, { currency: 'EUR', total: 33_899 })).status).toBe(200);
    const wrongSum = await accept(user.key, document.id);
    expect(expectError(wrongSum, 409, 'invalid_state').message).toContain('29998 + tax 3900');
    expect((await correct(user.key, document.id, { total: 33_898 })).status).toBe(200);

    const theirs = await createProject((await createUser()).key);
    expect(errorPaths(await accept(user.key, document.id, { project_id: theirs.id }))).toEqual(['project_id']);
    expect(errorPaths(await accept(user.key, document.id, { category: 'snacks' }))).toEqual(['category']);
    expect(await documentOf(user.key, document.id)).toMatchObject({ status: 'needs_review', expense_id: null });
    const res = await accept(user.key, document.id);
    expect(res.status).toBe(200);
    expect((await call('GET', `/api/workflow/expenses/${res.body.expense_id}`, { key: user.key })).body).toMatchObject({
      amount: 33_898, net_amount: 29_998, tax_amount: 3_900, category: 'other', billable: false, project_id: null, description: null,
    });
  });
});

describe('an expense from a document', () => {
  it('keeps the document\'s total, and is its own record otherwise', async () => {
    const user = await createUser();
    const { document } = await invoiceInReview(user.key, supplier);
    const expenseId = (await accept(user.key, document.id)).body.expense_id;
    expectError(await call('PATCH', `/api/workflow/expenses/${expenseId}`, { key: user.key, body: { amount: 100 } }), 409, 'invalid_state');
    expect((await call('PATCH', `/api/workflow/expenses/${expenseId}`, { key: user.key, body: { category: 'software' } })).body).toMatchObject({ category: 'software', amount: 33_898 });
  });
});

// The figure of §21 every receiving workspace checks against the supplier's own.
it('reads the supplier\'s UBL as its CII: the same expense', async () => {
  const user = await createUser();
  const invoice = await sentInvoice(supplier, 3);
  const viaUbl = await readDocument(user.key, await exportedXml(supplier, invoice.id, 'ubl'));
  const expense = (await call('GET', `/api/workflow/expenses/${(await accept(user.key, viaUbl.id)).body.expense_id}`, { key: user.key })).body;
  expect(expense).toMatchObject({ amount: invoice.total, net_amount: invoice.subtotal, tax_amount: invoice.tax, reference: invoice.number });
});
