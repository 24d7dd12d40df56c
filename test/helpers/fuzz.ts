// Generated input against the operations of /openapi.json: random and hostile path ids, query
// values and bodies. Never a 5xx; every answer is documented and in the envelope (call() checks
// each response against the document). fast-check prints the seed of any failure, to replay it.
// The operations are split over a few test files: each file gets fresh storage and its own worker.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, call } from './api';
import { createUser, type TestUser } from './factories';
import { putRates } from './rates';
import { idPrefix, isAdmin, routeTable, type Route } from './route-table';

export const RUNS_PER_ROUTE = 25;
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

const hostile = fc.constantFrom(
  '', ' ', '"', "'; DROP TABLE invoices; --", '../../etc/passwd', '%00', '\u0000', '<script>alert(1)</script>', 'NaN', '-1', '1e309',
  '9'.repeat(40), 'null', 'true', '[]', '{}', '💸', 'a'.repeat(3000), 'NEAR(', '*', 'inv_', 'cli_01JD5ZQ5X8Y4V1N2K3M4P5Q6R7',
);
const anyText = fc.oneof(fc.string({ maxLength: 40 }), hostile, fc.integer().map(String), fc.double().map(String));
const anyJson = fc.oneof(fc.jsonValue({ maxDepth: 3 }), hostile, fc.constant(null), fc.integer({ min: -1e16, max: 1e16 }), fc.double());

const wellFormedId = (prefix: string) =>
  fc.array(fc.constantFrom(...CROCKFORD), { minLength: 26, maxLength: 26 }).map((chars) => `${prefix}_${chars.join('')}`);

/** The property names a request body declares, so generated objects hit real fields. */
function bodyFields(route: Route, doc: any): string[] {
  let schema = route.operation.requestBody?.content['application/json'].schema as any;
  if (schema?.$ref) schema = doc.components.schemas[schema.$ref.split('/').pop()];
  return Object.keys(schema?.properties ?? {});
}

function caseFor(route: Route, doc: any) {
  const prefix = idPrefix(route);
  const queryParams = (route.operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
  const fields = bodyFields(route, doc);
  return fc.record({
    id: prefix ? fc.oneof(wellFormedId(prefix), anyText) : fc.constant(''),
    query: fc.dictionary(fc.constantFrom(...(queryParams.length ? queryParams : ['x'])), anyText, { maxKeys: 3 }),
    body: route.operation.requestBody
      ? fc.oneof(anyJson, fields.length ? fc.dictionary(fc.constantFrom(...fields), anyJson, { maxKeys: fields.length }) : anyJson)
      : fc.constant(undefined),
    rawBody: fc.option(fc.oneof(fc.string({ maxLength: 60 }), fc.constant('{"a":')), { freq: 8 }),
  });
}

class KeyPool {
  private user: TestUser | null = null;
  private used = 0;
  async key(route: Route) {
    if (isAdmin(route)) return ADMIN_TOKEN;
    // Stay under the 120-a-minute limit of one key (10 for the co-pilot) by rotating users.
    if (!this.user || this.used >= (route.path.includes('/ai/') ? 9 : 100)) {
      this.user = await createUser('Fuzz');
      this.used = 0;
    }
    this.used++;
    return this.user.key;
  }
}

export function fuzzRoutes(title: string, select: (route: Route) => boolean) {
  describe(title, async () => {
    const { routes: all, doc } = await routeTable();
    const routes = all.filter(select);
    const pool = new KeyPool();

    it.each(routes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s never answers 5xx', async (_, route) => {
      await putRates({ EUR: 0.9213, GBP: 0.7871, JPY: 151.37 });
      await fc.assert(
        fc.asyncProperty(caseFor(route, doc), async ({ id, query, body, rawBody }) => {
          const path = route.path.replace('{id}', encodeURIComponent(id));
          const search = new URLSearchParams(query as Record<string, string>).toString();
          const res = await call(route.method, `${path}${search ? `?${search}` : ''}`, {
            key: await pool.key(route),
            body: route.method === 'GET' ? undefined : (rawBody ?? body),
            headers: { 'Idempotency-Key': crypto.randomUUID() },
          });
          expect(res.status, `${route.method} ${path}?${search} → ${JSON.stringify(res.body).slice(0, 300)}`).toBeLessThan(500);
          if (res.status >= 400 && res.status !== 404) expect(res.body.error.code).toEqual(expect.any(String));
        }),
        { numRuns: RUNS_PER_ROUTE },
      );
    });
  });
}
