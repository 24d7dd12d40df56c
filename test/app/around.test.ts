import { describe, expect, it } from 'vitest';
import { call } from '../helpers/api';

describe('around the API', () => {
  it('reports health and version', async () => {
    const res = await call('GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', version: expect.stringMatching(/^\d+\.\d+\.\d+$/) });
  });

  it('publishes one OpenAPI 3.1 document for both listings, errors described', async () => {
    const res = await call('GET', '/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/v1/clients'].get).toBeDefined();
    // The same operations under /api/workflow: the path item refers to the /v1 one.
    expect(doc.paths['/api/workflow/clients']).toEqual({ $ref: '#/paths/~1v1~1clients' });
    expect(doc.paths['/api/workflow/invoices/{id}/send']).toEqual({ $ref: '#/paths/~1v1~1invoices~1%7Bid%7D~1send' });
    expect(doc.paths['/api/invitations/accept'].post.security).toEqual([]);
    const create = doc.paths['/v1/clients'].post;
    expect(Object.keys(create.responses).sort()).toEqual(['201', '400', '401', '403', '409', '413', '415', '422', '429', '500']);
    expect(create.responses['422'].$ref).toBe('#/components/responses/422');
    expect(doc.components.responses['422'].content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
    expect(create.parameters.map((p: { $ref: string }) => p.$ref)).toContain('#/components/parameters/IdempotencyKey');
    expect(doc.components.parameters.IdempotencyKey.name).toBe('Idempotency-Key');
    expect(doc.info.description).toContain('half away from zero');
    expect(doc.components.securitySchemes.ApiKey.scheme).toBe('bearer');
  });

  it('names every operation with an explicit, unique operationId; one served under both listings is written once', async () => {
    const doc = (await call('GET', '/openapi.json')).body;
    const written = Object.values(doc.paths as Record<string, Record<string, { operationId: string }>>).filter((item) => !('$ref' in item));
    const ids = written.flatMap((ops) => Object.values(ops).map((o) => o.operationId));
    expect(ids.every((id) => /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.paths['/v1/invoices/{id}/send'].post.operationId).toBe('sendInvoice');
    expect(doc.paths['/api/workflow/expenses'].get.operationId).toBe('listExpenses');
  });

  it('serves an interactive reference whose scripts come from this worker', async () => {
    const res = await call('GET', '/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toContain('text/html');
    const scripts = [...String(res.body).matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    // Its scripts and styles, and the document it preloads: all of this worker.
    for (const src of scripts) expect(src).toMatch(/^\/(docs\/|openapi\.json$)/);
    const init = await call('GET', '/docs/init.js');
    expect(init.body).toContain("fetch('/openapi.json')");
  });
});
