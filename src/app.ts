// The app: shared middleware, the one error envelope, the two listings, and the pages around them.
import { OpenAPIHono, z } from '@hono/zod-openapi';
import { config } from './config';
import { DOCS_CSP, docsInitScript, docsPage } from './docs-page';
import type { AppEnv } from './env';
import { ApiError, notFound, onError } from './errors';
import { allowedMethodsOf } from './lib/allowed-methods';
import { defineRoute, jsonContent } from './http/define-route';
import { throwOnInvalid } from './lib/validation';
import { apiListing } from './listings/api';
import { v1Listing } from './listings/v1';
import { browserPolicy, securityHeaders } from './middleware/browser';
import { d1Session } from './middleware/d1-session';
import { requestId } from './middleware/request-id';
import { hostedInvoiceRoutes } from './modules/invoices/hosted-routes';
import { hostedCreditNoteRoutes } from './modules/credit-notes/hosted-routes';
import { hostedPayRoutes, providerWebhookRoutes, sandboxRoutes } from './modules/payments/public-routes';
import { hostedQuoteRoutes } from './modules/quotes/hosted-routes';
import { claimDeliveriesWithWrites } from './modules/webhooks/claim-with-writes';
import { payoutWebhookRoutes } from './modules/transfers/wise-webhook';
import { registerWebhookEvents } from './modules/webhooks/openapi';
import { OPENAPI_INFO } from './openapi-info';
import { withSharedListings } from './openapi-listings';
import { withInlineRequestBodies } from './openapi-request-bodies';
import { withRequestExamples } from './openapi-examples';
import { withSharedComponents } from './openapi-shared-components';
import { withRecordsAsSummaries } from './openapi-summaries';
import { withTagDescriptions } from './openapi-tags';

// strict: false, so a path with a trailing slash is the same path without it (§1): routing, the
// 405 check and everything that reads c.req.path see it without the slash.
export const app = new OpenAPIHono<AppEnv>({ defaultHook: (result) => throwOnInvalid(result), strict: false });

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
let allowedMethods: ((path: string) => string[]) | undefined;
// No route matched: a known path asked with another method is a 405 naming the methods it takes.
// Route middleware (the key check) never ran, so this comes before any 401.
app.notFound((c) => {
  allowedMethods ??= allowedMethodsOf(app.routes);
  const allow = allowedMethods(c.req.path);
  if (allow.length) {
    throw new ApiError('method_not_allowed', `${c.req.method} is not allowed on ${c.req.path}; it takes ${allow.join(', ')}.`, undefined, { Allow: allow.join(', ') });
  }
  throw notFound('Route');
});

const Health = z.object({ status: z.literal('ok'), version: z.string() }).openapi('Health');

app.openapi(
  defineRoute({
    method: 'get', path: '/health', operationId: 'getHealth', tags: ['Meta'], access: 'public',
    summary: 'Liveness',
    responses: { 200: jsonContent(Health, 'The worker is up.') },
  }),
  (c) => c.json({ status: 'ok' as const, version: config(c.env).APP_VERSION }, 200),
);

app.route('/api', apiListing);
app.route('/v1', v1Listing);
app.route('/i', hostedInvoiceRoutes);
// After the hosted routes: their rate limit (use '*' on /i) covers the pay button's press too.
app.route('/i', hostedPayRoutes);
app.route('/c', hostedCreditNoteRoutes);
app.route('/q', hostedQuoteRoutes);
app.route('/webhooks', providerWebhookRoutes);
app.route('/webhooks', payoutWebhookRoutes);
// The sandbox provider's checkout: only where PAYMENTS_SANDBOX is "true" (its lookups find nothing otherwise).
app.route('/sandbox', sandboxRoutes);

registerWebhookEvents(app.openAPIRegistry);
app.openAPIRegistry.registerComponent('securitySchemes', 'ApiKey', {
  type: 'http',
  scheme: 'bearer',
  description: 'A user API key, `wsk_…`, from an accepted invitation or POST /api/keys.',
});
app.openAPIRegistry.registerComponent('securitySchemes', 'AdminToken', {
  type: 'http',
  scheme: 'bearer',
  description: 'The operator\'s ADMIN_TOKEN.',
});
// The document depends only on the code and the origin it is served at: built once per isolate and
// origin (its examples' dates are those of the day it was built). /docs loads it on every visit.
const documents = new Map<string, string>();
app.get('/openapi.json', (c) => {
  const origin = new URL(c.req.url).origin;
  let text = documents.get(origin);
  if (!text) {
    text = JSON.stringify(withSharedListings(withRequestExamples(withTagDescriptions(withRecordsAsSummaries(withSharedComponents(withInlineRequestBodies(app.getOpenAPI31Document({ ...OPENAPI_INFO, servers: [{ url: origin }] }))))))));
    if (documents.size < 8) documents.set(origin, text);
  }
  return c.body(text, 200, { 'Content-Type': 'application/json' });
});

app.get('/docs', (c) => c.html(docsPage, 200, { 'Content-Security-Policy': DOCS_CSP }));
app.get('/docs/init.js', (c) => c.body(docsInitScript, 200, { 'Content-Type': 'text/javascript; charset=utf-8' }));
