import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { call, errorPaths, expectError } from '../helpers/api';
import { addMember, createClient, createInvoice, createProject, createUser, type TestUser } from '../helpers/factories';
import { putRates } from '../helpers/rates';

const V1 = '/v1/time-entries';
const WF = '/api/workflow/time-entries';

async function entry(key: string, body: Record<string, unknown>, path = V1) {
  const res = await call('POST', path, { key, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const running = async (user: TestUser) => (await call('GET', `${V1}?running=true&user_id=${user.id}`, { key: user.key })).body.data;

describe('time entries', () => {
  it('records a duration at the project\'s rate and currency, the same on both listings', async () => {
    const user = await createUser('Ada');
    const project = await createProject(user.key, { hourly_rate: 12_000, currency: 'EUR', client_id: (await createClient(user.key)).id });
    const created = await entry(user.key, { project_id: project.id, duration_seconds: 5_400, task: 'Design', notes: 'Home page\nand menu', spent_date: '2026-11-02' });
    expect(created).toMatchObject({
      user: { id: user.id, name: 'Ada' }, project_id: project.id, client_id: project.client_id, task: 'Design', notes: 'Home page\nand menu',
      spent_date: '2026-11-02', started_at: null, stopped_at: null, duration_seconds: 5_400, billable_seconds: 5_400, billable: true,
      rate: 12_000, currency: 'EUR', is_running: false, invoice_id: null,
    });
    expect(created.id).toMatch(/^te_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect((await call('GET', `${WF}/${created.id}`, { key: user.key })).body).toEqual(created);
    expect((await call('GET', `${V1}/${created.id}`, { key: user.key })).body).toEqual(created);
    const events = (await call('GET', '/api/events?type=time_entry.created', { key: user.key })).body.data;
    expect(events.map((e: { data: { object: unknown } }) => e.data.object)).toEqual([created]);
    // A rate of its own, and a non-billable entry bills nothing.
    const own = await entry(user.key, { project_id: project.id, duration_seconds: 60, rate: 9_000, billable: false }, WF);
    expect(own).toMatchObject({ rate: 9_000, billable: false, billable_seconds: 0 });
  });

  it('takes a span, and holds every entry to 1 s .. 24 h', async () => {
    const user = await createUser();
    const project = await createProject(user.key);
    const span = await entry(user.key, { project_id: project.id, started_at: '2026-11-02T08:00:00+01:00', stopped_at: '2026-11-02T09:30:00.000+01:00' });
    expect(span).toMatchObject({ started_at: '2026-11-02T07:00:00.000Z', stopped_at: '2026-11-02T08:30:00.000Z', duration_seconds: 5_400, spent_date: '2026-11-02', rate: null });
    const bad: [Record<string, unknown>, string][] = [
      [{ duration_seconds: 0 }, 'duration_seconds'],
      [{ duration_seconds: 86_401 }, 'duration_seconds'],
      [{ duration_seconds: 1.5 }, 'duration_seconds'],
      [{ started_at: '2026-11-02T08:00:00Z', stopped_at: '2026-11-02T08:00:00Z' }, 'stopped_at'],
      [{ started_at: '2026-11-02T08:00:00Z', stopped_at: '2026-11-03T08:00:01Z' }, 'stopped_at'],
      [{ stopped_at: '2026-11-02T08:00:00Z' }, 'started_at'],
      [{ duration_seconds: 60, started_at: '2026-11-02T08:00:00Z', stopped_at: '2026-11-02T09:00:00Z' }, 'duration_seconds'],
      [{ started_at: new Date(Date.now() + 3_600_000).toISOString() }, 'started_at'],
      [{ started_at: new Date(Date.now() - 25 * 3_600_000).toISOString() }, 'started_at'],
    ];
    for (const [body, path] of bad) {
      const res = await call('POST', V1, { key: user.key, body: { project_id: project.id, ...body } });
      expectError(res, 422, 'validation_failed');
      expect(errorPaths(res), JSON.stringify(body)).toEqual([path]);
    }
    // A full day is the longest entry.
    expect((await entry(user.key, { project_id: project.id, duration_seconds: 86_400 })).duration_seconds).toBe(86_400);
    const other = await createUser();
    const theirs = await createProject(other.key);
    const res = await call('POST', V1, { key: user.key, body: { project_id: theirs.id, duration_seconds: 60 } });
    expectError(res, 422, 'validation_failed');
    expect(errorPaths(res)).toEqual(['project_id']);
    expect(errorPaths(await call('POST', V1, { key: user.key, body: { project_id: project.id, duration_seconds: 60, tags: ['x'] } }))).toEqual(['tags']);
  });

  it('runs one timer per user: starting one stops the running one, and stop works once', async () => {
    const user = await createUser();
    const project = await createProject(user.key, { hourly_rate: 10_000 });
    const first = await entry(user.key, { project_id: project.id, task: 'First', started_at: new Date(Date.now() - 90_000).toISOString() });
    expect(first).toMatchObject({ is_running: true, duration_seconds: null, billable_seconds: null, stopped_at: null });
    const second = await entry(user.key, { project_id: project.id, task: 'Second' });
    expect(second.is_running).toBe(true);
    const stoppedFirst = (await call('GET', `${V1}/${first.id}`, { key: user.key })).body;
    expect(stoppedFirst).toMatchObject({ is_running: false });
    expect(stoppedFirst.duration_seconds).toBeGreaterThanOrEqual(90);
    expect(stoppedFirst.duration_seconds).toBeLessThan(3_600);
    expect((await running(user)).map((e: { id: string }) => e.id)).toEqual([second.id]);
    const types = (await call('GET', '/api/events?limit=3', { key: user.key })).body.data.map((e: { type: string; data: { object: { id: string } } }) => [e.type, e.data.object.id]);
    expect(types).toEqual([['time_entry.created', second.id], ['time_entry.updated', first.id], ['time_entry.created', first.id]]);

    // Stop at a given time; before the start is a 422; stopping twice is a 409.
    const early = await call('POST', `${V1}/${second.id}/stop`, { key: user.key, body: { stopped_at: new Date(Date.parse(second.started_at) - 1_000).toISOString() } });
    expectError(early, 422, 'validation_failed');
    expect(errorPaths(early)).toEqual(['stopped_at']);
    const stopAt = new Date(Date.parse(second.started_at) + 600_000).toISOString();
    const stopped = await call('POST', `${WF}/${second.id}/stop`, { key: user.key, body: { stopped_at: stopAt } });
    expect(stopped.status).toBe(200);
    expect(stopped.body).toMatchObject({ is_running: false, stopped_at: stopAt, duration_seconds: 600, billable_seconds: 600 });
    expectError(await call('POST', `${V1}/${second.id}/stop`, { key: user.key }), 409, 'invalid_state');
    expect(await running(user)).toEqual([]);
    // A running timer's duration comes from stopping it.
    const third = await entry(user.key, { project_id: project.id });
    expectError(await call('PATCH', `${V1}/${third.id}`, { key: user.key, body: { duration_seconds: 60 } }), 409, 'invalid_state');
    expect((await call('POST', `${V1}/${third.id}/stop`, { key: user.key })).status).toBe(422); // under a second
  });

  it('starts every timer when starts race, each stopping the one before, and leaves exactly one running', async () => {
    const user = await createUser();
    const project = await createProject(user.key);
    const answers = await Promise.all([1, 2, 3, 4, 5].map((n) => call('POST', V1, { key: user.key, body: { project_id: project.id, task: `Start ${n}`, started_at: new Date(Date.now() - 5_000).toISOString() } })));
    expect(answers.map((res) => res.status)).toEqual([201, 201, 201, 201, 201]);
    const made = answers.map((res) => res.body.id);
    const all = (await call('GET', `${V1}?limit=100`, { key: user.key })).body.data;
    expect(all.map((e: { id: string }) => e.id).sort()).toEqual([...made].sort());
    expect(all.filter((e: { is_running: boolean }) => e.is_running)).toHaveLength(1);
    for (const stopped of all.filter((e: { is_running: boolean }) => !e.is_running)) expect(stopped.duration_seconds).toBeGreaterThanOrEqual(1);
    // Each start has its event, and each stop its own.
    const events = (await call('GET', '/api/events?limit=100', { key: user.key })).body.data as { type: string; data: { object: { id: string } } }[];
    expect(events.filter((e) => e.type === 'time_entry.created').map((e) => e.data.object.id).sort()).toEqual([...made].sort());
    expect(events.filter((e) => e.type === 'time_entry.updated')).toHaveLength(4);
    // The database itself refuses a second running timer for the same user.
    const runningId = all.find((e: { is_running: boolean }) => e.is_running).id;
    await expect(
      env.DB.prepare("INSERT INTO time_entries (id, workspace_id, user_id, project_id, spent_date, started_at, currency, created_at, updated_at) SELECT 'te_X', workspace_id, user_id, project_id, spent_date, started_at, currency, created_at, updated_at FROM time_entries WHERE id = ?").bind(runningId).run(),
    ).rejects.toThrow(/UNIQUE/);
  });

  it('lets members change their own entries, admins anyone\'s, viewers only read', async () => {
    const owner = await createUser('Owner');
    const [admin, member, other, viewer] = [await addMember(owner.key, 'admin', 'Adm'), await addMember(owner.key, 'member', 'Mem'), await addMember(owner.key, 'member', 'Oth'), await addMember(owner.key, 'viewer', 'Vi')];
    const project = await createProject(owner.key);
    const mine = await entry(member.key, { project_id: project.id, duration_seconds: 600 });
    expectError(await call('POST', V1, { key: viewer.key, body: { project_id: project.id, duration_seconds: 60 } }), 403, 'forbidden');
    expect((await call('GET', `${V1}/${mine.id}`, { key: viewer.key })).status).toBe(200);
    // Another member may neither change, stop nor delete it.
    for (const [method, path, body] of [['PATCH', `${V1}/${mine.id}`, { notes: 'x' }], ['DELETE', `${V1}/${mine.id}`, undefined], ['POST', `${V1}/${mine.id}/stop`, {}]] as const) {
      const res = expectError(await call(method, path, { key: other.key, body }), 403, 'forbidden');
      expect(res.message).toContain('admin');
    }
    expect((await call('PATCH', `${V1}/${mine.id}`, { key: member.key, body: { notes: 'Mine' } })).body.notes).toBe('Mine');
    expect((await call('PATCH', `${V1}/${mine.id}`, { key: admin.key, body: { notes: 'Checked' } })).body.notes).toBe('Checked');
    // Time for another member: admins only, and only for members of the workspace.
    expectError(await call('POST', V1, { key: member.key, body: { project_id: project.id, duration_seconds: 60, user_id: other.id } }), 403, 'forbidden');
    const forOther = await entry(admin.key, { project_id: project.id, duration_seconds: 60, user_id: other.id });
    expect(forOther.user).toEqual({ id: other.id, name: 'Oth' });
    const stranger = await createUser();
    const res = await call('POST', V1, { key: admin.key, body: { project_id: project.id, duration_seconds: 60, user_id: stranger.id } });
    expectError(res, 422, 'validation_failed');
    expect(errorPaths(res)).toEqual(['user_id']);
    expect((await call('DELETE', `${V1}/${forOther.id}`, { key: other.key })).status).toBe(204);
    expectError(await call('GET', `${V1}/${forOther.id}`, { key: owner.key }), 404, 'not_found');
  });

  it('bills by the project\'s rounding rule, keeping the raw duration', async () => {
    const user = await createUser();
    const project = await createProject(user.key, { time_rounding: { increment_minutes: 15, mode: 'up' } });
    expect(project.time_rounding).toEqual({ increment_minutes: 15, mode: 'up' });
    expect((await createProject(user.key)).time_rounding).toBeNull();
    const e = await entry(user.key, { project_id: project.id, duration_seconds: 7 * 60 + 30 });
    expect(e).toMatchObject({ duration_seconds: 450, billable_seconds: 900 });
    const patched = await call('PATCH', `/v1/projects/${project.id}`, { key: user.key, body: { time_rounding: { increment_minutes: 6, mode: 'down' } } });
    expect(patched.body.time_rounding).toEqual({ increment_minutes: 6, mode: 'down' });
    expect((await call('GET', `${V1}/${e.id}`, { key: user.key })).body).toMatchObject({ duration_seconds: 450, billable_seconds: 360 });
    await call('PATCH', `/v1/projects/${project.id}`, { key: user.key, body: { time_rounding: null } });
    expect((await call('GET', `${V1}/${e.id}`, { key: user.key })).body.billable_seconds).toBe(450);
    const bad = await call('PATCH', `/v1/projects/${project.id}`, { key: user.key, body: { time_rounding: { increment_minutes: 7, mode: 'sideways' } } });
    expectError(bad, 422, 'validation_failed');
    expect(errorPaths(bad).sort()).toEqual(['time_rounding.increment_minutes', 'time_rounding.mode']);
  });

  it('edits times consistently and moves an entry to another project with its rate', async () => {
    const user = await createUser();
    const a = await createProject(user.key, { hourly_rate: 10_000 });
    const b = await createProject(user.key, { hourly_rate: 20_000, currency: 'EUR' });
    const e = await entry(user.key, { project_id: a.id, started_at: '2026-11-02T08:00:00Z', stopped_at: '2026-11-02T09:00:00Z' });
    const longer = (await call('PATCH', `${V1}/${e.id}`, { key: user.key, body: { stopped_at: '2026-11-02T10:00:00Z' } })).body;
    expect(longer).toMatchObject({ duration_seconds: 7_200, started_at: '2026-11-02T08:00:00.000Z', stopped_at: '2026-11-02T10:00:00.000Z' });
    const shorter = (await call('PATCH', `${V1}/${e.id}`, { key: user.key, body: { duration_seconds: 1_800 } })).body;
    expect(shorter).toMatchObject({ duration_seconds: 1_800, stopped_at: '2026-11-02T08:30:00.000Z' });
    const bad = await call('PATCH', `${V1}/${e.id}`, { key: user.key, body: { stopped_at: '2026-11-02T07:00:00Z' } });
    expect(errorPaths(bad)).toEqual(['stopped_at']);
    const moved = (await call('PATCH', `${V1}/${e.id}`, { key: user.key, body: { project_id: b.id } })).body;
    expect(moved).toMatchObject({ project_id: b.id, rate: 20_000, currency: 'EUR' });
    const updated = (await call('GET', '/api/events?type=time_entry.updated&limit=1', { key: user.key })).body.data[0];
    expect(updated.data.object).toEqual(moved);
    expect(updated.data.previous_attributes).toEqual({ project_id: a.id, rate: 10_000, currency: 'USD' });
  });

  it('filters by project, client, user, period, billable, invoiced and running', async () => {
    const owner = await createUser();
    const member = await addMember(owner.key, 'member');
    const client = await createClient(owner.key);
    const [p1, p2] = [await createProject(owner.key, { client_id: client.id }), await createProject(owner.key)];
    const a = await entry(owner.key, { project_id: p1.id, duration_seconds: 60, spent_date: '2026-01-10' });
    const b = await entry(member.key, { project_id: p2.id, duration_seconds: 60, spent_date: '2026-02-10', billable: false });
    const c = await entry(member.key, { project_id: p1.id, spent_date: '2026-03-10' });
    const ids = async (q: string) => (await call('GET', `${V1}?${q}`, { key: owner.key })).body.data.map((e: { id: string }) => e.id);
    expect(await ids('')).toEqual([c.id, b.id, a.id]);
    expect(await ids(`project_id=${p1.id}`)).toEqual([c.id, a.id]);
    expect(await ids(`client_id=${client.id}`)).toEqual([c.id, a.id]);
    expect(await ids(`user_id=${member.id}`)).toEqual([c.id, b.id]);
    expect(await ids('from=2026-02-01&to=2026-02-28')).toEqual([b.id]);
    expect(await ids('billable=false')).toEqual([b.id]);
    expect(await ids('running=true')).toEqual([c.id]);
    expect(await ids('running=false&invoiced=false')).toEqual([b.id, a.id]);
    expect(await ids('invoiced=true')).toEqual([]);
    expect(await ids('limit=2')).toEqual([c.id, b.id]);
    const page = (await call('GET', `${V1}?limit=2`, { key: owner.key })).body;
    expect((await call('GET', `${V1}?limit=2&cursor=${page.next_cursor}`, { key: owner.key })).body.data.map((e: { id: string }) => e.id)).toEqual([a.id]);
    const reversed = await call('GET', `${V1}?from=2026-03-01&to=2026-02-01`, { key: owner.key });
    expectError(reversed, 422, 'validation_failed');
    expect(errorPaths(reversed)).toEqual(['from']);
    expectError(await call('GET', `${V1}?running=yes`, { key: owner.key }), 422, 'validation_failed');
  });

  it('sums time per project, user and client, with what is still to bill', async () => {
    const owner = await createUser('Olga');
    const member = await addMember(owner.key, 'member', 'Max');
    const client = await createClient(owner.key, { name: 'Zeta Corp' });
    const p1 = await createProject(owner.key, { name: 'Alpha', client_id: client.id, hourly_rate: 10_000, time_rounding: { increment_minutes: 15, mode: 'up' } });
    const p2 = await createProject(owner.key, { name: 'Beta', hourly_rate: 7_000, currency: 'EUR' });
    await entry(owner.key, { project_id: p1.id, duration_seconds: 60, spent_date: '2026-05-01' }); // bills 900 s: 2500
    await entry(member.key, { project_id: p1.id, duration_seconds: 1_801, spent_date: '2026-05-02' }); // bills 2700 s: 7500
    await entry(member.key, { project_id: p1.id, duration_seconds: 600, spent_date: '2026-05-03', billable: false });
    await entry(member.key, { project_id: p2.id, duration_seconds: 1, spent_date: '2026-05-03' }); // 1 s at 70.00/h: 1.94 → 2
    await entry(member.key, { project_id: p2.id, duration_seconds: 1, spent_date: '2026-05-03' }); // per entry: 2 more
    await entry(owner.key, { project_id: p2.id, duration_seconds: 3_600, spent_date: '2026-06-01' }); // out of the period
    await entry(owner.key, { project_id: p2.id }); // running: not counted
    const summary = async (q: string) => (await call('GET', `${V1}/summary?${q}`, { key: owner.key })).body;
    const row = (id: string | null, name: string | null, seconds: number, billable: number, amount: number, currency: string) =>
      ({ id, name, seconds, billable_seconds: billable, uninvoiced_seconds: billable, uninvoiced_amount: amount, currency });
    expect(await summary('from=2026-05-01&to=2026-05-31')).toEqual([
      row(p1.id, 'Alpha', 2_461, 3_600, 10_000, 'USD'),
      row(p2.id, 'Beta', 2, 2, 4, 'EUR'),
    ]);
    // A user with time in two currencies has a row for each.
    expect(await summary('from=2026-05-01&to=2026-05-31&group_by=user')).toEqual([
      row(member.id, 'Max', 2, 2, 4, 'EUR'),
      row(member.id, 'Max', 2_401, 2_700, 7_500, 'USD'),
      row(owner.id, 'Olga', 60, 900, 2_500, 'USD'),
    ]);
    expect(await summary('from=2026-05-01&to=2026-05-31&group_by=client')).toEqual([
      row(null, null, 2, 2, 4, 'EUR'),
      row(client.id, 'Zeta Corp', 2_461, 3_600, 10_000, 'USD'),
    ]);
    expect((await summary('')).find((r: { id: string }) => r.id === p2.id).seconds).toBe(3_602);
    expectError(await call('GET', `${V1}/summary?from=2026-06-01&to=2026-05-01`, { key: owner.key }), 422, 'validation_failed');
    expectError(await call('GET', `${V1}/summary?group_by=task`, { key: owner.key }), 422, 'validation_failed');
  });

  it('locks an entry an invoice bills, until the draft is deleted', async () => {
    const user = await createUser();
    const client = await createClient(user.key);
    const project = await createProject(user.key, { client_id: client.id, hourly_rate: 10_000 });
    const e = await entry(user.key, { project_id: project.id, duration_seconds: 3_600 });
    const draft = await createInvoice(user.key, { client_id: client.id });
    await env.DB.prepare('UPDATE time_entries SET invoice_id = ? WHERE id = ?').bind(draft.id, e.id).run();
    expect((await call('GET', `${V1}/${e.id}`, { key: user.key })).body.invoice_id).toBe(draft.id);
    expectError(await call('PATCH', `${V1}/${e.id}`, { key: user.key, body: { notes: 'x' } }), 409, 'invalid_state');
    expectError(await call('DELETE', `${V1}/${e.id}`, { key: user.key }), 409, 'invalid_state');
    expect((await call('GET', `${V1}?invoiced=true`, { key: user.key })).body.data.map((x: { id: string }) => x.id)).toEqual([e.id]);
    expect((await call('GET', `${V1}/summary`, { key: user.key })).body).toEqual([
      { id: project.id, name: 'Website', seconds: 3_600, billable_seconds: 3_600, uninvoiced_seconds: 0, uninvoiced_amount: 0, currency: 'USD' },
    ]);
    expect((await call('DELETE', `/v1/invoices/${draft.id}`, { key: user.key })).status).toBe(204);
    expect((await call('GET', `${V1}/${e.id}`, { key: user.key })).body.invoice_id).toBeNull();
    expect((await call('PATCH', `${V1}/${e.id}`, { key: user.key, body: { notes: 'Released' } })).status).toBe(200);
  });

  it('adds unbilled time to the project\'s totals in USD and keeps a project with time from deletion', async () => {
    await putRates({ EUR: 0.8 });
    const user = await createUser();
    const project = await createProject(user.key, { hourly_rate: 8_000, currency: 'EUR' });
    await entry(user.key, { project_id: project.id, duration_seconds: 5_400 }); // 120.00 EUR
    await entry(user.key, { project_id: project.id, duration_seconds: 60, billable: false });
    const totals = (await call('GET', `/v1/projects/${project.id}`, { key: user.key })).body.totals;
    expect(totals).toMatchObject({ currency: 'USD', unbilled_amount: 15_000 });
    expectError(await call('DELETE', `/v1/projects/${project.id}`, { key: user.key }), 409, 'conflict');
  });
});
