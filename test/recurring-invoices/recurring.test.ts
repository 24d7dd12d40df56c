// Recurring invoices through the worker and its cron (§12): set up, issue each period once however
// the cron runs, skip what passed while paused, complete, send with auto_send; invoice.overdue once;
// reminders once per day of days_after_due.
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryBudget, withQueryBudget } from '../../src/lib/query-budget';
import { issueDueInvoices } from '../../src/modules/recurring-invoices/issue';
import { todayIn } from '../../src/modules/recurring-invoices/schedule';
import { markOverdueInvoices } from '../../src/modules/invoices/overdue';
import { queueReminders } from '../../src/modules/invoices/reminders';
import { call, errorPaths, expectError } from '../helpers/api';
import { addMember, createClient, createProject, createUser, oneLine } from '../helpers/factories';
import { runScheduled } from '../helpers/worker';

afterEach(() => vi.restoreAllMocks());

const today = () => todayIn('UTC');
const addDaysTo = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

async function setUp(key: string, body: Record<string, unknown>) {
  const res = await call('POST', '/v1/recurring-invoices', { key, body: { line_items: oneLine, interval: 'month', start_date: today(), ...body } });
  if (res.status !== 201) throw new Error(`recurring: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Moves the schedule's start (and so every date) back, as if time had passed. */
async function startedDaysAgo(id: string, days: number) {
  const start = addDaysTo(today(), -days);
  await env.DB.prepare('UPDATE recurring_invoices SET start_date = ?, next_issue_date = ?, next_issue_at = ? WHERE id = ?').bind(start, start, `${start}T00:00:00.000Z`, id).run();
}

const issuedBy = async (key: string, id: string) => (await call('GET', `/v1/invoices?recurring_invoice_id=${id}&limit=100`, { key })).body.data;

describe('setting up a recurring invoice', () => {
  it('answers every field, with next_issue_date and upcoming from the schedule', async () => {
    const owner = await createUser();
    const client = await createClient(owner.key, { currency: 'USD' });
    const start = addDaysTo(today(), 1);
    const rin = await setUp(owner.key, { client_id: client.id, start_date: start, interval: 'week', interval_count: 2, max_occurrences: 2 });
    expect(rin).toMatchObject({
      id: expect.stringMatching(/^rin_/), status: 'active', client_id: client.id, currency: 'USD', due_in_days: 30, interval: 'week', interval_count: 2,
      start_date: start, auto_send: false, time_zone: 'UTC', next_issue_date: start, upcoming: [start, addDaysTo(start, 14)], invoices_created: 0, last_invoice_id: null,
    });
    expect(rin.line_items[0]).toMatchObject({ description: 'Design work', quantity: 10, unit_amount: 10_000, amount: 100_000 });
    expect((await call('GET', `/api/workflow/recurring-invoices/${rin.id}`, { key: owner.key })).body.id).toBe(rin.id);
    expect((await call('GET', '/api/events?type=recurring_invoice.created', { key: owner.key })).body.data).toHaveLength(1);
  });

  it('refuses a past start in its zone, interval_count 0 or 13, an unknown zone, another client\'s project, writing nothing', async () => {
    const owner = await createUser();
    const client = await createClient(owner.key);
    const other = await createClient(owner.key, { name: 'Other' });
    const theirProject = await createProject(owner.key, { client_id: other.id });
    const cases: [Record<string, unknown>, string][] = [
      [{ start_date: addDaysTo(todayIn('Pacific/Pago_Pago'), -1), time_zone: 'Pacific/Pago_Pago' }, 'start_date'],
      [{ interval_count: 0 }, 'interval_count'],
      [{ interval_count: 13 }, 'interval_count'],
      [{ time_zone: 'Mars/Olympus_Mons' }, 'time_zone'],
      [{ project_id: theirProject.id }, 'project_id'],
      [{ interval: 'fortnight' }, 'interval'],
    ];
    for (const [body, path] of cases) {
      const res = await call('POST', '/v1/recurring-invoices', { key: owner.key, body: { client_id: client.id, line_items: oneLine, interval: 'month', start_date: today(), ...body } });
      expectError(res, 422, 'validation_failed');
      expect(errorPaths(res), JSON.stringify(body)).toEqual([path]);
    }
    expect((await call('GET', '/v1/recurring-invoices', { key: owner.key })).body.data).toEqual([]);
    const viewer = await addMember(owner.key, 'viewer');
    expectError(await call('POST', '/v1/recurring-invoices', { key: viewer.key, body: { client_id: client.id, line_items: oneLine, interval: 'month', start_date: today() } }), 403, 'forbidden');
  });
});

describe('the cron', () => {
  it('stays within its D1 query budget, and the next run carries on where it stopped', async () => {
    const owner = await createUser();
    const client = await createClient(owner.key);
    // One schedule behind by 12 weekly periods, and 12 schedules due once.
    const behind = await setUp(owner.key, { client_id: client.id, interval: 'week' });
    await startedDaysAgo(behind.id, 7 * 11);
    for (let i = 0; i < 12; i++) await startedDaysAgo((await setUp(owner.key, { client_id: client.id })).id, 1);
    const count = async () => (await call('GET', '/v1/invoices?limit=100', { key: owner.key })).body.data.length;
    const runs: { issued: number; used: number }[] = [];
    for (let run = 0; run < 20 && (await count()) < 24; run++) {
      const budget = new QueryBudget(20);
      runs.push({ issued: await issueDueInvoices(withQueryBudget(env, budget)), used: budget.used });
    }
    expect(runs.length).toBeGreaterThan(1);
    for (const { issued, used } of runs) {
      expect(issued).toBeGreaterThan(0);
      expect(used).toBeLessThanOrEqual(20);
    }
    expect(await count()).toBe(24);
    const caughtUp = await issuedBy(owner.key, behind.id);
    expect(new Set(caughtUp.map((i: { issue_date: string }) => i.issue_date)).size).toBe(12);
  });

  it('spends one D1 round trip on each period it issues, beyond reading what is due', async () => {
    const owner = await createUser();
    const client = await createClient(owner.key);
    for (let i = 0; i < 5; i++) await startedDaysAgo((await setUp(owner.key, { client_id: client.id })).id, 1);
    const budget = new QueryBudget(100);
    const issued = await issueDueInvoices(withQueryBudget(env, budget));
    expect(issued).toBeGreaterThanOrEqual(5);
    expect(budget.used).toBe(issued + 1);
  });

  it('issues each due period once, numbered from the workspace sequence, even when two runs overlap', async () => {
    const owner = await createUser();
    const client = await createClient(owner.key);
    const rin = await setUp(owner.key, { client_id: client.id, interval: 'week', due_in_days: 14 });
    await startedDaysAgo(rin.id, 15); // periods 0, 1 and 2 have come
    await Promise.all([issueDueInvoices(env), issueDueInvoices(env), runScheduled()]);
    await issueDueInvoices(env);
    const issued = await issuedBy(owner.key, rin.id);
    expect(issued).toHaveLength(3);
    expect(issued.map((i: { number: string }) => i.number).sort()).toEqual(['INV-000001', 'INV-000002', 'INV-000003']);
    const first = issued.find((i: { issue_date: string }) => i.issue_date === addDaysTo(today(), -15));
    expect(first).toMatchObject({ status: 'draft', due_date: addDaysTo(today(), -1), recurring_invoice_id: rin.id, total: 100_000 });
    const after = (await call('GET', `/v1/recurring-invoices/${rin.id}`, { key: owner.key })).body;
    expect(after).toMatchObject({ invoices_created: 3, next_issue_date: addDaysTo(today(), 6) });
    const created = (await call('GET', '/api/events?type=invoice.created', { key: owner.key })).body.data;
    expect(created).toHaveLength(3);
    expect(created[0].actor).toEqual({ type: 'system', id: null, name: 'recurring' });
  });

  it('judges "today" in each schedule\'s zone: a date comes to Kiritimati (+14) a day before Pago Pago (−11)', async () => {
    const owner = await createUser();
    const client = await createClient(owner.key);
    const day = addDaysTo(todayIn('Pacific/Kiritimati'), 1);
    const east = await setUp(owner.key, { client_id: client.id, start_date: day, time_zone: 'Pacific/Kiritimati' });
    const west = await setUp(owner.key, { client_id: client.id, start_date: day, time_zone: 'Pacific/Pago_Pago' });
    const hour = 3_600_000;
    const beginsIn = (offsetHours: number) => Date.parse(`${day}T00:00:00Z`) - offsetHours * hour;
    await issueDueInvoices(env, beginsIn(14) - hour);
    expect(await issuedBy(owner.key, east.id)).toEqual([]);
    await issueDueInvoices(env, beginsIn(14) + hour);
    expect(await issuedBy(owner.key, east.id)).toHaveLength(1);
    expect(await issuedBy(owner.key, west.id)).toEqual([]);
    await issueDueInvoices(env, beginsIn(-11) + hour);
    expect((await issuedBy(owner.key, west.id)).map((i: { issue_date: string }) => i.issue_date)).toEqual([day]);
  });

  it('skips periods that passed while paused, and completes at max_occurrences', async () => {
    const owner = await createUser();
    const client = await createClient(owner.key);
    const rin = await setUp(owner.key, { client_id: client.id, interval: 'week', max_occurrences: 3 });
    await call('POST', `/v1/recurring-invoices/${rin.id}/pause`, { key: owner.key });
    await startedDaysAgo(rin.id, 15);
    await issueDueInvoices(env);
    expect(await issuedBy(owner.key, rin.id)).toEqual([]);
    const resumed = (await call('POST', `/v1/recurring-invoices/${rin.id}/resume`, { key: owner.key })).body;
    // Periods at -15, -8 and -1 days are skipped, and do not count against max_occurrences.
    expect(resumed).toMatchObject({ status: 'active', next_issue_date: addDaysTo(today(), 6), upcoming: [6, 13, 20].map((d) => addDaysTo(today(), d)) });
    await env.DB.prepare('UPDATE recurring_invoices SET max_occurrences = 1 WHERE id = ?').bind(rin.id).run();
    await env.DB.prepare('UPDATE recurring_invoices SET next_issue_date = ?, next_issue_at = ? WHERE id = ?').bind(today(), `${today()}T00:00:00.000Z`, rin.id).run();
    await issueDueInvoices(env);
    const done = (await call('GET', `/v1/recurring-invoices/${rin.id}`, { key: owner.key })).body;
    expect(done).toMatchObject({ status: 'completed', next_issue_date: null, upcoming: [], invoices_created: 1 });
    expect((await call('GET', '/api/events?type=recurring_invoice.completed', { key: owner.key })).body.data).toHaveLength(1);
    expectError(await call('POST', `/v1/recurring-invoices/${rin.id}/resume`, { key: owner.key }), 409, 'invalid_state');
  });

  it('sends and emails with auto_send', async () => {
    const owner = await createUser();
    const client = await createClient(owner.key, { email: 'ap@client.example' });
    const rin = await setUp(owner.key, { client_id: client.id, auto_send: true });
    vi.spyOn(env.EMAILS_QUEUE, 'sendBatch').mockResolvedValue({ metadata: { metrics: { backlogCount: 0, backlogBytes: 0 } } } as unknown as QueueSendBatchResponse);
    await issueDueInvoices(env);
    const [invoice] = await issuedBy(owner.key, rin.id);
    expect(invoice).toMatchObject({ status: 'open', hosted_url: expect.stringContaining('/i/') });
    expect((await call('GET', `/v1/invoices/${invoice.id}/deliveries`, { key: owner.key })).body.data).toEqual([expect.objectContaining({ kind: 'invoice', to: ['ap@client.example'] })]);
  });

  it('writes invoice.overdue once when the due date has passed in the workspace\'s zone', async () => {
    const owner = await createUser();
    const client = await createClient(owner.key);
    const res = await call('POST', '/v1/invoices', { key: owner.key, body: { client_id: client.id, line_items: oneLine, issue_date: addDaysTo(today(), -40), due_date: addDaysTo(today(), -2) } });
    await call('POST', `/v1/invoices/${res.body.id}/send`, { key: owner.key, body: { email: false } });
    const current = await call('POST', '/v1/invoices', { key: owner.key, body: { client_id: client.id, line_items: oneLine } });
    await call('POST', `/v1/invoices/${current.body.id}/send`, { key: owner.key, body: { email: false } });
    await markOverdueInvoices(env);
    await markOverdueInvoices(env);
    const overdue = (await call('GET', '/api/events?type=invoice.overdue', { key: owner.key })).body.data;
    expect(overdue.map((e: { data: { object: { id: string } } }) => e.data.object.id)).toEqual([res.body.id]);
  });

  it('queues each reminder of days_after_due once, with the hosted link, when reminders are on', async () => {
    const owner = await createUser();
    await call('PATCH', '/api/workspace', { key: owner.key, body: { reminders: { enabled: true, days_after_due: [3, 10] } } });
    const client = await createClient(owner.key, { email: 'ap@client.example' });
    const res = await call('POST', '/v1/invoices', { key: owner.key, body: { client_id: client.id, line_items: oneLine, issue_date: addDaysTo(today(), -40), due_date: addDaysTo(today(), -5) } });
    const queued: unknown[] = [];
    vi.spyOn(env.EMAILS_QUEUE, 'sendBatch').mockImplementation(async (batch) => {
      for (const m of batch) queued.push(m.body);
      return { metadata: { metrics: { backlogCount: 0, backlogBytes: 0 } } } as unknown as QueueSendBatchResponse;
    });
    await call('POST', `/v1/invoices/${res.body.id}/send`, { key: owner.key, body: { email: false } });
    await queueReminders(env);
    await queueReminders(env);
    const deliveries = (await call('GET', `/v1/invoices/${res.body.id}/deliveries`, { key: owner.key })).body.data;
    // Due 5 days ago: the 3-day reminder has come, the 10-day one not yet.
    expect(deliveries).toEqual([expect.objectContaining({ kind: 'reminder', to: ['ap@client.example'], status: 'queued' })]);
    expect(queued).toHaveLength(1);
    await env.DB.prepare('UPDATE invoices SET due_date = ? WHERE id = ?').bind(addDaysTo(today(), -11), res.body.id).run();
    await queueReminders(env);
    expect((await call('GET', `/v1/invoices/${res.body.id}/deliveries`, { key: owner.key })).body.data).toHaveLength(2);
  });

  it('emails a client at most once per invoice per run, and never later for the days that run passed over', async () => {
    const owner = await createUser();
    await call('PATCH', '/api/workspace', { key: owner.key, body: { reminders: { enabled: true, days_after_due: [3, 10, 30] } } });
    const client = await createClient(owner.key, { email: 'ap@client.example' });
    const res = await call('POST', '/v1/invoices', { key: owner.key, body: { client_id: client.id, line_items: oneLine, issue_date: addDaysTo(today(), -40), due_date: addDaysTo(today(), -12) } });
    const queued: unknown[] = [];
    vi.spyOn(env.EMAILS_QUEUE, 'sendBatch').mockImplementation(async (batch) => {
      for (const m of batch) queued.push(m.body);
      return { metadata: { metrics: { backlogCount: 0, backlogBytes: 0 } } } as unknown as QueueSendBatchResponse;
    });
    await call('POST', `/v1/invoices/${res.body.id}/send`, { key: owner.key, body: { email: false } });
    const reminders = async () => (await call('GET', `/v1/invoices/${res.body.id}/deliveries`, { key: owner.key })).body.data;
    // Due 12 days ago: the 3- and 10-day reminders have both come, and the client gets one email.
    expect(await queueReminders(env)).toBe(1);
    expect(await queueReminders(env)).toBe(0);
    expect(await reminders()).toEqual([expect.objectContaining({ kind: 'reminder', status: 'queued' })]);
    expect(queued).toHaveLength(1);
    // The 30-day one comes later, once; the 3-day one never does.
    await env.DB.prepare('UPDATE invoices SET due_date = ? WHERE id = ?').bind(addDaysTo(today(), -31), res.body.id).run();
    expect(await queueReminders(env)).toBe(1);
    expect(await queueReminders(env)).toBe(0);
    expect(await reminders()).toHaveLength(2);
    expect(queued).toHaveLength(2);
  });
});
