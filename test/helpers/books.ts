// Records for the reports' tests (§22), made as a member makes them, except what the API cannot make
// yet: an expense with the input tax an accepted received document gives it (§21).
import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import { call } from './api';

export type Breakdown = { category: string; rate: number; taxable_amount: number; tax_amount: number };

export async function sentInvoice(key: string, body: Record<string, unknown>) {
  const created = await call('POST', '/v1/invoices', { key, body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const sent = await call('POST', `/v1/invoices/${created.body.id}/send`, { key, body: { email: false } });
  expect(sent.status).toBe(200);
  return sent.body;
}

export async function pay(key: string, invoiceId: string, amount: number, paid_on: string): Promise<string> {
  expect((await call('POST', `/v1/invoices/${invoiceId}/payments`, { key, body: { amount, paid_on } })).status).toBe(200);
  const listed = await call('GET', `/v1/invoices/${invoiceId}/payments`, { key });
  return listed.body.data.find((p: { paid_on: string; amount: number }) => p.paid_on === paid_on && p.amount === amount).id;
}

/**
 * An expense as accepting a received document leaves it: `amount` the gross, with its net, tax and
 * breakdown written straight into D1 (a personal workspace's records are on DB).
 */
export async function receivedExpense(key: string, body: Record<string, unknown>, breakdown: Breakdown[]) {
  const created = await call('POST', '/api/workflow/expenses', { key, body: { category: 'software', ...body } });
  expect(created.status).toBe(201);
  const net = breakdown.reduce((sum, b) => sum + b.taxable_amount, 0);
  const tax = breakdown.reduce((sum, b) => sum + b.tax_amount, 0);
  await env.DB.prepare('UPDATE expenses SET net_amount = ?, tax_amount = ?, tax_breakdown = ? WHERE id = ?').bind(net, tax, JSON.stringify(breakdown), created.body.id).run();
  expect(await env.DB.prepare('SELECT net_amount FROM expenses WHERE id = ?').bind(created.body.id).first('net_amount')).toBe(net);
  return created.body;
}
