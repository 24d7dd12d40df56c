// Every keyed operation × every role, generated from /openapi.json: a role at or above the one the
// operation states (`x-required-role`) gets past the role check; a lower one is a 403 whose message
// names the role needed, before anything about the request is looked at (the body sent is empty,
// the ids unknown). A keyed route that states no role fails here.
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError } from '../helpers/api';
import { type Role, type TestUser, workspaceWithEveryRole } from '../helpers/factories';
import { putRates } from '../helpers/rates';
import { fill, isAdmin, isPublic, label, paramPrefix, parametersIn, type Route, routeTable } from '../helpers/route-table';

const ROLES: Role[] = ['viewer', 'member', 'admin', 'owner'];
const WORKSPACE_ROLES = ['any', ...ROLES];
const rank = (role: string) => (role === 'any' ? 0 : ROLES.indexOf(role as Role));

/** A well-formed id that matches nothing, so an allowed call stops at 404/422 and changes nothing. */
const unknownId = (prefix: string | null) => `${prefix ?? 'x'}_01JA0000000000000000000000`;

function pathFor(route: Route): string {
  const values = Object.fromEntries(parametersIn(route, 'path').map((p) => [p.name, unknownId(paramPrefix(p))]));
  return fill(route.path, values);
}

let keys: Record<Role, TestUser>;

// Read while collecting, so each operation is a test of its own (four requests), not one test
// looping over a hundred operations against a single time limit.
const { routes } = await routeTable();
const keyed = routes.filter((r) => !isPublic(r) && !isAdmin(r));

beforeAll(async () => {
  keys = await workspaceWithEveryRole();
  await putRates({ EUR: 0.92 }); // so that rates-backed reads answer, rather than 503
});

describe('roles', () => {
  it('every operation states the role it needs, in x-required-role and in words', () => {
    const missing: string[] = [];
    for (const route of routes) {
      const role = route.operation['x-required-role'];
      const expected = isPublic(route) ? ['public'] : isAdmin(route) ? ['operator'] : WORKSPACE_ROLES;
      const description = route.operation.description ?? '';
      const inWords = role === 'any' ? 'Role: any member' : role === 'public' ? 'Public' : role === 'operator' ? 'ADMIN_TOKEN' : `Role: \`${role}\``;
      if (!role || !expected.includes(role)) missing.push(`${label(route)}: ${role ?? 'no x-required-role'}`);
      else if (!description.includes(inWords)) missing.push(`${label(route)}: the description does not say "${inWords}"`);
    }
    expect(missing).toEqual([]);
  });

  it('covers every keyed operation', () => {
    expect(keyed.length).toBeGreaterThan(40);
  });

  it.each(keyed.map((r) => [label(r), r] as const))('%s admits each role at or above the one needed and refuses the ones below with a 403 naming it', async (_, route) => {
    const needed = route.operation['x-required-role']!;
    const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : {};
    const wrong: string[] = [];
    for (const role of ROLES) {
      const res = await call(route.method, pathFor(route), { key: keys[role].key, body });
      const allowed = rank(role) >= rank(needed);
      if (allowed && (res.status === 403 || res.status >= 500)) wrong.push(`${label(route)} as ${role}: ${res.status}, expected to pass the role check`);
      if (!allowed) {
        if (res.status !== 403) wrong.push(`${label(route)} as ${role}: ${res.status}, expected 403`);
        else {
          expectError(res, 403, 'forbidden');
          if (!res.body.error.message.includes(needed)) wrong.push(`${label(route)} as ${role}: the message does not name ${needed}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});
