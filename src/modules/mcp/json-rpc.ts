// The JSON-RPC 2.0 messages MCP is made of, as the Streamable HTTP transport carries them: one
// message per POST (batches left the protocol in 2025-06-18), answered with one JSON response, or
// with an SSE stream when the server has requests of its own to make first (elicitation).

export type JsonRpcId = string | number;

export type JsonRpcRequest = { jsonrpc: '2.0'; id: JsonRpcId; method: string; params?: Record<string, unknown> };
export type JsonRpcNotification = { jsonrpc: '2.0'; method: string; params?: Record<string, unknown> };
export type JsonRpcResponse =
  | { jsonrpc: '2.0'; id: JsonRpcId; result: Record<string, unknown> }
  | { jsonrpc: '2.0'; id: JsonRpcId | null; error: { code: number; message: string; data?: unknown } };

export type Incoming =
  | { kind: 'request'; message: JsonRpcRequest }
  | { kind: 'notification'; message: JsonRpcNotification }
  | { kind: 'response'; id: JsonRpcId; result?: Record<string, unknown>; error?: unknown };

/** The codes of the JSON-RPC specification that this server answers with. */
export const RPC = { parseError: -32700, invalidRequest: -32600, methodNotFound: -32601, invalidParams: -32602, internalError: -32603 } as const;

/** A failure the client made in the protocol itself (an unknown method or tool, params of the wrong shape). */
export class RpcError extends Error {
  constructor(readonly code: number, message: string) {
    super(message);
  }
}

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isId = (value: unknown): value is JsonRpcId => typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));

/** What one POSTed message is, or an RpcError saying why it is none. */
export function classify(body: unknown): Incoming | RpcError {
  if (body instanceof RpcError) return body;
  if (Array.isArray(body)) return new RpcError(RPC.invalidRequest, 'Send one JSON-RPC message per request: batches are not part of MCP since 2025-06-18.');
  if (!isObject(body) || body.jsonrpc !== '2.0') return new RpcError(RPC.invalidRequest, 'Not a JSON-RPC 2.0 message.');
  if (body.params !== undefined && !isObject(body.params)) return new RpcError(RPC.invalidRequest, '`params` must be an object.');
  if (typeof body.method === 'string') {
    if (body.id === undefined) return { kind: 'notification', message: body as JsonRpcNotification };
    if (!isId(body.id)) return new RpcError(RPC.invalidRequest, '`id` must be a string or an integer.');
    return { kind: 'request', message: body as JsonRpcRequest };
  }
  if (isId(body.id) && ('result' in body || 'error' in body)) {
    return { kind: 'response', id: body.id, ...(isObject(body.result) ? { result: body.result } : {}), ...('error' in body ? { error: body.error } : {}) };
  }
  return new RpcError(RPC.invalidRequest, 'A message needs a `method`, or an `id` with a `result` or an `error`.');
}

export const resultOf = (id: JsonRpcId, result: Record<string, unknown>): JsonRpcResponse => ({ jsonrpc: '2.0', id, result });

export const errorOf = (id: JsonRpcId | null, code: number, message: string): JsonRpcResponse => ({ jsonrpc: '2.0', id, error: { code, message } });
