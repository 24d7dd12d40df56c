// A tool call's result from the operation's answer. Success: the JSON as `structuredContent`, a
// short sentence first, and the JSON as text after it (what the protocol asks of a tool with
// structured content, for clients that read only text). Failure: `isError` and the error envelope
// (§3) as text, a result rather than a protocol error, so the assistant reads what to fix.
import type { Answer } from './run-operation';

type Json = Record<string, unknown>;
export type ToolResult = { content: Json[]; structuredContent?: Json; isError?: boolean };

// The sentence is read off the app's JSON text rather than a parse of it: a page ends with its
// `has_more` and `next_cursor` (lib/pagination.ts), a record starts with its id. A tool call that
// parsed and serialized the page again cost a tenth of the request it makes.
const PAGE_END = /"has_more":(true|false),"next_cursor":(null|"[^"\\]*")\}\s*$/;
const RECORD_START = /^\{"id":"([^"\\]+)"/;

function sentence(summary: string, json: string): string {
  const page = PAGE_END.exec(json.slice(-300));
  if (page) return page[1] === 'true' ? `${summary}: a page; for the next, call again with cursor ${page[2]}.` : `${summary}: the last page.`;
  const id = RECORD_START.exec(json)?.[1];
  return id ? `${summary}: ${id}.` : `${summary}: done.`;
}

// The structured content as the app's own JSON text, kept beside the parsed value (JSON.stringify
// skips a symbol), so the answer is written without serializing the record again.
const STRUCTURED_TEXT = Symbol('structured content as JSON text');

export function failure(envelope: Json | string): ToolResult {
  return { content: [{ type: 'text', text: typeof envelope === 'string' ? envelope : JSON.stringify(envelope) }], isError: true };
}

/** `uri` names an answer that is not JSON (a PDF, the XML, a page) as the resource it embeds. */
export function resultOf(summary: string, answer: Answer, uri: string): ToolResult {
  if (answer.status >= 400) return failure(answer.text);
  if (answer.bytes) {
    return { content: [{ type: 'resource', resource: { uri, mimeType: answer.contentType, blob: base64(answer.bytes) } }] };
  }
  if (!answer.text) return { content: [{ type: 'text', text: `${summary}: done.` }] };
  if (!answer.contentType.startsWith('application/json')) {
    return { content: [{ type: 'resource', resource: { uri, mimeType: answer.contentType, text: answer.text } }] };
  }
  // Structured content is an object: a list the API answers bare is handed over as `{data: [...]}`.
  const text = answer.text.trimStart().startsWith('[') ? `{"data":${answer.text}}` : answer.text;
  const result = { content: [{ type: 'text', text: sentence(summary, answer.text) }, { type: 'text', text: answer.text }] } as ToolResult;
  // Parsed only if something reads it as a value (an SSE answer, JSON.stringify); the direct answer writes the text.
  Object.defineProperty(result, 'structuredContent', { enumerable: true, get: () => JSON.parse(text) as Json });
  return Object.defineProperty(result, STRUCTURED_TEXT, { value: text });
}

/** The JSON-RPC response carrying `result`, as text. */
export function responseText(id: string | number, result: Record<string, unknown>): string {
  const text = (result as { [STRUCTURED_TEXT]?: string })[STRUCTURED_TEXT];
  if (text === undefined) return JSON.stringify({ jsonrpc: '2.0', id, result });
  // `{"jsonrpc":"2.0","id":…,"result":{"content":[…]}}`: the structured content goes before the two closing braces.
  return `${JSON.stringify({ jsonrpc: '2.0', id, result: { content: result.content } }).slice(0, -2)},"structuredContent":${text}}}`;
}

/** Bytes as standard base64, in chunks (a spread of a whole PDF would overflow the call stack). */
export function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
