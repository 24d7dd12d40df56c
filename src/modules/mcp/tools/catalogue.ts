// The tools: one per operation of /v1 (and of /api/workflow's expenses and dashboard, and
// /api/rates), read from the very document /openapi.json serves, which the route definitions
// generate. Nothing here describes an operation: a new route is a new tool, with its operationId as
// the name, its summary and role as the description, its path parameters, query and body as one input
// schema, and its answer's schema as the output schema.
import { CONFIRM_TOOL, needsAYes, PROPOSAL_SCHEMA } from '../proposals/needs-a-yes';
import { asObjectSchema, flatObject, inlined, type JsonSchema } from './json-schema';

/** The paths whose operations are tools. */
const TOOL_PATHS = [/^\/v1\//, /^\/api\/workflow\/(expenses|dashboard)(\/|$)/, /^\/api\/rates(\/|$)/];

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** What the server does with a successful answer: JSON becomes structured content, anything else an embedded resource. */
export type AnswerKind = 'json' | 'text' | 'binary' | 'empty';

export type Tool = {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations: { title: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
};

/** How to make the operation's request from a tool call's arguments. */
export type Operation = {
  name: string;
  method: string;
  /** The path with its parameters in braces: `/v1/invoices/{id}`. */
  path: string;
  /** The role the operation needs (`x-required-role`): public, any, viewer, member, admin or owner. */
  role: string;
  summary: string;
  pathParams: string[];
  queryParams: string[];
  hasBody: boolean;
  idempotencyKeyRequired: boolean;
  answer: AnswerKind;
  tool: Tool;
};

type Json = Record<string, any>;

function answerKind(document: Json, responses: Json): { kind: AnswerKind; schema?: JsonSchema } {
  const [status, response] = Object.entries(responses).find(([code]) => /^2\d\d$/.test(code)) ?? [];
  if (!status) return { kind: 'empty' };
  const content = (inlined(document, response) as Json).content as Record<string, { schema?: JsonSchema }> | undefined;
  if (!content) return { kind: 'empty' };
  if (content['application/json']) return { kind: 'json', schema: content['application/json'].schema };
  const type = Object.keys(content)[0] ?? '';
  return { kind: /^text\/|xml/.test(type) ? 'text' : 'binary' };
}

function describe(operation: Json, proposes: boolean): string {
  const parts = [`${operation.summary}.`, operation.description as string | undefined];
  if (proposes) parts.push(`Moves money or reaches the client, so the first call only proposes it: show the user the summary, and once they agree call ${CONFIRM_TOOL} with the proposal_id (or the client is asked directly, where it can be).`);
  return parts.filter(Boolean).join('\n\n');
}

function operationOf(document: Json, path: string, pathItem: Json, method: string, operation: Json): Operation {
  const parameters = [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])].map((p: Json) => inlined(document, p) as Json);
  const pathParams = parameters.filter((p) => p.in === 'path');
  const queryParams = parameters.filter((p) => p.in === 'query');
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const param of [...pathParams, ...queryParams]) {
    properties[param.name] = { ...param.schema, ...(param.description ? { description: param.description } : {}) };
    if (param.required) required.push(param.name);
  }
  const body = operation.requestBody ? (inlined(document, operation.requestBody) as Json).content?.['application/json']?.schema : undefined;
  let closed = true;
  let alternatives: Json = {};
  if (body) {
    const flat = flatObject(body);
    for (const name of Object.keys(flat.properties)) {
      if (name in properties) throw new Error(`${operation.operationId}: the body's "${name}" has the name of a parameter`);
    }
    Object.assign(properties, flat.properties);
    required.push(...flat.required);
    closed = flat.closed;
    alternatives = flat.alternatives;
  }
  const proposes = needsAYes(operation.operationId);
  const { kind, schema } = answerKind(document, operation.responses ?? {});
  const upper = method.toUpperCase();
  const reads = upper === 'GET';
  const title = operation.summary as string;
  const output = schema ? asObjectSchema(schema) : undefined;
  const tool: Tool = {
    name: operation.operationId,
    title,
    description: describe(operation, proposes),
    inputSchema: { type: 'object', properties, ...(required.length ? { required } : {}), ...alternatives, ...(closed ? { additionalProperties: false } : {}) },
    ...(output ? { outputSchema: proposes ? { type: 'object', anyOf: [output, PROPOSAL_SCHEMA] } : output } : {}),
    annotations: {
      title,
      readOnlyHint: reads,
      destructiveHint: upper === 'DELETE' || /^void[A-Z]/.test(operation.operationId),
      idempotentHint: reads || upper === 'PUT' || upper === 'DELETE',
      // Sends and transfers reach people and systems outside the workspace.
      openWorldHint: proposes,
    },
  };
  return {
    name: operation.operationId,
    method: upper,
    path,
    role: operation['x-required-role'] ?? 'public',
    summary: title,
    pathParams: pathParams.map((p) => p.name),
    queryParams: queryParams.map((p) => p.name),
    hasBody: Boolean(body),
    idempotencyKeyRequired: parameters.some((p) => p.in === 'header' && p.name === 'Idempotency-Key' && p.required),
    answer: kind,
    tool,
  };
}

/** Every operation the document lists under the tool paths, in the document's order, by operationId. */
export function operationsOf(document: Json): Map<string, Operation> {
  const operations = new Map<string, Operation>();
  for (const [path, item] of Object.entries(document.paths as Record<string, Json>)) {
    // An /api/workflow path item that refers to its /v1 twin is the same operation, listed once.
    if (item.$ref || !TOOL_PATHS.some((pattern) => pattern.test(path))) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (operation?.operationId) operations.set(operation.operationId, operationOf(document, path, item, method, operation));
    }
  }
  return operations;
}
