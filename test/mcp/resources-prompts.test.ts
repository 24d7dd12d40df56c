// Resources (documents and clients by id, an invoice's PDF) and the two prompts, read with the
// official client as each key may read them.
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/api';
import { addMember, createClient, createInvoice, createUser, type TestUser } from '../helpers/factories';
import { connect } from './client';

let owner: TestUser;
let viewer: TestUser;

beforeAll(async () => {
  owner = await createUser('Resources Owner');
  viewer = await addMember(owner.key, 'viewer', 'Reader');
});

describe('MCP resources', () => {
  it('lists its templates', async () => {
    const { client } = await connect(viewer.key);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual(['client://{id}', 'credit-note://{id}', 'invoice://{id}', 'invoice://{id}/pdf', 'quote://{id}']);
    expect((await client.listResources()).resources).toEqual([]);
    await client.close();
  });

  it('reads an invoice and a client as the API answers them, and the invoice\'s PDF as a blob', async () => {
    const acme = await createClient(owner.key, { name: 'Acme GmbH' });
    const invoice = await createInvoice(owner.key, { client_id: acme.id });
    const { client } = await connect(viewer.key);
    const read = await client.readResource({ uri: `invoice://${invoice.id}` });
    expect(read.contents[0]).toMatchObject({ uri: `invoice://${invoice.id}`, mimeType: 'application/json' });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toEqual((await call('GET', `/v1/invoices/${invoice.id}`, { key: viewer.key })).body);
    const person = await client.readResource({ uri: `client://${acme.id}` });
    expect(JSON.parse((person.contents[0] as { text: string }).text)).toMatchObject({ id: acme.id, name: 'Acme GmbH' });
    const pdf = await client.readResource({ uri: `invoice://${invoice.id}/pdf` });
    expect(pdf.contents[0]).toMatchObject({ mimeType: 'application/pdf' });
    expect(atob((pdf.contents[0] as { blob: string }).blob).startsWith('%PDF-')).toBe(true);
    await client.close();
  });

  it('finds nothing of another workspace, and nothing at an unknown kind of URI', async () => {
    const stranger = await createUser('Stranger');
    const theirs = await createInvoice(stranger.key);
    const { client } = await connect(owner.key);
    await expect(client.readResource({ uri: `invoice://${theirs.id}` })).rejects.toMatchObject({ code: -32002 });
    await expect(client.readResource({ uri: `quote://quo_01JD5ZQ5X8Y4V1N2K3M4P5Q6R7` })).rejects.toMatchObject({ code: -32002 });
    await expect(client.readResource({ uri: 'https://example.com/' })).rejects.toMatchObject({ code: -32002 });
    await client.close();
  });
});

describe('MCP prompts', () => {
  it('lists overdue-follow-up and month-end, each a template over the tools', async () => {
    const { client } = await connect(viewer.key);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['overdue-follow-up', 'month-end']);
    const overdue = await client.getPrompt({ name: 'overdue-follow-up', arguments: { tone: 'firm' } });
    const text = (overdue.messages[0]!.content as { text: string }).text;
    expect(text).toContain('firm');
    expect(text).toContain('listInvoices with status "overdue"');
    expect(text).toContain('language');
    const monthEnd = await client.getPrompt({ name: 'month-end', arguments: { month: '2026-02' } });
    const steps = (monthEnd.messages[0]!.content as { text: string }).text;
    expect(steps).toContain('2026-02-01 to 2026-02-28');
    for (const tool of ['summarizeTimeEntries', 'listInvoices', 'listExpenses', 'getDashboard']) expect(steps).toContain(tool);
    // Every tool they name is one the reader has.
    const tools = new Set((await client.listTools()).tools.map((t) => t.name));
    const named = [...`${text}\n${steps}`.matchAll(/\b((?:list|get|summarize)[A-Z]\w+)/g)].map((m) => m[1]!);
    expect(named.length).toBeGreaterThan(6);
    for (const name of named) expect(tools.has(name), name).toBe(true);
    await expect(client.getPrompt({ name: 'month-end', arguments: { month: 'February' } })).rejects.toMatchObject({ code: -32602 });
    await expect(client.getPrompt({ name: 'nope' })).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });
});
