// What keeps a client or a project (§5): while anything names it, a delete is 409 `conflict`
// naming what does, and so is moving a project to another client; nothing changes, no event.
import { describe, expect, it } from 'vitest';
import { todayIn } from '../../src/lib/time';
import { type ApiResponse, call, expectError } from '../helpers/api';
import { createClient, createInvoice, createProject, createUser, oneLine } from '../helpers/factories';

const created = async (path: string, key: string, body: Record<string, unknown>) => {
  const res = await call('POST', path, { key, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};
const quote = (key: string, body: Record<string, unknown>) => created('/v1/quotes', key, { line_items: oneLine, ...body });
const recurring = (key: string, body: Record<string, unknown>) =>
  created('/v1/recurring-invoices', key, { line_items: oneLine, interval: 'month', start_date: todayIn('UTC'), ...body });
const timeEntry = (key: string, projectId: string) => created('/v1/time-entries', key, { project_id: projectId, duration_seconds: 3_600 });
const expense = (key: string, projectId: string) => created('/api/workflow/expenses', key, { category: 'software', amount: 1_200, project_id: projectId });

const eventTypes = async (key: string, id: string) =>
  ((await call('GET', '/api/events?limit=100', { key })).body.data as { type: string; data: { object: { id: string } } }[])
    .filter((e) => e.data.object.id === id)
    .map((e) => e.type);

function expectConflictNaming(res: ApiResponse, ...names: string[]) {
  expectError(res, 409, 'conflict');
  for (const name of names) expect(res.body.error.message).toContain(name);
}

describe('deleting a client', () => {
  it('is 409 naming its quotes, recurring invoices and projects, and leaves all of it as it was', async () => {
    const user = await createUser();
    const client = await createClient(user.key);
    await quote(user.key, { client_id: client.id });
    await recurring(user.key, { client_id: client.id });
    const project = await createProject(user.key, { client_id: client.id });
    await timeEntry(user.key, project.id);
    const res = await call('DELETE', `/v1/clients/${client.id}`, { key: user.key });
    expectConflictNaming(res, 'has quotes, recurring invoices and projects;', 'archive it');
    expect((await call('GET', `/v1/clients/${client.id}`, { key: user.key })).body).toEqual(client);
    // The project keeps its client, and its unbilled time stays billable to it.
    expect((await call('GET', `/v1/projects/${project.id}`, { key: user.key })).body.client_id).toBe(client.id);
    expect(await eventTypes(user.key, client.id)).toEqual(['client.created']);
  });

  it('is 409 for a client with only a project, or only a quote, or only a recurring invoice', async () => {
    const user = await createUser();
    const [a, b, c] = [await createClient(user.key), await createClient(user.key), await createClient(user.key)];
    await createProject(user.key, { client_id: a.id });
    await quote(user.key, { client_id: b.id });
    await recurring(user.key, { client_id: c.id });
    expectConflictNaming(await call('DELETE', `/api/workflow/clients/${a.id}`, { key: user.key }), 'projects');
    expectConflictNaming(await call('DELETE', `/v1/clients/${b.id}`, { key: user.key }), 'quotes');
    expectConflictNaming(await call('DELETE', `/v1/clients/${c.id}`, { key: user.key }), 'recurring invoices');
  });

  it('goes once nothing names it', async () => {
    const user = await createUser();
    const client = await createClient(user.key);
    const project = await createProject(user.key, { client_id: client.id });
    expect((await call('DELETE', `/v1/projects/${project.id}`, { key: user.key })).status).toBe(204);
    expect((await call('DELETE', `/v1/clients/${client.id}`, { key: user.key })).status).toBe(204);
    expect(await eventTypes(user.key, client.id)).toEqual(['client.deleted', 'client.created']);
  });
});

describe('deleting a project', () => {
  it('is 409 naming its quotes or recurring invoices, as for invoices, expenses and time entries', async () => {
    const user = await createUser();
    const client = await createClient(user.key);
    const [quoted, repeated, invoiced] = [
      await createProject(user.key, { client_id: client.id }),
      await createProject(user.key, { client_id: client.id }),
      await createProject(user.key, { client_id: client.id }),
    ];
    await quote(user.key, { client_id: client.id, project_id: quoted.id });
    await recurring(user.key, { client_id: client.id, project_id: repeated.id });
    await createInvoice(user.key, { client_id: client.id, project_id: invoiced.id });
    await timeEntry(user.key, invoiced.id);
    await expense(user.key, invoiced.id);
    expectConflictNaming(await call('DELETE', `/v1/projects/${quoted.id}`, { key: user.key }), 'quotes');
    expectConflictNaming(await call('DELETE', `/v1/projects/${repeated.id}`, { key: user.key }), 'recurring invoices');
    expectConflictNaming(await call('DELETE', `/api/workflow/projects/${invoiced.id}`, { key: user.key }), 'invoices', 'expenses', 'time entries');
    for (const project of [quoted, repeated, invoiced]) {
      expect((await call('GET', `/v1/projects/${project.id}`, { key: user.key })).status).toBe(200);
      expect(await eventTypes(user.key, project.id)).toEqual(['project.created']);
    }
  });
});

describe('moving a project to another client', () => {
  it('is 409 while anything names the project, and free otherwise', async () => {
    const user = await createUser();
    const [first, second] = [await createClient(user.key), await createClient(user.key)];
    const project = await createProject(user.key, { client_id: first.id });
    await timeEntry(user.key, project.id);
    const moved = await call('PATCH', `/v1/projects/${project.id}`, { key: user.key, body: { client_id: second.id, name: 'Renamed' } });
    expectConflictNaming(moved, 'time entries');
    expect((await call('GET', `/v1/projects/${project.id}`, { key: user.key })).body).toMatchObject({ client_id: first.id, name: 'Website' });
    expectConflictNaming(await call('PATCH', `/api/workflow/projects/${project.id}`, { key: user.key, body: { client_id: null } }), 'time entries');
    // Naming the client it already has is no move.
    const same = await call('PATCH', `/v1/projects/${project.id}`, { key: user.key, body: { client_id: first.id, name: 'Renamed' } });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ client_id: first.id, name: 'Renamed' });

    const quoted = await createProject(user.key, { client_id: first.id });
    await quote(user.key, { client_id: first.id, project_id: quoted.id });
    expectConflictNaming(await call('PATCH', `/v1/projects/${quoted.id}`, { key: user.key, body: { client_id: second.id } }), 'quotes');

    const free = await createProject(user.key, { client_id: first.id });
    const freed = await call('PATCH', `/v1/projects/${free.id}`, { key: user.key, body: { client_id: second.id } });
    expect(freed.status).toBe(200);
    expect(freed.body.client_id).toBe(second.id);
  });
});
