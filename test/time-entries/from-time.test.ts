import { beforeAll, describe, expect, it } from 'vitest';
import { call, errorPaths, expectError } from '../helpers/api';
import { addMember, createClient, createProject, createUser, type TestUser } from '../helpers/factories';
import { putRates } from '../helpers/rates';

const FROM_TIME = '/v1/invoices/from-time';

async function entry(key: string, body: Record<string, unknown>) {
  const res = await call('POST', '/v1/time-entries', { key, body: { spent_date: '2026-10-05', ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const invoiceIds = async (user: TestUser) =>
  Object.fromEntries((await call('GET', '/v1/time-entries?limit=100', { key: user.key })).body.data.map((e: { id: string; invoice_id: string | null }) => [e.id, e.invoice_id]));

const lines = (invoice: { line_items: { description: string; quantity: number; unit_amount: number }[] }) =>
  invoice.line_items.map(({ description, quantity, unit_amount }) => ({ description, quantity, unit_amount }));

describe('an invoice from time', () => {
  beforeAll(() => putRates({ EUR: 0.8 }));

  it('bills one line per project and rate, hours rounded half up at the third decimal', async () => {
    const user = await createUser('Ada');
    const client = await createClient(user.key, { name: 'Zeta' });
    const site = await createProject(user.key, { name: 'Site', client_id: client.id, hourly_rate: 10_000 });
    const app = await createProject(user.key, { name: 'App', client_id: client.id, hourly_rate: 12_000, time_rounding: { increment_minutes: 15, mode: 'up' } });
    const a = await entry(user.key, { project_id: site.id, duration_seconds: 3_602, spent_date: '2026-10-01' });
    const b = await entry(user.key, { project_id: site.id, duration_seconds: 9, spent_date: '2026-10-03', rate: 15_000 });
    const c = await entry(user.key, { project_id: app.id, duration_seconds: 60, spent_date: '2026-10-02' }); // rounds up to 15 min
    const unbillable = await entry(user.key, { project_id: site.id, duration_seconds: 600, billable: false });
    const outside = await entry(user.key, { project_id: site.id, duration_seconds: 600, spent_date: '2026-11-01' });
    const otherClient = await entry(user.key, { project_id: (await createProject(user.key, { hourly_rate: 5_000 })).id, duration_seconds: 600 });

    const res = await call('POST', FROM_TIME, { key: user.key, body: { client_id: client.id, from: '2026-10-01', to: '2026-10-31' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ status: 'draft', client_id: client.id, currency: 'USD', project_id: null });
    expect(lines(res.body).sort((x, y) => x.description.localeCompare(y.description))).toEqual([
      { description: 'App, Oct 2, 2026', quantity: 0.25, unit_amount: 12_000 },
      { description: 'Site, Oct 1, 2026', quantity: 1.001, unit_amount: 10_000 }, // 3602 s = 1.000555… h
      { description: 'Site, Oct 3, 2026', quantity: 0.003, unit_amount: 15_000 }, // 9 s = 0.0025 h, half up
    ]);
    expect(res.body.subtotal).toBe(3_000 + 10_010 + 45);
    // §20: the first and last day of the time billed are its period of supply.
    expect(res.body).toMatchObject({ service_date: null, service_period: { start: '2026-10-01', end: '2026-10-03' } });
    expect(await invoiceIds(user)).toEqual({
      [a.id]: res.body.id, [b.id]: res.body.id, [c.id]: res.body.id, [unbillable.id]: null, [outside.id]: null, [otherClient.id]: null,
    });
    // Billed time is locked, and is not billed again.
    expectError(await call('PATCH', `/v1/time-entries/${a.id}`, { key: user.key, body: { notes: 'x' } }), 409, 'invalid_state');
    const again = await call('POST', FROM_TIME, { key: user.key, body: { client_id: client.id, from: '2026-10-01', to: '2026-10-31' } });
    expectError(again, 422, 'validation_failed');
    expect(again.body.error.details[0].message).toMatch(/Nothing to bill/);
  });

  it('groups by task, user or entry, naming who did what and when', async () => {
    const owner = await createUser('Olga');
    const member = await addMember(owner.key, 'member', 'Max');
    const client = await createClient(owner.key);
    const project = await createProject(owner.key, { name: 'Site', client_id: client.id, hourly_rate: 10_000 });
    await entry(owner.key, { project_id: project.id, duration_seconds: 1_800, task: 'Design', spent_date: '2026-10-01' });
    await entry(member.key, { project_id: project.id, duration_seconds: 1_800, task: 'Design', spent_date: '2026-10-04' });
    await entry(member.key, { project_id: project.id, duration_seconds: 3_600, task: 'Build', spent_date: '2026-10-02' });
    const preview = async (group_by: string) => {
      const res = await call('POST', FROM_TIME, { key: owner.key, body: { client_id: client.id, group_by } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect((await call('DELETE', `/v1/invoices/${res.body.id}`, { key: owner.key })).status).toBe(204); // releases the time
      return lines(res.body).sort((x, y) => x.description.localeCompare(y.description));
    };
    expect(await preview('task')).toEqual([
      { description: 'Build (Site), Oct 2, 2026', quantity: 1, unit_amount: 10_000 },
      { description: 'Design (Site), Oct 1\u2009–\u20094, 2026', quantity: 1, unit_amount: 10_000 },
    ]);
    expect(await preview('user')).toEqual([
      { description: 'Max: Site, Oct 2\u2009–\u20094, 2026', quantity: 1.5, unit_amount: 10_000 },
      { description: 'Olga: Site, Oct 1, 2026', quantity: 0.5, unit_amount: 10_000 },
    ]);
    expect((await preview('entry')).map((l) => l.description)).toEqual(['Site, Build, Max, Oct 2, 2026', 'Site, Design, Max, Oct 4, 2026', 'Site, Design, Olga, Oct 1, 2026']);
    expect((await preview('project'))).toEqual([{ description: 'Site, Oct 1\u2009–\u20094, 2026', quantity: 2, unit_amount: 10_000 }]);
  });

  it('bills each entry once when two requests race over the same time', async () => {
    const user = await createUser();
    const client = await createClient(user.key);
    const project = await createProject(user.key, { client_id: client.id, hourly_rate: 10_000 });
    for (let i = 0; i < 3; i++) await entry(user.key, { project_id: project.id, duration_seconds: 600 + i });
    const answers = await Promise.all([1, 2].map(() => call('POST', FROM_TIME, { key: user.key, body: { client_id: client.id } })));
    const made = answers.filter((res) => res.status === 201);
    expect(made).toHaveLength(1);
    for (const res of answers.filter((r) => r.status !== 201)) expect([409, 422]).toContain(res.status);
    expect(new Set(Object.values(await invoiceIds(user)))).toEqual(new Set([made[0]!.body.id]));
    const invoices = (await call('GET', `/v1/invoices?client_id=${client.id}`, { key: user.key })).body.data;
    expect(invoices).toHaveLength(1);
    // The request that lost used no number: numbering goes on without a gap.
    const next = (await call('POST', '/v1/invoices', { key: user.key, body: { client_id: client.id, line_items: [{ description: 'Design work', quantity: 1, unit_amount: 1_000 }] } })).body;
    expect(Number(next.number.slice(-6))).toBe(Number(made[0]!.body.number.slice(-6)) + 1);
  });

  it('releases the time when the draft is deleted or the invoice voided, to be billed again', async () => {
    const user = await createUser();
    const client = await createClient(user.key);
    const project = await createProject(user.key, { client_id: client.id, hourly_rate: 10_000 });
    const e = await entry(user.key, { project_id: project.id, duration_seconds: 3_600 });
    const bill = async () => {
      const res = await call('POST', FROM_TIME, { key: user.key, body: { client_id: client.id } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.id as string;
    };
    const draft = await bill();
    expect((await call('DELETE', `/v1/invoices/${draft}`, { key: user.key })).status).toBe(204);
    expect((await invoiceIds(user))[e.id]).toBeNull();
    const sent = await bill();
    expect((await call('POST', `/v1/invoices/${sent}/send`, { key: user.key, body: { email: false } })).status).toBe(200);
    expect((await invoiceIds(user))[e.id]).toBe(sent);
    expect((await call('POST', `/v1/invoices/${sent}/void`, { key: user.key })).status).toBe(200);
    expect((await invoiceIds(user))[e.id]).toBeNull();
    const third = await bill();
    expect((await invoiceIds(user))[e.id]).toBe(third);
    expect((await call('GET', `/v1/projects/${project.id}`, { key: user.key })).body.totals.unbilled_amount).toBe(0);
  });

  it('converts a rate in another currency and names it; refuses time without a rate, and nothing to bill', async () => {
    const user = await createUser();
    const client = await createClient(user.key, { currency: 'USD' });
    const euro = await createProject(user.key, { name: 'Euro work', client_id: client.id, currency: 'EUR', hourly_rate: 8_000 });
    await entry(user.key, { project_id: euro.id, duration_seconds: 3_600 });
    const res = await call('POST', FROM_TIME, { key: user.key, body: { client_id: client.id } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(lines(res.body)).toEqual([{ description: 'Euro work, Oct 5, 2026 (at €80.00/h)', quantity: 1, unit_amount: 10_000 }]);

    const unpriced = await createProject(user.key, { name: 'Pro bono', client_id: client.id });
    await entry(user.key, { project_id: unpriced.id, duration_seconds: 60 });
    const noRate = await call('POST', FROM_TIME, { key: user.key, body: { client_id: client.id } });
    expectError(noRate, 422, 'validation_failed');
    expect(noRate.body.error.details[0].message).toContain(unpriced.id);

    const empty = await call('POST', FROM_TIME, { key: user.key, body: { client_id: (await createClient(user.key)).id } });
    expectError(empty, 422, 'validation_failed');
    const foreign = await call('POST', FROM_TIME, { key: user.key, body: { client_id: client.id, project_ids: [(await createProject(user.key)).id] } });
    expect(errorPaths(foreign)).toEqual(['project_ids']);
    const stranger = await createUser();
    expect(errorPaths(await call('POST', FROM_TIME, { key: stranger.key, body: { client_id: client.id } }))).toEqual(['client_id']);
  });

  it('bills billable expenses of the client\'s projects, one line each, converted with the original named, and locks them', async () => {
    const user = await createUser();
    const client = await createClient(user.key, { currency: 'USD' });
    const project = await createProject(user.key, { name: 'Site', client_id: client.id, hourly_rate: 10_000 });
    await entry(user.key, { project_id: project.id, duration_seconds: 3_600 });
    const expense = async (body: Record<string, unknown>) => {
      const res = await call('POST', '/api/workflow/expenses', { key: user.key, body: { category: 'software', amount: 1_000, currency: 'USD', incurred_on: '2026-10-05', billable: true, project_id: project.id, ...body } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body;
    };
    const fonts = await expense({ description: 'Font licence', vendor: 'Foundry', amount: 4_999, currency: 'EUR' });
    const hosting = await expense({ category: 'other', description: null, amount: 1_250 });
    const unbillable = await expense({ billable: false });
    const business = await expense({ project_id: null });
    const later = await expense({ incurred_on: '2026-11-10' });
    const otherClients = await expense({ project_id: (await createProject(user.key, { hourly_rate: 1 })).id });

    const res = await call('POST', FROM_TIME, { key: user.key, body: { client_id: client.id, to: '2026-10-31' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(lines(res.body)).toEqual([
      { description: 'Site, Oct 5, 2026', quantity: 1, unit_amount: 10_000 },
      // 49.99 EUR at 0.8 EUR per USD = 62.4875 USD, half away from zero.
      { description: 'Expense: Font licence (Foundry), Oct 5, 2026 (€49.99)', quantity: 1, unit_amount: 6_249 },
      { description: 'Expense: Other, Oct 5, 2026', quantity: 1, unit_amount: 1_250 },
    ]);
    expect(res.body.line_items.slice(1).map((l: { unit: string }) => l.unit)).toEqual(['C62', 'C62']);
    const billedBy = async (id: string) => (await call('GET', `/api/workflow/expenses/${id}`, { key: user.key })).body.invoice_id;
    expect(await Promise.all([fonts, hosting, unbillable, business, later, otherClients].map((e) => billedBy(e.id)))).toEqual([res.body.id, res.body.id, null, null, null, null]);

    // Billed expenses are locked until the invoice is voided, then billed again.
    expectError(await call('PATCH', `/api/workflow/expenses/${fonts.id}`, { key: user.key, body: { amount: 1 } }), 409, 'invalid_state');
    expectError(await call('DELETE', `/api/workflow/expenses/${hosting.id}`, { key: user.key }), 409, 'invalid_state');
    expect((await call('POST', `/v1/invoices/${res.body.id}/send`, { key: user.key, body: { email: false } })).status).toBe(200);
    expect((await call('POST', `/v1/invoices/${res.body.id}/void`, { key: user.key })).status).toBe(200);
    expect(await billedBy(fonts.id)).toBeNull();
    const expensesOnly = await call('POST', FROM_TIME, { key: user.key, body: { client_id: client.id, to: '2026-10-31', include_expenses: false } });
    expect(lines(expensesOnly.body)).toEqual([{ description: 'Site, Oct 5, 2026', quantity: 1, unit_amount: 10_000 }]);
    expect(await billedBy(fonts.id)).toBeNull();
    // Only expenses left: still an invoice; then nothing at all is 422.
    const rest = await call('POST', FROM_TIME, { key: user.key, body: { client_id: client.id, to: '2026-10-31' } });
    expect(lines(rest.body).map((l) => l.description)).toEqual(['Expense: Font licence (Foundry), Oct 5, 2026 (€49.99)', 'Expense: Other, Oct 5, 2026']);
    expect((await call('DELETE', `/v1/invoices/${rest.body.id}`, { key: user.key })).status).toBe(204);
    expect(await billedBy(hosting.id)).toBeNull();
    expect((await call('DELETE', `/api/workflow/expenses/${hosting.id}`, { key: user.key })).status).toBe(204);
  });
});
