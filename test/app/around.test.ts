import { describe, expect, it } from 'vitest';
import { errorRangeStatuses } from '../../src/http/error-ranges';
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
    // Its own statuses one by one, the generic ones it can give (its role's 403 and a keyed POST's
    // 409 among them) as one 4XX entry that names each.
    expect(Object.keys(create.responses).sort()).toEqual(['201', '422', '4XX', '500']);
    expect(create.responses['422'].$ref).toBe('#/components/responses/422');
    const generic = doc.components.responses[create.responses['4XX'].$ref.split('/').pop()];
    expect(errorRangeStatuses(generic.description)).toEqual([400, 401, 403, 409, 413, 415, 429]);
    expect(generic.description).toContain('`payload_too_large`');
    expect(generic.description).toMatch(/^- 403: .*the message names the role/m);
    const read = doc.components.responses[doc.paths['/v1/clients'].get.responses['4XX'].$ref.split('/').pop()];
    expect(errorRangeStatuses(read.description)).toEqual([401, 429]);
    expect(doc.components.responses['422'].content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
    expect(create.parameters.map((p: { $ref: string }) => p.$ref)).toContain('#/components/parameters/IdempotencyKey');
    expect(doc.components.parameters.IdempotencyKey.name).toBe('Idempotency-Key');
    expect(doc.info.description).toContain('half away from zero');
    expect(doc.components.securitySchemes.ApiKey.scheme).toBe('bearer');
  });

  it('declares each response header a client reads once, and refers to it where it is sent', async () => {
    const doc = (await call('GET', '/openapi.json')).body;
    const rateLimit = ['Retry-After', 'RateLimit-Limit', 'RateLimit-Policy', 'RateLimit-Remaining', 'RateLimit-Reset'];
    const all = ['X-Request-Id', 'X-D1-Bookmark', ...rateLimit, 'Location', 'Idempotent-Replayed'];
    for (const name of all) expect(doc.components.headers[name]?.schema, name).toBeDefined();
    const refers = (response: { headers?: Record<string, { $ref?: string }> }, name: string) => response.headers?.[name]?.$ref === `#/components/headers/${name}`;
    // Every error response: the request id and the bookmark; anything that may be a 429, the limit and when to retry.
    const errors = Object.entries(doc.components.responses as Record<string, any>).filter(([name]) => /^\d{3}$/.test(name) || errorRangeStatuses(doc.components.responses[name].description ?? '').length);
    expect(errors.length).toBeGreaterThan(8);
    for (const [name, response] of errors) {
      for (const header of ['X-Request-Id', 'X-D1-Bookmark']) expect(refers(response, header), `${name} ${header}`).toBe(true);
      const limited = name === '429' || errorRangeStatuses(response.description ?? '').includes(429);
      // A 503 says when to retry too (§3), and a 409 while a keyed request is in flight.
      for (const header of rateLimit) expect(refers(response, header), `${name} ${header}`).toBe(limited || ((name === '409' || name === '503') && header === 'Retry-After'));
    }
    expect(errors.filter(([, response]) => errorRangeStatuses(response.description ?? '').includes(429)).length).toBeGreaterThan(1);
    // The success of every POST that takes Idempotency-Key may be a replay, and says so.
    let keyed = 0;
    for (const item of Object.values(doc.paths as Record<string, Record<string, any>>)) {
      const post = item.post;
      const params = (post?.parameters ?? []).map((p: { $ref?: string; name?: string }) => (p.$ref ? doc.components.parameters[p.$ref.split('/').pop()!] : p));
      if (!params.some((p: { name: string }) => p.name === 'Idempotency-Key')) continue;
      keyed++;
      const [status, answer] = Object.entries(post.responses as Record<string, any>).find(([s]) => s.startsWith('2'))!;
      const success = answer.$ref ? doc.components.responses[answer.$ref.split('/').pop()] : answer;
      expect(refers(success, 'Idempotent-Replayed'), `${post.operationId} ${status}`).toBe(true);
    }
    expect(keyed).toBeGreaterThan(30);
    // The co-pilot's queued job answers where to poll it.
    expect(refers(doc.paths['/v1/ai/suggest'].post.responses['202'], 'Location')).toBe(true);
    // The introduction says once which answers carry these two, rather than on each success.
    expect(doc.info.description).toMatch(/Every response carries `X-Request-Id`/);
    expect(doc.info.description).toMatch(/Every answer that read or wrote records, or was sent a bookmark, carries `X-D1-Bookmark`/);
    // Nothing refers to a header that is not declared.
    const refs = [...JSON.stringify(doc).matchAll(/#\/components\/headers\/([\w-]+)/g)].map((m) => m[1]!);
    expect(refs.filter((name) => !doc.components.headers[name])).toEqual([]);
  });

  it('names every operation with an explicit, unique operationId; one served under both listings is written once', async () => {
    const doc = (await call('GET', '/openapi.json')).body;
    const written = Object.values(doc.paths as Record<string, Record<string, { operationId: string }>>).filter((item) => !('$ref' in item));
    // A path item's `parameters` (its ids, declared once for its operations) is no operation.
    const ids = written.flatMap((ops) => Object.entries(ops).filter(([key]) => key !== 'parameters').map(([, o]) => o.operationId));
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
