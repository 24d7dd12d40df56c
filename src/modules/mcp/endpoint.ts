// POST /mcp: the Model Context Protocol over Streamable HTTP (§23), stateless. Each POST carries one
// JSON-RPC message with the caller's API key: the key is checked as the API checks it (401 with
// `WWW-Authenticate: Bearer` without one), then the message is answered with one JSON response, or,
// when the server must ask the client something first (elicitation), with an SSE stream that ends
// with the answer. Notifications and the client's answers to our questions get 202.
//
// Implemented here rather than with the official SDK's server: what this server speaks is a handful
// of methods, and the SDK's server brings its own zod schemas for every message of the protocol and
// Ajv, weight a Worker would load on the first /mcp call of every isolate, to serve no more than this.
import type { Context } from 'hono';
import { config } from '../../config';
import type { AppEnv } from '../../env';
import { ApiError } from '../../errors';
import { keyPrincipal } from '../../middleware/auth';
import { DIRECTORY } from '../../lib/databases';
import { createDb } from '../../lib/db';
import { MAX_BODY_BYTES, requireJsonMediaType, tooLarge } from '../../middleware/json-body';
import { readAtMost } from '../../lib/bounded-read';
import { apiRateLimit } from '../../middleware/rate-limit';
import { type McpCall, type McpHost, mcpCall, requestContext } from './call';
import { classify, errorOf, type JsonRpcRequest, resultOf, RPC, RpcError } from './json-rpc';
import { getPrompt, listPrompts } from './prompts';
import { recordAnswer } from './proposals/decide';
import type { Streamed } from './proposals/propose';
import { listResourceTemplates, readResource } from './resources';
import { negotiatedVersion, PROTOCOL_VERSIONS, requestVersion, SESSION_HEADER, sessionFrom, sessionId, sessionOf, VERSION_HEADER } from './session';
import { callTool, listTools } from './tools/call-tool';
import { responseText } from './tools/results';

export type { McpHost };

const noop = async () => {};

const INSTRUCTIONS = [
  'The Workspace API of a freelancer or studio: clients, projects, invoices, quotes, credit notes, payments, expenses, time entries, transfers.',
  'Money is always an integer count of the currency\'s minor unit (cents): 150000 EUR is €1,500.00.',
  'Lists are pages: pass the `next_cursor` of one as `cursor` to get the next.',
  'Tools that move money or send a document to a client (send, record or refund a payment, credit, void, transfer, accept a quote) only propose on their first call: show the user the summary, and call confirmProposal only once they agree.',
].join(' ');

/** Methods whose work is a request to the app, which counts it against the key's limits itself. */
const REACHES_THE_APP = new Set(['tools/call', 'resources/read']);

type Handler = (call: McpCall, params: Record<string, unknown>) => Promise<Record<string, unknown> | Streamed>;

const METHODS: Record<string, Handler> = {
  ping: async () => ({}),
  'tools/list': (call) => listTools(call),
  'tools/call': (call, params) => callTool(call, params) as Promise<Record<string, unknown> | Streamed>,
  'resources/list': async () => ({ resources: [] }),
  'resources/templates/list': async () => listResourceTemplates(),
  'resources/read': (call, params) => readResource(call, params),
  'prompts/list': async () => listPrompts(),
  'prompts/get': async (_call, params) => getPrompt(params),
};

/**
 * The POSTed message, read once: over 100 KB is a 413 and a body not declared JSON a 415, as on every
 * route; text that is not JSON is JSON-RPC's parse error (400).
 */
async function readMessage(c: Context<AppEnv>): Promise<unknown> {
  const length = c.req.header('Content-Length');
  if (Number(length ?? '0') > MAX_BODY_BYTES) throw tooLarge();
  requireJsonMediaType(c.req.header('Content-Type'), 'message');
  // With a length the runtime holds the body to it; without one, it is read up to the limit.
  const bytes = length !== undefined ? new Uint8Array(await c.req.raw.arrayBuffer()) : await readAtMost(c.req.raw.body, MAX_BODY_BYTES);
  if (bytes === null) throw tooLarge();
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes));
  } catch {
    return new RpcError(RPC.parseError, 'The body is not valid JSON.');
  }
}

/** An Origin other than this server's or an allowed one: a page in a browser the user did not mean to give the key to. */
function refuseForeignOrigin(c: Context<AppEnv>) {
  const origin = c.req.header('Origin');
  if (origin === undefined || origin === new URL(c.req.url).origin || config(c.env).CORS_ALLOWED_ORIGINS.includes(origin)) return;
  throw new ApiError('forbidden', `Requests from ${origin} may not use this server (CORS_ALLOWED_ORIGINS).`);
}

export async function serveMcp(c: Context<AppEnv>, host: McpHost): Promise<Response> {
  refuseForeignOrigin(c);
  // 401 before the body is read, as on every keyed route. Only the key's lookup (cached in the
  // isolate): the full request context, with its D1 session, is made when something needs it.
  const principal = await keyPrincipal(c, createDb(c.var.d1.binding(DIRECTORY)));
  const incoming = classify(await readMessage(c));
  if (incoming instanceof RpcError) return c.json(errorOf(null, incoming.code, incoming.message), 400);
  const method = incoming.kind === 'response' ? undefined : incoming.message.method;
  const initializing = method === 'initialize';
  const version = initializing ? negotiatedVersion((incoming as { message: JsonRpcRequest }).message.params?.protocolVersion) : requestVersion(c.req.header(VERSION_HEADER));
  if (!version) {
    const id = incoming.kind === 'request' ? incoming.message.id : null;
    return c.json(errorOf(id, RPC.invalidRequest, `Unsupported ${VERSION_HEADER}: this server speaks ${PROTOCOL_VERSIONS.join(' and ')}.`), 400);
  }
  if (!method || !REACHES_THE_APP.has(method)) {
    await requestContext(c);
    await apiRateLimit(c, noop);
  }
  if (incoming.kind === 'notification') return c.body(null, 202);
  if (incoming.kind === 'response') {
    // The client's answer to elicitation/create, whose id is the proposal's.
    if (typeof incoming.id === 'string' && incoming.id.startsWith('mcp_')) {
      await recordAnswer(await requestContext(c), incoming.id, (incoming.result as { action?: unknown } | undefined)?.action === 'accept');
    }
    return c.body(null, 202);
  }
  const request = incoming.message;
  if (initializing) {
    const session = sessionOf(request.params?.capabilities);
    return c.json(resultOf(request.id, initializeResult(version, config(c.env).APP_VERSION)), 200, { [SESSION_HEADER]: sessionId(session) });
  }
  const handler = METHODS[request.method];
  if (!handler) return c.json(errorOf(request.id, RPC.methodNotFound, `Unknown method: ${request.method}.`), 200);
  const call = mcpCall(c, host, principal, version, sessionFrom(c.req.header(SESSION_HEADER)));
  try {
    const result = await handler(call, request.params ?? {});
    if ('stream' in result && typeof result.stream === 'function') return streamed(request, result as Streamed);
    return c.body(responseText(request.id, result), 200, { 'Content-Type': 'application/json' });
  } catch (err) {
    if (err instanceof RpcError) return c.json(errorOf(request.id, err.code, err.message), 200);
    throw err;
  }
}

function initializeResult(version: string, appVersion: string) {
  return {
    protocolVersion: version,
    capabilities: { tools: { listChanged: false }, resources: { subscribe: false, listChanged: false }, prompts: { listChanged: false } },
    serverInfo: { name: 'workspace-api', title: 'Workspace API', version: appVersion },
    instructions: INSTRUCTIONS,
  };
}

/** The answer to `request` as an SSE stream: the server's own requests first, then the result. */
function streamed(request: JsonRpcRequest, result: Streamed): Response {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  const encoder = new TextEncoder();
  let closed = false;
  writer.closed.catch(() => (closed = true));
  const send = (message: Record<string, unknown>) => writer.write(encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`));
  (async () => {
    try {
      await send(resultOf(request.id, await result.stream(send, () => closed)));
    } catch (err) {
      if (!closed) {
        console.error(JSON.stringify({ level: 'error', message: (err as Error).message, stack: (err as Error).stack }));
        await send(errorOf(request.id, RPC.internalError, 'Something went wrong on our side. Try again.')).catch(noop);
      }
    } finally {
      await writer.close().catch(noop);
    }
  })();
  return new Response(readable, { status: 200, headers: { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' } });
}
