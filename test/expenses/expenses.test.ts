import { describe, expect, it } from 'vitest';
import { todayUtc } from '../../src/lib/time';
import { call, errorPaths, expectError } from '../helpers/api';
import { expectKeyRequired } from '../helpers/auth-cases';
import { createProject, createUser } from '../helpers/factories';

const record = async (key: string, body: Record<string, unknown>) => {
  const res = await call('POST', '/api/workflow/expenses', { key, body: { category: 'software', amount: 1_200, ...body } });
  expect(res.status).toBe(201);
  return res.body;
};

describe('expenses', () => {
  it('records business and project expenses with their scope', async () => {
    const user = await createUser();
    const project = await createProject(user.key);
    const business = await record(user.key, { vendor: 'Figma', description: 'Seats' });
    expect(business).toMatchObject({ scope: 'business', project_id: null, currency: 'USD', incurred_on: todayUtc(), billable: false, amount: 1_200 });
    const travel = await record(user.key, { project_id: project.id, category: 'travel', amount: 35_000, currency: 'JPY', incurred_on: '2026-03-04', billable: true });
    expect(travel).toMatchObject({ scope: 'project', project_id: project.id, currency: 'JPY', amount: 35_000, billable: true });
    expect((await call('GET', `/api/workflow/expenses/${travel.id}`, { key: user.key })).body).toEqual(travel);
    const events = (await call('GET', '/api/events?type=expense.created', { key: user.key })).body.data;
    expect(events.map((e: { data: { object: unknown } }) => e.data.object)).toEqual([travel, business]);
    expect(events[0].actor).toEqual({ type: 'user', id: user.id, name: 'Test User' });
  });

  it('is spent in its project\'s currency, else the workspace\'s default_currency, unless it names one', async () => {
    const user = await createUser();
    expect((await call('PATCH', '/api/workspace', { key: user.key, body: { default_currency: 'EUR' } })).status).toBe(200);
    const project = await createProject(user.key, { currency: 'GBP' });
    expect((await record(user.key, {})).currency).toBe('EUR');
    expect((await record(user.key, { project_id: project.id })).currency).toBe('GBP');
    expect((await record(user.key, { project_id: project.id, currency: 'JPY' })).currency).toBe('JPY');
    expect((await record(user.key, { currency: 'USD' })).currency).toBe('USD');
    // Another workspace's project is still no project.
    const other = await createProject((await createUser()).key, { currency: 'CHF' });
    expect(errorPaths(await call('POST', '/api/workflow/expenses', { key: user.key, body: { category: 'software', amount: 1, project_id: other.id } }))).toEqual(['project_id']);
  });

  it('validates amount, category, currency and dates, naming each', async () => {
    const user = await createUser();
    const res = await call('POST', '/api/workflow/expenses', {
      key: user.key,
      body: { category: 'yachts', amount: 0, currency: 'EURO', incurred_on: '2026-02-30', receipt: 'x' },
    });
    expectError(res, 422, 'validation_failed');
    expect(errorPaths(res).sort()).toEqual(['amount', 'category', 'currency', 'incurred_on', 'receipt']);
  });

  it('refuses another user\'s project, naming project_id', async () => {
    const [user, other] = [await createUser(), await createUser()];
    const theirs = await createProject(other.key);
    const res = await call('POST', '/api/workflow/expenses', { key: user.key, body: { category: 'fees', amount: 100, project_id: theirs.id } });
    expectError(res, 422, 'validation_failed');
    expect(errorPaths(res)).toEqual(['project_id']);
  });

  it('filters by scope, project, category and period', async () => {
    const user = await createUser();
    const project = await createProject(user.key);
    const a = await record(user.key, { incurred_on: '2026-01-15' });
    const b = await record(user.key, { project_id: project.id, category: 'hardware', incurred_on: '2026-02-15' });
    const c = await record(user.key, { category: 'hardware', incurred_on: '2026-03-15' });
    const ids = async (q: string) => (await call('GET', `/api/workflow/expenses?${q}`, { key: user.key })).body.data.map((e: { id: string }) => e.id);
    expect(await ids('')).toEqual([c.id, b.id, a.id]);
    expect(await ids('scope=business')).toEqual([c.id, a.id]);
    expect(await ids('scope=project')).toEqual([b.id]);
    expect(await ids(`project_id=${project.id}`)).toEqual([b.id]);
    expect(await ids('category=hardware')).toEqual([c.id, b.id]);
    expect(await ids('from=2026-02-01&to=2026-02-28')).toEqual([b.id]);
    expectError(await call('GET', '/api/workflow/expenses?scope=personal', { key: user.key }), 422, 'validation_failed');
  });

  it('updates and deletes; a project with expenses cannot be deleted', async () => {
    const user = await createUser();
    const project = await createProject(user.key);
    const expense = await record(user.key, { project_id: project.id });
    expectError(await call('DELETE', `/api/workflow/projects/${project.id}`, { key: user.key }), 409, 'conflict');
    const moved = await call('PATCH', `/api/workflow/expenses/${expense.id}`, { key: user.key, body: { project_id: null, amount: 999 } });
    expect(moved.body).toMatchObject({ scope: 'business', project_id: null, amount: 999, category: 'software' });
    expectError(await call('PATCH', `/api/workflow/expenses/${expense.id}`, { key: user.key, body: { amount: -1 } }), 422, 'validation_failed');
    expect((await call('DELETE', `/api/workflow/expenses/${expense.id}`, { key: user.key })).status).toBe(204);
    expectError(await call('GET', `/api/workflow/expenses/${expense.id}`, { key: user.key }), 404, 'not_found');
  });

  it('hides each user\'s expenses from everyone else', async () => {
    const [owner, other] = [await createUser(), await createUser()];
    const expense = await record(owner.key, {});
    for (const [method, body] of [['GET'], ['PATCH', { amount: 1 }], ['DELETE']] as const) {
      expectError(await call(method, `/api/workflow/expenses/${expense.id}`, { key: other.key, body }), 404, 'not_found');
    }
    expect((await call('GET', '/api/workflow/expenses', { key: other.key })).body.data).toEqual([]);
    expect((await call('GET', `/api/workflow/expenses/${expense.id}`, { key: owner.key })).body.amount).toBe(1_200);
  });

  it('is only under /api and requires a key', async () => {
    const user = await createUser();
    expectError(await call('GET', '/v1/expenses', { key: user.key }), 404, 'not_found');
    await expectKeyRequired('GET', '/api/workflow/expenses');
    await expectKeyRequired('POST', '/api/workflow/expenses', { category: 'other', amount: 1 });
  });
});
