// The transport and the handshake: the API key as the API checks it, the protocol versions the
// official client negotiates, and what a stateless server answers to GET and DELETE.
import { describe, expect, it } from 'vitest';
import type { ApiResponse } from '../helpers/api';
import { createUser, type TestUser } from '../helpers/factories';
import { firstLimited } from '../helpers/rate-windows';
import { connect, MCP_URL, post, workerFetch } from './client';

let owner: TestUser;

describe('MCP transport', () => {
  it('refuses a request without a key, or with a bad one, with 401 and WWW-Authenticate: Bearer', async () => {
    owner ??= await createUser('MCP Owner');
    for (const headers of [{}, { Authorization: 'Bearer wsk_notarealkeynotarealkeynotarealkey0' }, { Authorization: 'Basic abc' }] as Record<string, string>[]) {
      const res = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, headers);
      expect(res.status).toBe(401);
      expect(res.headers.get('WWW-Authenticate')).toMatch(/^Bearer\b/);
      expect((await res.json<any>()).error.code).toBe('unauthorized');
    }
  });

  it('initializes with the SDK client at the newest version both speak, and names the session\'s capabilities in its id', async () => {
    owner ??= await createUser('MCP Owner');
    const { client, transport } = await connect(owner.key);
    expect(client.getServerVersion()?.name).toBe('workspace-api');
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {} });
    expect(transport.protocolVersion).toBe('2025-11-25');
    expect(transport.sessionId).toMatch(/^n\./);
    expect(await client.ping()).toEqual({});
    await client.close();
  });

  it('negotiates 2025-06-18 for a client that asks for it, and its newest for an older one', async () => {
    owner ??= await createUser('MCP Owner');
    const auth = { Authorization: `Bearer ${owner.key}` };
    const init = (protocolVersion: string) => post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 't', version: '1' } } }, auth);
    expect((await (await init('2025-06-18')).json<any>()).result.protocolVersion).toBe('2025-06-18');
    expect((await (await init('2024-11-05')).json<any>()).result.protocolVersion).toBe('2025-11-25');
  });

  it('answers 400 to a protocol version it does not speak, and to a batch', async () => {
    owner ??= await createUser('MCP Owner');
    const auth = { Authorization: `Bearer ${owner.key}` };
    const unknown = await post({ jsonrpc: '2.0', id: 7, method: 'tools/list' }, { ...auth, 'MCP-Protocol-Version': '1999-01-01' });
    expect(unknown.status).toBe(400);
    expect((await unknown.json<any>()).id).toBe(7);
    const batch = await post([{ jsonrpc: '2.0', id: 1, method: 'ping' }], auth);
    expect(batch.status).toBe(400);
    expect((await batch.json<any>()).error.code).toBe(-32600);
  });

  it('reads the body as every route does: 415 unless JSON, 413 past 100 KB, and JSON-RPC\'s parse error for text that is not JSON', async () => {
    owner ??= await createUser('MCP Owner');
    const auth = { Authorization: `Bearer ${owner.key}` };
    expect((await post('{"jsonrpc":"2.0","id":1,"method":"ping"}', { ...auth, 'Content-Type': 'text/plain' })).status).toBe(415);
    expect((await post({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(101 * 1024) } }, auth)).status).toBe(413);
    const broken = await post('{"jsonrpc":', auth);
    expect(broken.status).toBe(400);
    expect(await broken.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'The body is not valid JSON.' } });
  });

  it('takes a notification with 202 and no body, and answers an unknown method with a JSON-RPC error', async () => {
    owner ??= await createUser('MCP Owner');
    const auth = { Authorization: `Bearer ${owner.key}` };
    const notified = await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, auth);
    expect(notified.status).toBe(202);
    expect(await notified.text()).toBe('');
    const unknown = await (await post({ jsonrpc: '2.0', id: 'x', method: 'sampling/whatever' }, auth)).json<any>();
    expect(unknown).toMatchObject({ id: 'x', error: { code: -32601 } });
  });

  it('answers GET and DELETE with 405 naming POST (no session stream), before any key check', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await workerFetch(MCP_URL, { method });
      expect(res.status).toBe(405);
      expect(res.headers.get('Allow')).toBe('POST');
    }
  });

  it('counts against the key\'s 120 a minute like the API: a message once, a tool call once (the API request it makes)', { timeout: 180_000 }, async () => {
    const user = await createUser('Counted');
    const auth = { Authorization: `Bearer ${user.key}` };
    const send = async (i: number): Promise<ApiResponse> => {
      const message = i % 2 ? { jsonrpc: '2.0', id: i, method: 'ping' } : { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'listClients', arguments: {} } };
      const res = await post(message, auth);
      const body = await res.json<any>();
      // A tool call the limit stops is a result carrying the API's 429 envelope.
      if (body.result?.isError) return { status: JSON.parse(body.result.content[0].text).error.code === 'rate_limited' ? 429 : 500, headers: res.headers, body };
      return { status: res.status, headers: res.headers, body };
    };
    const limited = await firstLimited(130, send);
    expect(limited?.after).toBe(120);
  });

  it('refuses a browser page of another origin', async () => {
    owner ??= await createUser('MCP Owner');
    const res = await post({ jsonrpc: '2.0', id: 1, method: 'ping' }, { Authorization: `Bearer ${owner.key}`, Origin: 'https://evil.example' });
    expect(res.status).toBe(403);
  });
});
