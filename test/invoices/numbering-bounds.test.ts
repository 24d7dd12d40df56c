// §5: nothing a member types can stop invoice numbering. The default number follows the highest
// number of the form prefix + 1–12 digits; a hand-picked number with a longer or non-numeric tail
// is kept as given and never moves or blocks the sequence, for creations and for the recurring cron.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { issueDueInvoices } from '../../src/modules/recurring-invoices/issue';
import { call } from '../helpers/api';
import { createClient, createInvoice, createUser, oneLine } from '../helpers/factories';

const today = () => new Date().toISOString().slice(0, 10);

describe('a very long hand-picked invoice number', () => {
  it('is kept as given, and later default numbers and the recurring cron carry on', async () => {
    const user = await createUser();
    const client = await createClient(user.key);
    const long = `INV-${'9'.repeat(30)}`;
    // The next default number is taken by hand too, so the sequence must look past what is in use.
    expect((await createInvoice(user.key, { client_id: client.id, number: 'INV-000001' })).number).toBe('INV-000001');
    expect((await createInvoice(user.key, { client_id: client.id, number: long })).number).toBe(long);
    expect((await createInvoice(user.key, { client_id: client.id, number: 'INV-12x' })).number).toBe('INV-12x');
    expect((await createInvoice(user.key, { client_id: client.id })).number).toBe('INV-000002');
    expect((await createInvoice(user.key, { client_id: client.id })).number).toBe('INV-000003');

    // A tail of up to 12 digits is a number of the sequence (the default one jumps past it when
    // it meets a number in use); 13 digits are not.
    await createInvoice(user.key, { client_id: client.id, number: 'INV-000000000009' });
    await createInvoice(user.key, { client_id: client.id, number: 'INV-9999999999999' });
    await createInvoice(user.key, { client_id: client.id, number: 'INV-000004' });
    expect((await createInvoice(user.key, { client_id: client.id })).number).toBe('INV-000010');

    const rin = await call('POST', '/v1/recurring-invoices', { key: user.key, body: { client_id: client.id, line_items: oneLine, interval: 'month', start_date: today() } });
    expect(rin.status).toBe(201);
    await env.DB.prepare('UPDATE recurring_invoices SET next_issue_at = ? WHERE id = ?').bind(new Date(Date.now() - 60_000).toISOString(), rin.body.id).run();
    await createInvoice(user.key, { client_id: client.id, number: 'INV-000011' });
    await issueDueInvoices(env);
    const issued = (await call('GET', `/v1/invoices?recurring_invoice_id=${rin.body.id}`, { key: user.key })).body.data;
    expect(issued.map((i: { number: string }) => i.number)).toEqual(['INV-000012']);
  });
});
