// Actions that take no fields (void, cancel, pause, rotate a link, send a test webhook…) still read
// their body: nothing or `{}` is fine, and an unknown field is a 422 naming it, before anything
// changes. Generated from /openapi.json, so a new body-less action is covered without a list here.
import { beforeAll, describe, expect, it } from 'vitest';
import { call, errorPaths, expectError } from '../helpers/api';
import { createUser } from '../helpers/factories';
import { putRates } from '../helpers/rates';
import { recordKind } from '../helpers/records';
import { label, paramPrefix, parametersIn, routeTable } from '../helpers/route-table';

const { routes } = await routeTable();
const takesNoFields = routes.filter((route) => {
  const schema = route.operation.requestBody?.content['application/json']?.schema as { properties?: object; additionalProperties?: boolean } | undefined;
  return route.method === 'POST' && parametersIn(route, 'path').length === 1 && schema?.additionalProperties === false && !Object.keys(schema.properties ?? {}).length;
});

describe('actions that take no fields', () => {
  beforeAll(() => putRates({ EUR: 0.9213 }));

  it('are found in the document', () => {
    expect(takesNoFields.map(label)).toEqual(expect.arrayContaining(['POST /v1/invoices/{id}/void', 'POST /v1/remit/transfers/{id}/cancel', 'POST /v1/recurring-invoices/{id}/pause']));
  });

  it.each(takesNoFields.map((route) => [label(route), route] as const))('%s: an unknown field is a 422 and changes nothing', async (_, route) => {
    const owner = await createUser();
    const prefix = paramPrefix(parametersIn(route, 'path')[0]!)!;
    const id = await recordKind(prefix, label(route)).states.at(-1)!(owner.key);
    const action = route.path.replace('{id}', id);
    const record = action.slice(0, action.lastIndexOf('/'));
    const before = await call('GET', record, { key: owner.key });
    const refused = await call('POST', action, { key: owner.key, body: { reason: 'typo' } });
    expectError(refused, 422, 'validation_failed');
    expect(errorPaths(refused)).toEqual(['reason']);
    const after = await call('GET', record, { key: owner.key });
    expect(after.body).toEqual(before.body);
  });
});
