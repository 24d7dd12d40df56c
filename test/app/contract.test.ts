// The response check itself must be able to fail: each rule it enforces is shown failing here.
import { describe, expect, it } from 'vitest';
import { call } from '../helpers/api';
import { checkAgainstDocument, matchRoute, primeContract, templatePattern } from '../helpers/contract';

const base = 'https://workspace.test';
const clientUrl = `${base}/v1/clients/cli_01JD5ZQ5X8Y4V1N2K3M4P5Q6R7`;
const json = 'application/json';
const envelope = (code: string) => ({ error: { code, message: 'x', request_id: 'r' } });

describe('responses are checked against /openapi.json', () => {
  it('rejects an undocumented status and a field of the wrong type', async () => {
    await primeContract();
    await expect(checkAgainstDocument('GET', clientUrl, 418, json, {})).rejects.toThrow(/does not document/);
    await expect(checkAgainstDocument('GET', `${base}/v1/clients`, 200, json, { data: 'nope', has_more: false, next_cursor: null })).rejects.toThrow(/does not match/);
    await expect(checkAgainstDocument('GET', clientUrl, 404, json, envelope('teapot'))).rejects.toThrow(/does not match/);
    await expect(checkAgainstDocument('GET', clientUrl, 404, json, envelope('not_found'))).resolves.toBeUndefined();
  });

  it('counts a generic error as documented only where the operation\'s 4XX entry names it', async () => {
    await primeContract();
    // A keyed read names 401 and 429; it reads no body, so 413 is not among them.
    await expect(checkAgainstDocument('GET', clientUrl, 429, json, envelope('rate_limited'))).resolves.toBeUndefined();
    await expect(checkAgainstDocument('GET', clientUrl, 413, json, envelope('payload_too_large'))).rejects.toThrow(/does not document.*range names 401, 429/);
    await expect(checkAgainstDocument('POST', `${base}/v1/clients`, 413, json, envelope('payload_too_large'))).resolves.toBeUndefined();
    // The public gig board takes no key: no 401.
    await expect(checkAgainstDocument('GET', `${base}/v1/gigs`, 401, json, envelope('unauthorized'))).rejects.toThrow(/does not document/);
  });

  it('allows no body on a 204 or a 304, and requires JSON where JSON is declared', async () => {
    await primeContract();
    await expect(checkAgainstDocument('DELETE', clientUrl, 204, null, '')).resolves.toBeUndefined();
    await expect(checkAgainstDocument('DELETE', clientUrl, 204, json, { deleted: true })).rejects.toThrow(/does not declare/);
    await expect(checkAgainstDocument('GET', `${base}/api/rates?symbols=EUR`, 304, null, '')).resolves.toBeUndefined();
    await expect(checkAgainstDocument('GET', clientUrl, 404, 'text/plain', 'Not Found')).rejects.toThrow(/declared as JSON/);
  });

  it('requires the envelope for errors outside the document, and an X-Request-Id everywhere', async () => {
    await primeContract();
    await expect(checkAgainstDocument('GET', `${base}/nowhere`, 404, 'text/plain', 'Not Found')).rejects.toThrow(/envelope/);
    await expect(checkAgainstDocument('PUT', `${base}/health`, 404, json, envelope('not_found'))).resolves.toBeUndefined();
    await expect(checkAgainstDocument('GET', `${base}/docs`, 200, 'text/html', '<html>')).resolves.toBeUndefined();
    await expect(checkAgainstDocument('GET', `${base}/health`, 200, json, { status: 'ok', version: '1' }, new Headers())).rejects.toThrow(/X-Request-Id/);
  });

  it('refuses money beyond 2^53, which a JSON client would round', async () => {
    await primeContract();
    const page = { data: [], has_more: false, next_cursor: null };
    await expect(checkAgainstDocument('GET', `${base}/v1/clients`, 200, json, page)).resolves.toBeUndefined();
    const dashboardUrl = `${base}/api/workflow/dashboard`;
    const money = { invoiced: 2 ** 60, collected: 0, tax_collected: 0, outstanding: 0, overdue: 0, expenses: 0, input_tax: 0, profit: 0 };
    const dashboard = {
      currency: 'USD', period: { from: '2026-01-01', to: '2026-11-22' }, totals: money,
      counts: { clients: 0, active_projects: 0, invoices: { draft: 0, open: 0, paid: 0, void: 0, overdue: 0 } },
      by_currency: [], rates: { as_of: null, stale: false, missing: [] }, activity: [],
    };
    await expect(checkAgainstDocument('GET', dashboardUrl, 200, json, dashboard)).rejects.toThrow(/beyond 2\^53/);
  });

  it('matches ids to path templates, a literal segment first', async () => {
    expect(templatePattern('/v1/invoices/{id}/send').test('/v1/invoices/inv_01JD5ZQ5X8Y4V1N2K3M4P5Q6R7/send')).toBe(true);
    expect(templatePattern('/v1/invoices/{id}').test('/v1/invoices/inv_1/send')).toBe(false);
    expect(templatePattern('/v1/invoices/{id}').test('/v1/invoices/')).toBe(false);
    expect(await matchRoute('/v1/remit/transfers/trf_01JD5ZQ5X8Y4V1N2K3M4P5Q6R7/cancel')).toBe('/v1/remit/transfers/{id}/cancel');
    expect(await matchRoute('/v1/remit/transfer')).toBe('/v1/remit/transfer');
    expect(await matchRoute('/api/keys/not-an-id')).toBe('/api/keys/{id}');
  });
});

describe('request bodies generate usable clients (§8)', () => {
  /**
   * Every property that is both required and defaulted, and every `$ref` to a schema with a default,
   * under `schema` and the components it points to (a create's fields in `ClientInput`, its address in `AddressInput`).
   */
  function problems(schema: unknown, at: string, schemas: Record<string, unknown>, found: string[] = [], seen = new Set<string>()): string[] {
    if (Array.isArray(schema)) schema.forEach((item, i) => problems(item, `${at}[${i}]`, schemas, found, seen));
    else if (schema && typeof schema === 'object') {
      const s = schema as { $ref?: string; required?: string[]; properties?: Record<string, { default?: unknown }> };
      if (s.$ref && !seen.has(s.$ref)) {
        seen.add(s.$ref);
        const component = schemas[s.$ref.replace('#/components/schemas/', '')] ?? { default: s.$ref };
        // A reference to a component that holds no default (an enumeration, a discount) types alike wherever it stands.
        if (JSON.stringify(component).includes('"default":')) found.push(`${at} points to ${s.$ref}`);
        else problems(component, s.$ref, schemas, found, seen);
      }
      for (const name of s.required ?? []) if (s.properties?.[name] && 'default' in s.properties[name]) found.push(`${at}.${name} is required and defaulted`);
      for (const [key, value] of Object.entries(schema)) problems(value, `${at}.${key}`, schemas, found, seen);
    }
    return found;
  }

  it('writes every request body out in place or as components with no default, with no defaulted field required', async () => {
    const res = await call('GET', '/openapi.json');
    const found: string[] = [];
    let bodies = 0;
    for (const [path, operations] of Object.entries(res.body.paths as Record<string, Record<string, any>>)) {
      for (const [method, operation] of Object.entries(operations)) {
        // A body several operations share stands in components.requestBodies, which openapi-typescript reads as a requestBody.
        const ref = operation.requestBody?.$ref as string | undefined;
        const body = ref?.startsWith('#/components/requestBodies/') ? res.body.components.requestBodies[ref.split('/').pop()!] : operation.requestBody;
        const schema = body?.content?.['application/json']?.schema;
        if (!schema) continue;
        bodies++;
        problems(schema, `${method} ${path}`, res.body.components.schemas, found);
        // Both generators type a field a body requires as required only when they find it among the
        // body's own fields or those of a component its allOf names, not one level further down.
        const near = new Set([schema, ...(schema.allOf ?? []).map((part: { $ref?: string }) => (part.$ref ? res.body.components.schemas[part.$ref.split('/').pop()!] : part))]
          .flatMap((s: { properties?: object }) => Object.keys(s?.properties ?? {})));
        for (const name of schema.required ?? []) if (!near.has(name)) found.push(`${method} ${path} requires ${name} out of reach`);
      }
    }
    expect(bodies).toBeGreaterThan(20);
    // openapi-typescript's default settings make a defaulted property required unless its schema
    // stands in place under the requestBody.
    expect(found).toEqual([]);
    // The line items invoices, quotes and recurring invoices take alike are one component, which
    // says its defaults in words: `tax_rate` stays optional in generated clients. An invoice's create
    // and update take them alike, among the fields of `InvoiceInput`.
    const schemas = res.body.components.schemas;
    const createInvoice = res.body.paths['/v1/invoices'].post.requestBody.content['application/json'].schema;
    expect(createInvoice.allOf).toEqual([{ $ref: '#/components/schemas/InvoiceInput' }]);
    const lines = schemas.InvoiceInput.properties.line_items;
    const invoiceLine = schemas[(schemas[lines.$ref.split('/').pop()].items.$ref as string).split('/').pop()!];
    expect(invoiceLine.properties.tax_rate).not.toHaveProperty('default');
    expect(invoiceLine.properties.tax_rate.description).toContain('Defaults to 0.');
    expect(invoiceLine.required).not.toContain('tax_rate');
  });
});
