// tools/list and tools/call. A key lists the tools its role may call (a viewer, the reads), and a
// call runs the operation through the app as the caller: the API's own validation answers a bad
// argument, with the error envelope as the tool's result (`isError`), so the assistant can fix it.
import { hasRole, type Role } from '../../../lib/context';
import type { McpCall } from '../call';
import { isObject, RpcError, RPC } from '../json-rpc';
import { confirm } from '../proposals/decide';
import { CONFIRM_TOOL, needsAYes } from '../proposals/needs-a-yes';
import { propose, type Streamed } from '../proposals/propose';
import type { Operation, Tool } from './catalogue';
import { refusal } from './envelope';
import { resultOf, type ToolResult } from './results';
import { requestFor } from './run-operation';

/** The workspace role an operation's `x-required-role` asks for: public and account-wide ones, any. */
const neededRole = (operation: Operation): Role => (['viewer', 'member', 'admin', 'owner'].includes(operation.role) ? (operation.role as Role) : 'viewer');

const CONFIRM: Tool = {
  name: CONFIRM_TOOL,
  title: 'Confirm a proposal',
  description: 'Performs what a tool that moves money or reaches the client proposed, once the user has agreed to its summary: exactly once (a second confirm answers the first result), with the API key that proposed it, within 10 minutes. Answers what the proposed operation answers.\n\nRole: `member`.',
  inputSchema: {
    type: 'object',
    properties: { proposal_id: { type: 'string', pattern: '^mcp_[0-9A-HJKMNP-TV-Z]{26}$', description: 'From the proposing call\'s answer.' } },
    required: ['proposal_id'],
    additionalProperties: false,
  },
  annotations: { title: 'Confirm a proposal', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
};

// Lists by role, made once per isolate from the same operations.
const listed = new WeakMap<Map<string, Operation>, Map<Role, Tool[]>>();

export async function listTools(call: McpCall): Promise<{ tools: Tool[] }> {
  const operations = await call.operations();
  let byRole = listed.get(operations);
  if (!byRole) listed.set(operations, (byRole = new Map()));
  let tools = byRole.get(call.principal.role);
  if (!tools) {
    tools = [...operations.values()].filter((operation) => hasRole(call.principal.role, neededRole(operation))).map((operation) => operation.tool);
    if (hasRole(call.principal.role, 'member')) tools.push(CONFIRM);
    byRole.set(call.principal.role, tools);
  }
  return { tools };
}


export async function callTool(call: McpCall, params: Record<string, unknown>): Promise<ToolResult | Streamed> {
  const { name } = params;
  const args = params.arguments ?? {};
  if (typeof name !== 'string') throw new RpcError(RPC.invalidParams, 'tools/call needs the tool\'s `name`.');
  if (!isObject(args)) throw new RpcError(RPC.invalidParams, '`arguments` must be an object.');
  const operations = await call.operations();
  if (name === CONFIRM_TOOL) {
    if (!hasRole(call.principal.role, 'member')) return forbidden(call, 'member');
    if (typeof args.proposal_id !== 'string') return refusal(call.requestId, 'validation_failed', 'The request is not valid.', [{ path: 'proposal_id', message: 'Required: the proposal_id the proposing call answered.' }]);
    return confirm(await call.context(), call.run, args.proposal_id, (tool) => operations.get(tool), call.requestId);
  }
  const operation = operations.get(name);
  if (!operation) throw new RpcError(RPC.invalidParams, `Unknown tool: ${name}. tools/list names the tools this key may call.`);
  // The role first, as the API checks it before it reads anything (§1): a tool the key does not list.
  const role = neededRole(operation);
  if (!hasRole(call.principal.role, role)) return forbidden(call, role);
  const request = requestFor(operation, args);
  if ('missing' in request) {
    return refusal(call.requestId, 'validation_failed', 'The request is not valid.', request.missing.map((path) => ({ path, message: 'Required.' })));
  }
  if (needsAYes(operation.name)) return propose(call, operation, request, args);
  // An operation that requires a key and asks no yes gets one of its own: each call is a new request.
  const answer = await call.run({ ...request, ...(operation.idempotencyKeyRequired ? { idempotencyKey: crypto.randomUUID() } : {}) });
  return resultOf(operation.summary, answer, `${call.origin}${request.path}`);
}

const forbidden = (call: McpCall, role: Role) =>
  refusal(call.requestId, 'forbidden', `This operation needs the ${role} role or higher in this workspace; your role is ${call.principal.role}.`);
