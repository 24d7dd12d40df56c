// The tools are the operations: one per operation of /v1 (with /api/workflow's expenses and
// dashboard, and /api/rates), listed by role and run through the API itself, its validation, roles
// and workspaces included.
import { Validator } from '@cfworker/json-schema';
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/api';
import { createClient, createInvoice, createUser, type Role, type TestUser, workspaceWithEveryRole } from '../helpers/factories';
import { routeTable } from '../helpers/route-table';
import { NEEDS_A_YES } from '../../src/modules/mcp/proposals/needs-a-yes';
import { connect, envelopeOf, textOf } from './client';

const TOOL_PATHS = [/^\/v1\//, /^\/api\/workflow\/(expenses|dashboard)(\/|$)/, /^\/api\/rates(\/|$)/];
const RANK: Record<string, number> = { public: 0, any: 0, viewer: 0, member: 1, admin: 2, owner: 3 };

let people: Record<Role, TestUser>;
let operations: { operationId: string; method: string; path: string; role: string; example?: Record<string, unknown>; query: Record<string, unknown>; pathParams: { name: string; pattern?: string }[] }[];

beforeAll(async () => {
  people = await workspaceWithEveryRole();
  const { routes, doc } = await routeTable();
  const seen = new Set<string>();
  operations = [];
  for (const route of routes) {
    const id = route.operation.operationId!;
    if (!TOOL_PATHS.some((pattern) => pattern.test(route.path)) || seen.has(id)) continue;
    seen.add(id);
    const body = route.operation.requestBody as { content: { 'application/json'?: { example?: Record<string, unknown> } } } | undefined;
    // A required query parameter (a report's period) takes its documented example, as a caller would.
    const query = Object.fromEntries((route.operation.parameters ?? []).filter((p) => p.in === 'query' && p.required)
      .map((p) => [p.name, p.schema?.example ?? resolve(doc, p.schema)?.example]));
    const pathParams = (route.operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => ({ name: p.name, pattern: (p.schema?.pattern ?? resolve(doc, p.schema)?.pattern) as string | undefined }));
    operations.push({ operationId: id, method: route.method, path: route.path, role: route.operation['x-required-role'] ?? 'public', example: body?.content['application/json']?.example, query, pathParams });
  }
});

const resolve = (doc: any, schema: any) => (schema?.$ref ? doc.components.schemas[String(schema.$ref).split('/').pop()!] : schema);

describe('MCP tools', () => {
  it('lists one tool per operation, named by its operationId, and confirmProposal', async () => {
    const { client } = await connect(people.owner.key);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...operations.map((o) => o.operationId), 'confirmProposal'].sort());
    expect(operations.length).toBeGreaterThan(70);
    const byName = new Map(tools.map((t) => [t.name, t]));
    // The summary and the role in the description; hints from the method.
    expect(byName.get('listClients')).toMatchObject({ title: 'List clients', annotations: { readOnlyHint: true, idempotentHint: true } });
    expect(byName.get('listClients')!.description).toMatch(/^List clients\.[\s\S]*Role: `viewer`\./);
    expect(byName.get('deleteClient')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    expect(byName.get('voidInvoice')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.get('createClient')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    // An output schema where the operation answers JSON; none for a delete or a PDF.
    expect(byName.get('getClient')!.outputSchema).toMatchObject({ type: 'object', properties: { id: expect.any(Object), name: expect.any(Object) } });
    expect(byName.get('deleteClient')!.outputSchema).toBeUndefined();
    expect(byName.get('getInvoicePdf')!.outputSchema).toBeUndefined();
    // Path parameters, query and body side by side, each schema standing alone (no references left).
    const update = byName.get('updateClient')!.inputSchema as any;
    expect(update).toMatchObject({ type: 'object', required: ['id'], additionalProperties: false, properties: { id: { pattern: expect.stringMatching(/cli_/) }, name: expect.any(Object) } });
    expect(JSON.stringify(tools)).not.toContain('$ref');
    await client.close();
  });

  it('asks a yes of operations that exist: each one a tool that says so, whose output admits the proposal', async () => {
    const { client } = await connect(people.owner.key);
    const byName = new Map((await client.listTools()).tools.map((t) => [t.name, t]));
    for (const name of NEEDS_A_YES) {
      const tool = byName.get(name);
      expect(tool, name).toBeDefined();
      expect(tool!.description, name).toContain('confirmProposal');
      expect(tool!.outputSchema, name).toMatchObject({ type: 'object', anyOf: [expect.any(Object), { required: ['proposal_id', 'summary', 'expires_at'] }] });
    }
    await client.close();
  });

  it('lists to each role only the tools it may call: a viewer, the reads', async () => {
    for (const role of ['viewer', 'member', 'admin'] as const) {
      const { client } = await connect(people[role].key);
      const names = (await client.listTools()).tools.map((t) => t.name);
      const allowed = operations.filter((o) => RANK[o.role]! <= RANK[role]!).map((o) => o.operationId);
      expect(names.filter((n) => n !== 'confirmProposal').sort(), role).toEqual(allowed.sort());
      if (role === 'viewer') {
        expect(names.every((name) => operations.find((o) => o.operationId === name)?.method === 'GET')).toBe(true);
        expect(names).not.toContain('confirmProposal');
      } else expect(names).toContain('confirmProposal');
      await client.close();
    }
  });

  it('takes the example of every operation in its tool\'s input schema', async () => {
    const { client } = await connect(people.owner.key);
    const byName = new Map((await client.listTools()).tools.map((t) => [t.name, t]));
    const checked: string[] = [];
    for (const operation of operations) {
      const ids = Object.fromEntries(operation.pathParams.map((p) => [p.name, sampleFor(p.pattern)]));
      const args = { ...ids, ...operation.query, ...(operation.example ?? {}) };
      const result = new Validator(byName.get(operation.operationId)!.inputSchema as any, '2020-12', false).validate(args);
      expect(result.errors, operation.operationId).toEqual([]);
      if (operation.example) checked.push(operation.operationId);
    }
    expect(checked.length).toBeGreaterThan(25);
    await client.close();
  });

  it('runs a read as the API answers it, with its JSON as structured content', async () => {
    await createClient(people.owner.key, { name: 'Acme GmbH' });
    const { client } = await connect(people.viewer.key);
    await client.listTools(); // so the client checks the answer against the output schema
    const result = await client.callTool({ name: 'listClients', arguments: { limit: 5 } });
    const api = await call('GET', '/v1/clients?limit=5', { key: people.viewer.key });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(api.body);
    expect(textOf(result)[0]).toBe('List clients: the last page.');
    expect(JSON.parse(textOf(result)[1]!)).toEqual(api.body);
    await client.close();
  });

  it('validates a tool\'s input exactly as the API does, and answers its envelope as an error result', async () => {
    const body = { name: '', currency: 'XYZ', colour: 'blue' };
    const api = await call('POST', '/v1/clients', { key: people.member.key, body });
    expect(api.status).toBe(422);
    const { client } = await connect(people.member.key);
    const result = await client.callTool({ name: 'createClient', arguments: body });
    const envelope = envelopeOf(result);
    expect(envelope.error.code).toBe('validation_failed');
    expect(envelope.error.details).toEqual(api.body.error.details);
    expect(envelope.error.request_id).toMatch(/^req_/);
    await client.close();
  });

  it('creates through the API, with its records: the event names the key\'s user', async () => {
    const { client } = await connect(people.member.key);
    const result = await client.callTool({ name: 'createClient', arguments: { name: 'Made over MCP', currency: 'EUR' } });
    expect(result.structuredContent).toMatchObject({ id: expect.stringMatching(/^cli_/), name: 'Made over MCP', currency: 'EUR' });
    const events = await call('GET', '/api/events?type=client.created', { key: people.owner.key });
    expect(events.body.data[0]).toMatchObject({ data: { object: { id: (result.structuredContent as any).id } }, actor: { id: people.member.id } });
    await client.close();
  });

  it('refuses a tool above the key\'s role with the API\'s 403, and a missing path parameter with a 422 naming it', async () => {
    const { client } = await connect(people.viewer.key);
    const forbidden = envelopeOf(await client.callTool({ name: 'createClient', arguments: { name: 'Nope' } }));
    expect(forbidden.error).toMatchObject({ code: 'forbidden', message: expect.stringContaining('member') });
    const missing = envelopeOf(await client.callTool({ name: 'getClient', arguments: {} }));
    expect(missing.error).toMatchObject({ code: 'validation_failed', details: [{ path: 'id', message: 'Required.' }] });
    await expect(client.callTool({ name: 'noSuchTool', arguments: {} })).rejects.toThrow(/Unknown tool/);
    await client.close();
  });

  it('never reaches another workspace: its ids are not found', async () => {
    const stranger = await createUser('Stranger');
    const theirs = await createClient(stranger.key, { name: 'Not yours' });
    const { client } = await connect(people.owner.key);
    for (const [name, args] of [['getClient', { id: theirs.id }], ['updateClient', { id: theirs.id, name: 'Mine now' }], ['deleteClient', { id: theirs.id }]] as const) {
      expect(envelopeOf(await client.callTool({ name, arguments: args })).error.code, name).toBe('not_found');
    }
    const listed = await client.callTool({ name: 'listClients', arguments: { q: 'Not yours' } });
    expect((listed.structuredContent as any).data).toEqual([]);
    expect((await call('GET', `/v1/clients/${theirs.id}`, { key: stranger.key })).body.name).toBe('Not yours');
    await client.close();
  });

  it('answers a delete with a sentence and a PDF as an embedded resource', async () => {
    const invoice = await createInvoice(people.owner.key);
    const { client } = await connect(people.owner.key);
    const pdf = await client.callTool({ name: 'getInvoicePdf', arguments: { id: invoice.id } });
    const [resource] = pdf.content as any[];
    expect(resource).toMatchObject({ type: 'resource', resource: { mimeType: 'application/pdf' } });
    expect(atob(resource.resource.blob).startsWith('%PDF-')).toBe(true);
    const deleted = await client.callTool({ name: 'deleteInvoice', arguments: { id: invoice.id } });
    expect(deleted.isError).toBeFalsy();
    expect(textOf(deleted)).toEqual([expect.stringMatching(/^Delete .*: done\.$/)]);
    expect((await call('GET', `/v1/invoices/${invoice.id}`, { key: people.owner.key })).status).toBe(404);
    await client.close();
  });
});

/** A value of an id's shape: its prefix from the pattern (`^cli_…`) and a ULID. */
function sampleFor(pattern: string | undefined): string {
  const prefix = pattern?.match(/^\^([a-z]+)_/)?.[1];
  return prefix ? `${prefix}_01JD5ZQ5X8Y4V1N2K3M4P5Q6R7` : 'x';
}
