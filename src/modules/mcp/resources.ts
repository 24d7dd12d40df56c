// Resources: a document or client by its id, as the API answers it, and an invoice's PDF. Each is
// read through the app with the caller's key, like a tool call: another workspace's id is not found.
import type { McpCall } from './call';
import { RpcError, RPC } from './json-rpc';
import { base64 } from './tools/results';

type Template = { uriTemplate: string; name: string; title: string; description: string; mimeType: string; pattern: RegExp; path: (id: string) => string };

const TEMPLATES: Template[] = [
  { uriTemplate: 'invoice://{id}/pdf', name: 'invoice-pdf', title: 'Invoice PDF', description: 'The invoice as a PDF, as the client gets it (a draft is marked DRAFT).', mimeType: 'application/pdf', pattern: /^invoice:\/\/([^/]+)\/pdf$/, path: (id) => `/v1/invoices/${id}/pdf` },
  { uriTemplate: 'invoice://{id}', name: 'invoice', title: 'Invoice', description: 'An invoice (inv_…) with its lines, totals and state, as GET /v1/invoices/{id} answers.', mimeType: 'application/json', pattern: /^invoice:\/\/([^/]+)$/, path: (id) => `/v1/invoices/${id}` },
  { uriTemplate: 'quote://{id}', name: 'quote', title: 'Quote', description: 'A quote (quo_…), as GET /v1/quotes/{id} answers.', mimeType: 'application/json', pattern: /^quote:\/\/([^/]+)$/, path: (id) => `/v1/quotes/${id}` },
  { uriTemplate: 'credit-note://{id}', name: 'credit-note', title: 'Credit note', description: 'A credit note (cn_…), as GET /v1/credit-notes/{id} answers.', mimeType: 'application/json', pattern: /^credit-note:\/\/([^/]+)$/, path: (id) => `/v1/credit-notes/${id}` },
  { uriTemplate: 'client://{id}', name: 'client', title: 'Client', description: 'A client (cli_…), as GET /v1/clients/{id} answers.', mimeType: 'application/json', pattern: /^client:\/\/([^/]+)$/, path: (id) => `/v1/clients/${id}` },
];

/** MCP's code for a resource that does not exist. */
const RESOURCE_NOT_FOUND = -32002;

export function listResourceTemplates() {
  return { resourceTemplates: TEMPLATES.map(({ uriTemplate, name, title, description, mimeType }) => ({ uriTemplate, name, title, description, mimeType })) };
}

export async function readResource(call: McpCall, params: Record<string, unknown>) {
  const { uri } = params;
  if (typeof uri !== 'string') throw new RpcError(RPC.invalidParams, 'resources/read needs a `uri`.');
  const template = TEMPLATES.find((candidate) => candidate.pattern.test(uri));
  if (!template) throw new RpcError(RESOURCE_NOT_FOUND, `No resource at ${uri}: resources/templates/list names the kinds there are.`);
  const id = decodeURIComponent(template.pattern.exec(uri)![1]!);
  const answer = await call.run({ method: 'GET', path: template.path(encodeURIComponent(id)) });
  if (answer.status >= 400) {
    const message = (JSON.parse(answer.text) as { error?: { message?: string } }).error?.message ?? `HTTP ${answer.status}`;
    throw new RpcError(answer.status === 404 ? RESOURCE_NOT_FOUND : RPC.invalidParams, message);
  }
  const contents = answer.bytes ? { uri, mimeType: template.mimeType, blob: base64(answer.bytes) } : { uri, mimeType: template.mimeType, text: answer.text };
  return { contents: [contents] };
}
