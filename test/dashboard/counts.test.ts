// The invoice counts the dashboard reads are kept by triggers; they must match the invoices.
import { env } from 'cloudflare:workers';
import { expect, it } from 'vitest';
import { call } from '../helpers/api';
import { createInvoice, createSentInvoice, createUser } from '../helpers/factories';

it('keeps invoice counts in step through create, send, pay, void and delete', async () => {
  const user = await createUser();
  await createInvoice(user.key);
  await createSentInvoice(user.key);
  const paid = await createSentInvoice(user.key);
  const voided = await createSentInvoice(user.key);
  await call('POST', `/v1/invoices/${paid.id}/payments`, { key: user.key, body: { amount: paid.total } });
  await call('POST', `/v1/invoices/${voided.id}/void`, { key: user.key });
  const doomed = await createInvoice(user.key);
  await call('DELETE', `/v1/invoices/${doomed.id}`, { key: user.key });

  const workspaceId = (await call('GET', '/api/workspace', { key: user.key })).body.id;
  const kept = await env.DB.prepare('SELECT status, count FROM workspace_invoice_status_counts WHERE workspace_id = ? AND count > 0 ORDER BY status').bind(workspaceId).all();
  const actual = await env.DB.prepare('SELECT status, count(*) AS count FROM invoices WHERE workspace_id = ? GROUP BY status ORDER BY status').bind(workspaceId).all();
  expect(kept.results).toEqual(actual.results);
  expect(kept.results).toEqual([
    { status: 'draft', count: 1 },
    { status: 'open', count: 1 },
    { status: 'paid', count: 1 },
    { status: 'void', count: 1 },
  ]);
  const dashboard = await call('GET', '/api/workflow/dashboard', { key: user.key });
  expect(dashboard.body.counts.invoices).toMatchObject({ draft: 1, open: 1, paid: 1, void: 1 });
});
