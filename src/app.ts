// The app: shared middleware, the one error envelope, the two listings, and the pages around them.
import { Hono } from 'hono';
import { TrieRouter } from 'hono/router/trie-router';
import { config } from './config';
import { DOCS_CSP, docsInitScript, docsPage } from './docs-page';
import type { AppEnv } from './env';
import { ApiError, notFound, onError } from './errors';
import { allowedMethodsOf } from './lib/allowed-methods';
import { mountLazily } from './http/lazy-routes';
import { apiListing } from './listings/api';
import { pageListing } from './listings/pages';
import { v1Listing } from './listings/v1';
import { browserPolicy, securityHeaders } from './middleware/browser';
import { d1Session } from './middleware/d1-session';
import { requestId } from './middleware/request-id';
import { claimDeliveriesWithWrites } from './modules/webhooks/claim-with-writes';

// strict: false, so a path with a trailing slash is the same path without it (§1): routing, the
// 405 check and everything that reads c.req.path see it without the slash. A plain Hono: the app's
// own routes take no input, and the operations' schemas are built with their routers, on first use.
// Its routes are a few pages and one catch-all per module prefix, which a trie matches at once as they
// are added; Hono's default router compiles them all into one regular expression on the first
// request, some 10 ms of a cold start's CPU for no faster match here.
export const app = new Hono<AppEnv>({ strict: false, router: new TrieRouter() });

app.use('*', requestId);
app.use('*', securityHeaders);
app.use('*', browserPolicy);
// A misconfigured worker answers 500 to everything (logged once per request, naming the variable).
app.use('*', async (c, next) => {
  config(c.env);
  await next();
});
app.use('*', d1Session);
// A write's events may have made webhook deliveries: its batches claim them, and they go on the
// queue once the answer is out.
app.use('*', claimDeliveriesWithWrites);
app.onError(onError);
let allowedMethods: { known: number; of: (path: string) => string[] } | undefined;
// No route matched: a known path asked with another method is a 405 naming the methods it takes.
// Route middleware (the key check) never ran, so this comes before any 401. A path under a module's
// prefix has had its routers built on the way here, so their routes are among those checked.
app.notFound((c) => {
  const known = modules.builtRoutes();
  if (allowedMethods?.known !== known.length) allowedMethods = { known: known.length, of: allowedMethodsOf([...app.routes, ...known]) };
  const allow = allowedMethods.of(c.req.path);
  if (allow.length) {
    throw new ApiError('method_not_allowed', `${c.req.method} is not allowed on ${c.req.path}; it takes ${allow.join(', ')}.`, undefined, { Allow: allow.join(', ') });
  }
  throw notFound('Route');
});

app.get('/health', (c) => c.json({ status: 'ok' as const, version: config(c.env).APP_VERSION }, 200));

// The modules' routers, each built on the first request to a path it serves.
const modules = mountLazily(app, [...apiListing, ...v1Listing, ...pageListing], onError);

// Building the document takes some hundreds of milliseconds of CPU on a cold isolate, most of it
// building every router. It gives way to the isolate's other requests between routers and steps
// (the assets of /docs, when `wrangler dev` serves them from the same process; any request in production).
const giveWay = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** The app's operations with every module's: what /openapi.json describes. */
async function describedApp() {
  const [{ OpenAPIHono }, { healthRoute }] = await Promise.all([import('@hono/zod-openapi'), import('./health')]);
  const described = new OpenAPIHono<AppEnv>();
  described.openAPIRegistry.registerPath(healthRoute);
  for (const { at, router } of await modules.loadAll(giveWay)) described.route(at, router);
  const { registerWebhookEvents } = await import('./modules/webhooks/openapi');
  registerWebhookEvents(described.openAPIRegistry);
  described.openAPIRegistry.registerComponent('securitySchemes', 'ApiKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'A user API key, `wsk_…`, from an accepted invitation or POST /api/keys.',
  });
  described.openAPIRegistry.registerComponent('securitySchemes', 'AdminToken', {
    type: 'http',
    scheme: 'bearer',
    description: 'The operator\'s ADMIN_TOKEN.',
  });
  return described;
}
/** The document as served at `origin`. */
async function documentAt(origin: string): Promise<string> {
  const [{ OPENAPI_INFO, finishedDocument }, described] = await Promise.all([import('./openapi/document'), describedApp()]);
  await giveWay();
  const generated = described.getOpenAPI31Document({ ...OPENAPI_INFO, servers: [{ url: origin }] });
  await giveWay();
  return JSON.stringify(finishedDocument(generated));
}

// The document depends only on the code and the origin it is served at: built once per isolate and
// origin (its examples' dates are those of the day it was built). /docs loads it on every visit. Each
// request builds its own rather than awaiting another's build, which spans timers of that request.
const documents = new Map<string, string>();
async function cachedDocumentAt(origin: string): Promise<string> {
  let text = documents.get(origin);
  if (!text) {
    text = await documentAt(origin);
    if (documents.size < 8) documents.set(origin, text);
  }
  return text;
}
app.get('/openapi.json', async (c) => c.body(await cachedDocumentAt(new URL(c.req.url).origin), 200, { 'Content-Type': 'application/json' }));

// The MCP server (§23), for assistants: its code loads on the first call to /mcp. It lists the
// operations of the document above as tools and runs each one through this app, so a tool call meets
// the same key check, roles, limits, validation and records as the API. GET and DELETE, which a
// stateless server does not serve, answer 405 like any other method a path does not take.
app.post('/mcp', async (c) => (await import('./modules/mcp/endpoint')).serveMcp(c, { fetch: (request, env, ctx) => app.fetch(request, env, ctx), document: cachedDocumentAt }));

app.get('/docs', (c) => c.html(docsPage, 200, { 'Content-Security-Policy': DOCS_CSP }));
app.get('/docs/init.js', (c) => c.body(docsInitScript, 200, { 'Content-Type': 'text/javascript; charset=utf-8' }));
