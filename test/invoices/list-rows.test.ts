// The invoice list reads its rows with a statement shape and maps D1's raw arrays itself
// (lib/table-rows.ts): they must be exactly the rows drizzle's own select gives, every column.
import { env } from 'cloudflare:workers';
import { desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { invoices } from '../../src/db/schema';
import { systemContext } from '../../src/lib/context';
import { listInvoices } from '../../src/modules/invoices/service';
import { call } from '../helpers/api';
import { createClient, createInvoice, createSentInvoice, createUser } from '../helpers/factories';

describe('the invoice list', () => {
  it('reads every column as drizzle does, with and without filters', async () => {
    const user = await createUser();
    const client = await createClient(user.key);
    const sent = await createSentInvoice(user.key, { client_id: client.id, notes: 'Thanks' });
    await createInvoice(user.key, { client_id: client.id, discount: { percent: 10, reason: 'Loyal client' }, purchase_order: 'PO-7' });
    await call('POST', `/v1/invoices/${sent.id}/payments`, { key: user.key, body: { amount: 100 } });
    const workspaceId = (await env.DB.prepare('SELECT workspace_id FROM invoices WHERE id = ?').bind(sent.id).first<string>('workspace_id'))!;
    const ctx = systemContext(env, workspaceId, 'test');
    const drizzleRows = await ctx.db.select().from(invoices).where(eq(invoices.workspaceId, workspaceId)).orderBy(desc(invoices.id));
    expect(drizzleRows).toHaveLength(2);

    expect(await listInvoices(ctx, { limit: 25 })).toEqual(drizzleRows);
    expect(await listInvoices(ctx, { limit: 25, status: 'open', client_id: client.id })).toEqual(drizzleRows.filter((r) => r.id === sent.id));
    expect(await listInvoices(ctx, { limit: 25, beforeId: drizzleRows[0]!.id })).toEqual(drizzleRows.slice(1));
    expect(await listInvoices(ctx, { limit: 0 })).toEqual(drizzleRows.slice(0, 1));
  });
});
