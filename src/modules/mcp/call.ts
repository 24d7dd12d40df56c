// What every MCP method handler is handed: who is calling (the key's context, as the API's own
// routes get it), the protocol version and session the request speaks, the tools, and a way to run
// an operation through the app as the caller.
import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import type { ServiceContext } from '../../lib/context';
import { requireKey } from '../../middleware/auth';
import type { KeyPrincipal } from '../../middleware/key-lookup';
import { rootEnv } from '../../lib/database-env';
import { databaseBinding } from '../../lib/databases';
import { createDb, type Db } from '../../lib/db';
import type { ProtocolVersion, Session } from './session';
import { type Operation, operationsOf } from './tools/catalogue';
import { type Runner, runnerFor } from './tools/run-operation';

/** What app.ts hands the server: the app to run operations through, and the document the tools come from. */
export type McpHost = {
  fetch: (request: Request, env: Env, ctx: ExecutionContext) => Response | Promise<Response>;
  document: (origin: string) => Promise<string>;
};

export type McpCall = {
  /** Who the key stands for: enough to list and run tools, which the app itself runs as the key. */
  principal: KeyPrincipal;
  /** The full request context, for the server's own records (proposals): made on first use. */
  context: () => Promise<ServiceContext>;
  requestId: string;
  origin: string;
  version: ProtocolVersion;
  session: Session;
  /** Whether this request's answer may be an SSE stream (its Accept names text/event-stream). */
  canStream: boolean;
  operations: () => Promise<Map<string, Operation>>;
  run: Runner;
  /** The workspace's database at its primary, outside the request's session: what another request just wrote. */
  primary: () => Db;
};

// The tools depend only on the code (the document differs by origin only in its `servers`): built
// once per isolate, on the first call that needs them, and built again only if that failed.
let operations: Promise<Map<string, Operation>> | undefined;

function operationsFrom(host: McpHost, origin: string): Promise<Map<string, Operation>> {
  operations ??= host
    .document(origin)
    .then((text) => operationsOf(JSON.parse(text)))
    .catch((err) => {
      operations = undefined;
      throw err;
    });
  return operations;
}

/**
 * The request's context as the API's routes get it (middleware/auth.ts requireKey): its D1 session on
 * the key's workspace's database. A tool call that only runs an operation never needs it (the app
 * opens its own), so it is made when the server writes a record of its own.
 */
export async function requestContext(c: Context<AppEnv>): Promise<ServiceContext> {
  if (!c.get('ctx')) await requireKey(c, async () => {});
  return c.get('ctx');
}

export function mcpCall(c: Context<AppEnv>, host: McpHost, principal: KeyPrincipal, version: ProtocolVersion, session: Session): McpCall {
  const origin = new URL(c.req.url).origin;
  const env = rootEnv(c.env);
  return {
    principal,
    context: () => requestContext(c),
    requestId: c.get('requestId'),
    origin,
    version,
    session,
    canStream: (c.req.header('Accept') ?? '').includes('text/event-stream'),
    operations: () => operationsFrom(host, origin),
    run: runnerFor({
      // The app runs it as a request of its own: its middleware, its D1 sessions, its answer.
      fetch: async (request) => host.fetch(request, env, c.executionCtx as ExecutionContext),
      origin,
      authorization: c.req.header('Authorization')!,
      requestId: c.get('requestId'),
      address: c.req.header('CF-Connecting-IP'),
    }),
    primary: () => createDb(databaseBinding(env, principal.database)),
  };
}
