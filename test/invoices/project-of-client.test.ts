// §5: an invoice's project is a project of its client, on create and on every PATCH that changes
// either side, as recurring invoices already require.
import { describe, expect, it } from 'vitest';
import { call, errorPaths, expectError } from '../helpers/api';
import { createClient, createInvoice, createProject, createUser, oneLine } from '../helpers/factories';

describe('an invoice\'s project belongs to its client', () => {
  it('refuses on create a project of another client, or of none', async () => {
    const user = await createUser();
    const [acme, globex] = [await createClient(user.key), await createClient(user.key, { name: 'Globex' })];
    const globexSite = await createProject(user.key, { client_id: globex.id });
    const internal = await createProject(user.key);
    for (const project of [globexSite, internal]) {
      const res = await call('POST', '/v1/invoices', { key: user.key, body: { client_id: acme.id, project_id: project.id, line_items: oneLine } });
      expectError(res, 422, 'validation_failed');
      expect(errorPaths(res)).toEqual(['project_id']);
    }
    const acmeSite = await createProject(user.key, { client_id: acme.id });
    expect((await call('POST', '/v1/invoices', { key: user.key, body: { client_id: acme.id, project_id: acmeSite.id, line_items: oneLine } })).status).toBe(201);
  });

  it('refuses a PATCH that changes only the client, only the project, or both, apart', async () => {
    const user = await createUser();
    const [acme, globex] = [await createClient(user.key), await createClient(user.key, { name: 'Globex' })];
    const [acmeSite, globexSite] = [await createProject(user.key, { client_id: acme.id }), await createProject(user.key, { client_id: globex.id })];
    const invoice = await createInvoice(user.key, { client_id: acme.id, project_id: acmeSite.id });
    const patch = (body: Record<string, unknown>) => call('PATCH', `/v1/invoices/${invoice.id}`, { key: user.key, body });

    for (const body of [{ client_id: globex.id }, { project_id: globexSite.id }, { client_id: acme.id, project_id: globexSite.id }]) {
      const res = await patch(body);
      expectError(res, 422, 'validation_failed');
      expect(errorPaths(res)).toEqual(['project_id']);
    }
    expect((await call('GET', `/v1/invoices/${invoice.id}`, { key: user.key })).body).toMatchObject({ client_id: acme.id, project_id: acmeSite.id });

    // Moving both together, or dropping the project, is fine.
    expect((await patch({ client_id: globex.id, project_id: globexSite.id })).body).toMatchObject({ client_id: globex.id, project_id: globexSite.id });
    expect((await patch({ client_id: acme.id, project_id: null })).body).toMatchObject({ client_id: acme.id, project_id: null });
  });
});
