// Deleting the expense an accepted document booked (§21 "Review") returns the document to review, in the delete's
// own batch: it may be corrected and accepted again, and the dashboard drops the expense and its input tax with
// it. An expense an invoice bills cannot be deleted, and its document stays accepted; one typed in by hand
// touches no document.
import { env } from 'cloudflare:workers';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { call, expectError } from '../helpers/api';
import { createProject, createUser } from '../helpers/factories';
import { putRates } from '../helpers/rates';
import { type Supplier, supplierStudio } from './exports';
import { accept, correct, documentOf, eventsOf, invoiceInReview } from './in-review';

let supplier: Supplier;

beforeAll(async () => {
  await putRates({ EUR: 0.8 });
  supplier = await supplierStudio();
});

beforeEach(() => {
  vi.restoreAllMocks();
  vi.spyOn(env.INBOUND_QUEUE, 'send').mockResolvedValue(undefined as never);
});

const deleteExpense = (key: string, id: string) => call('DELETE', `/api/workflow/expenses/${id}`, { key });

describe('deleting an accepted document\'s expense', () => {
  it('returns the document to review, to be corrected and accepted again', async () => {
    const user = await createUser();
    const { document } = await invoiceInReview(user.key, supplier);
    const accepted = (await accept(user.key, document.id)).body;
    const day = document.extracted.issue_date;
    const dashboard = async () => (await call('GET', `/api/workflow/dashboard?from=${day}&to=${day}&currency=EUR`, { key: user.key })).body.totals;
    expect(await dashboard()).toMatchObject({ expenses: 33_898, input_tax: 3_900 });

    expect((await deleteExpense(user.key, accepted.expense_id)).status).toBe(204);
    const back = await documentOf(user.key, document.id);
    expect(back).toMatchObject({ status: 'needs_review', expense_id: null, extracted: document.extracted, duplicate_of: null });
    expect(back.updated_at > accepted.updated_at).toBe(true);
    expectError(await call('GET', `/api/workflow/expenses/${accepted.expense_id}`, { key: user.key }), 404, 'not_found');
    const [deleted] = await eventsOf(user.key, 'expense.deleted');
    expect(deleted!.data.object).toMatchObject({ id: accepted.expense_id, document_id: document.id });
    expect(await dashboard()).toMatchObject({ expenses: 0, input_tax: 0, profit: 0 });

    // Corrected (one line was not ours) and booked again: a new expense.
    expect((await correct(user.key, document.id, { subtotal: 14_999, tax: 2_850, total: 17_849 })).status).toBe(200);
    const again = (await accept(user.key, document.id)).body;
    expect(again.expense_id).not.toBe(accepted.expense_id);
    expect((await call('GET', `/api/workflow/expenses/${again.expense_id}`, { key: user.key })).body).toMatchObject({ amount: 17_849, net_amount: 14_999, tax_amount: 2_850 });
    expect(await dashboard()).toMatchObject({ expenses: 17_849, input_tax: 2_850 });
  });

  it('is refused while an invoice bills the expense, and the document stays accepted', async () => {
    const user = await createUser();
    const client = (await call('POST', '/v1/clients', { key: user.key, body: { name: 'Acme GmbH', currency: 'EUR' } })).body;
    const project = await createProject(user.key, { client_id: client.id, currency: 'EUR' });
    const { document } = await invoiceInReview(user.key, supplier);
    const expenseId = (await accept(user.key, document.id, { project_id: project.id, billable: true })).body.expense_id;
    const bill = await call('POST', '/v1/invoices/from-time', { key: user.key, body: { client_id: client.id } });
    expect(bill.status, JSON.stringify(bill.body)).toBe(201);
    expectError(await deleteExpense(user.key, expenseId), 409, 'invalid_state');
    expect(await documentOf(user.key, document.id)).toMatchObject({ status: 'accepted', expense_id: expenseId });
  });

  it('leaves documents alone when the expense was typed in by hand', async () => {
    const user = await createUser();
    const { document } = await invoiceInReview(user.key, supplier);
    await accept(user.key, document.id);
    const typed = (await call('POST', '/api/workflow/expenses', { key: user.key, body: { category: 'meals', amount: 1_250 } })).body;
    expect((await deleteExpense(user.key, typed.id)).status).toBe(204);
    expect((await documentOf(user.key, document.id)).status).toBe('accepted');
  });
});
