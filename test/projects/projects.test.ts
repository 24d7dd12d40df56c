import { describe, expect, it } from 'vitest';
import { call, errorPaths, expectError } from '../helpers/api';
import { expectKeyRequired } from '../helpers/auth-cases';
import { createClient, createProject, createUser } from '../helpers/factories';

describe.each(['/api/workflow', '/v1'])('projects under %s', (base) => {
  it('creates a project in the client\'s currency and shows zero totals', async () => {
    const user = await createUser();
    const client = await createClient(user.key, { currency: 'EUR' });
    const res = await call('POST', `${base}/projects`, {
      key: user.key,
      body: { name: 'Brand refresh', client_id: client.id, budget: 1_200_000, hourly_rate: 9_500, start_date: '2026-11-01', due_date: '2026-12-15' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ client_id: client.id, currency: 'EUR', status: 'active', budget: 1_200_000, hourly_rate: 9_500, time_rounding: null });
    const got = await call('GET', `${base}/projects/${res.body.id}`, { key: user.key });
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ ...res.body, totals: { currency: 'USD', invoiced: 0, paid: 0, expenses: 0, input_tax: 0, profit: 0, unbilled_amount: 0 } });
  });

  it('validates money, dates and the client reference', async () => {
    const [user, other] = [await createUser(), await createUser()];
    const foreignClient = await createClient(other.key);
    const bad = await call('POST', `${base}/projects`, {
      key: user.key,
      body: { name: 'X', budget: 10.5, hourly_rate: -1, start_date: '2026-02-30', status: 'done' },
    });
    expectError(bad, 422, 'validation_failed');
    expect(errorPaths(bad).sort()).toEqual(['budget', 'hourly_rate', 'start_date', 'status']);

    const reversed = await call('POST', `${base}/projects`, { key: user.key, body: { name: 'X', start_date: '2026-05-02', due_date: '2026-05-01' } });
    expect(errorPaths(reversed)).toEqual(['due_date']);

    const foreign = await call('POST', `${base}/projects`, { key: user.key, body: { name: 'X', client_id: foreignClient.id } });
    expectError(foreign, 422, 'validation_failed');
    expect(errorPaths(foreign)).toEqual(['client_id']);
  });

  it('patches, filters and deletes', async () => {
    const user = await createUser();
    const client = await createClient(user.key);
    const a = await createProject(user.key, { name: 'Website', client_id: client.id });
    const b = await createProject(user.key, { name: 'Mobile app' });
    const patched = await call('PATCH', `${base}/projects/${b.id}`, { key: user.key, body: { status: 'on_hold', due_date: '2027-01-31' } });
    expect(patched.body).toMatchObject({ status: 'on_hold', due_date: '2027-01-31', name: 'Mobile app' });

    const byClient = await call('GET', `${base}/projects?client_id=${client.id}`, { key: user.key });
    expect(byClient.body.data.map((p: { id: string }) => p.id)).toEqual([a.id]);
    const onHold = await call('GET', `${base}/projects?status=on_hold`, { key: user.key });
    expect(onHold.body.data.map((p: { id: string }) => p.id)).toEqual([b.id]);
    const byName = await call('GET', `${base}/projects?q=mobile`, { key: user.key });
    expect(byName.body.data.map((p: { id: string }) => p.id)).toEqual([b.id]);

    expect((await call('DELETE', `${base}/projects/${a.id}`, { key: user.key })).status).toBe(204);
    const all = await call('GET', `${base}/projects`, { key: user.key });
    expect(all.body.data.map((p: { id: string }) => p.id)).toEqual([b.id]);
  });

  it('keeps each user\'s projects to themselves', async () => {
    const [owner, other] = [await createUser(), await createUser()];
    const project = await createProject(owner.key);
    for (const [method, body] of [['GET'], ['PATCH', { name: 'Mine' }], ['DELETE']] as const) {
      expectError(await call(method, `${base}/projects/${project.id}`, { key: other.key, body }), 404, 'not_found');
    }
    expect((await call('GET', `${base}/projects`, { key: other.key })).body.data).toEqual([]);
  });

  it('requires a key', async () => {
    await expectKeyRequired('GET', `${base}/projects`);
    await expectKeyRequired('POST', `${base}/projects`, { name: 'x' });
    await expectKeyRequired('PATCH', `${base}/projects/prj_01JD5ZQ5X8Y4V1N2K3M4P5Q6R7`, { name: 'x' });
  });
});
