// The auth cases every keyed route must pass, in one place: no key, a malformed header, an unknown
// key, and a revoked key are all 401 in the envelope, before any validation or lookup happens.
import { expect } from 'vitest';
import { call, expectError } from './api';
import { createUser } from './factories';

export async function expectKeyRequired(method: string, path: string, body?: unknown) {
  const user = await createUser();
  const revoked = await call('POST', '/api/keys', { key: user.key, body: { name: 'to revoke' } });
  expect((await call('DELETE', `/api/keys/${revoked.body.id}`, { key: user.key })).status).toBe(204);

  const cases: [string, Record<string, string>][] = [
    ['no key', {}],
    ['malformed header', { Authorization: `Token ${user.key}` }],
    ['unknown key', { Authorization: 'Bearer wsk_thisKeyDoesNotExistAnywhere000000000000' }],
    ['revoked key', { Authorization: `Bearer ${revoked.body.key}` }],
  ];
  for (const [label, headers] of cases) {
    const res = await call(method, path, { headers, body });
    expect(res.status, `${label}: ${method} ${path}`).toBe(401);
    expectError(res, 401, 'unauthorized');
  }
}
