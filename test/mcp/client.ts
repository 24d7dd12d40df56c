// An MCP client as an assistant runs one: the official SDK's Client over its Streamable HTTP
// transport, whose fetch is the worker's own handler (as test/helpers/api.ts reaches it).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type ElicitRequest, ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker-provider.js';
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import worker from '../../src/index';

export const MCP_URL = 'https://workspace.test/mcp';

/** The worker's fetch handler as a fetch; an SSE answer is handed over while it still streams. */
export async function workerFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const headers = new Headers(request.headers);
  if (!headers.has('CF-Connecting-IP')) headers.set('CF-Connecting-IP', `2001:db8:${crypto.randomUUID().slice(0, 4)}::1`);
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(request, { headers }), env, ctx);
  if (!res.headers.get('Content-Type')?.includes('text/event-stream')) await waitOnExecutionContext(ctx);
  return res;
}

export type Connected = { client: Client; transport: StreamableHTTPClientTransport; questions: ElicitRequest['params'][] };

/**
 * A client connected with `key`. With `answer`, it declares the elicitation capability and answers
 * every question so (the questions asked are kept in `questions`).
 */
export async function connect(key: string, answer?: (question: ElicitRequest['params']) => ElicitResult['action']): Promise<Connected> {
  const questions: ElicitRequest['params'][] = [];
  // Ajv (the SDK's default validator) compiles schemas into code, which the Workers runtime forbids.
  const client = new Client({ name: 'workspace-tests', version: '1.0.0' }, { capabilities: answer ? { elicitation: {} } : {}, jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      questions.push(request.params);
      return { action: answer(request.params), content: {} };
    });
  }
  const transport = new StreamableHTTPClientTransport(new URL(MCP_URL), { fetch: workerFetch, requestInit: { headers: { Authorization: `Bearer ${key}` } } });
  await client.connect(transport);
  return { client, transport, questions };
}

/** One raw JSON-RPC POST to /mcp, for what the SDK client would not send. */
export async function post(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return workerFetch(MCP_URL, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2025-06-18', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** The JSON text a tool result carries after its sentence, or its envelope when it failed. */
export const textOf = (result: object) => (((result as { content?: unknown }).content ?? []) as { type: string; text?: string }[]).filter((c) => c.type === 'text').map((c) => c.text ?? '');
export const envelopeOf = (result: object) => {
  if ((result as { isError?: unknown }).isError !== true) throw new Error(`expected an error result, got ${JSON.stringify(result).slice(0, 500)}`);
  return JSON.parse(textOf(result)[0]!) as { error: { code: string; message: string; request_id: string; details?: { path: string; message: string }[] } };
};
