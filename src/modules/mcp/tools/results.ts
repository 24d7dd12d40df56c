// A tool call's result from the operation's answer. Success: the JSON as `structuredContent`, a
// short sentence first, and the JSON as text after it (what the protocol asks of a tool with
// structured content, for clients that read only text). Failure: `isError` and the error envelope
// (§3) as text, a result rather than a protocol error, so the assistant reads what to fix.
import type { Answer } from './run-operation';

type Json = Record<string, unknown>;
export type ToolResult = { content: Json[]; structuredContent?: Json; isError?: boolean };

const str = (value: unknown) => (typeof value === 'string' && value ? value : undefined);

/** How a record names itself in a sentence: `INV-000042 (inv_…, open)`, `Acme GmbH (cli_…)`. */
function labelOf(record: Json): string {
  const name = str(record.number) ?? str(record.name) ?? str(record.title);
  const facts = [str(record.id), str(record.status)].filter(Boolean).join(', ');
  return [name, facts && (name ? `(${facts})` : facts)].filter(Boolean).join(' ');
}

function sentence(summary: string, body: Json): string {
  if (Array.isArray(body.data)) {
    const more = body.has_more ? `; more after this page: call again with cursor "${String(body.next_cursor)}"` : '';
    return `${summary}: ${body.data.length} found${more}.`;
  }
  const label = labelOf(body);
  return label ? `${summary}: ${label}.` : `${summary}: done.`;
}

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
  const parsed = JSON.parse(answer.text) as Json | unknown[];
  // Structured content is an object: a list the API answers bare is handed over as `{data: [...]}`.
  const body = Array.isArray(parsed) ? { data: parsed } : parsed;
  const result: ToolResult = { content: [{ type: 'text', text: sentence(summary, body) }, { type: 'text', text: answer.text }], structuredContent: body };
  return Object.defineProperty(result, STRUCTURED_TEXT, { value: Array.isArray(parsed) ? `{"data":${answer.text}}` : answer.text });
}

// The structured content as the app's own JSON text, kept beside the parsed value (JSON.stringify
// skips a symbol), so the answer is written without serializing the record again.
const STRUCTURED_TEXT = Symbol('structured content as JSON text');

/** The JSON-RPC response carrying `result`, as text. */
export function responseText(id: string | number, result: Record<string, unknown>): string {
  const text = (result as { [STRUCTURED_TEXT]?: string })[STRUCTURED_TEXT];
  if (text === undefined) return JSON.stringify({ jsonrpc: '2.0', id, result });
  const { structuredContent: _, ...rest } = result;
  // `{"jsonrpc":"2.0","id":…,"result":{"content":[…]}}`: the structured content goes before the two closing braces.
  return `${JSON.stringify({ jsonrpc: '2.0', id, result: rest }).slice(0, -2)},"structuredContent":${text}}}`;
}

/** Bytes as standard base64, in chunks (a spread of a whole PDF would overflow the call stack). */
export function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
