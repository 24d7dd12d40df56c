// "Today" is the workspace's (§5, §9): every date the server fills in for a record (an invoice's,
// a quote's and a converted or billed-from-time invoice's issue date, a payment's and an expense's
// date) and every "today" it reads (a recurring start date, the dashboard's period and overdue) is
// the calendar date in the workspace's time zone, not UTC's. At 12:00 UTC, Kiritimati (UTC+14) is
// already on the next day; at 05:00 UTC, Pago Pago (UTC−11) is still on the day before.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { addDays, todayUtc } from '../../src/lib/time';
import { call } from '../helpers/api';
import { createClient, createProject, createUser } from '../helpers/factories';

afterEach(() => vi.useRealTimers());

const line = { description: 'Design work', quantity: 1, unit_amount: 10_000 };

const zones = [
  { timeZone: 'Pacific/Kiritimati', utcHour: '12', shift: 1 },
  { timeZone: 'Pacific/Pago_Pago', utcHour: '05', shift: -1 },
];

describe.each(zones)('a workspace in $timeZone', ({ timeZone, utcHour, shift }) => {
  it('fills in and reads today as its own date, never UTC\'s', async () => {
    const owner = await createUser('Owner');
    expect((await call('PATCH', '/api/workspace', { key: owner.key, body: { time_zone: timeZone } })).status).toBe(200);
    const client = await createClient(owner.key, { name: 'Acme GmbH' });
    const project = await createProject(owner.key, { client_id: client.id, hourly_rate: 10_000 });
    const utcDay = todayUtc();
    // The clock runs on from there: records made in one frozen millisecond would share their ids' time.
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    vi.setSystemTime(new Date(`${utcDay}T${utcHour}:00:00.000Z`));
    const today = addDays(utcDay, shift);

    const invoice = (await call('POST', '/v1/invoices', { key: owner.key, body: { client_id: client.id, line_items: [line] } })).body;
    expect(invoice).toMatchObject({ issue_date: today, due_date: addDays(today, 30) });

    const quote = (await call('POST', '/v1/quotes', { key: owner.key, body: { client_id: client.id, line_items: [line], on_accept: 'draft_invoice' } })).body;
    expect(quote).toMatchObject({ issue_date: today, valid_until: addDays(today, 30) });
    await call('POST', `/v1/quotes/${quote.id}/send`, { key: owner.key, body: { email: false } });
    const revised = await call('POST', `/v1/quotes/${quote.id}/revise`, { key: owner.key });
    expect(revised.status).toBe(201);
    expect(revised.body.issue_date).toBe(today);
    const resent = await call('POST', `/v1/quotes/${revised.body.id}/send`, { key: owner.key, body: { email: false } });
    expect(resent.status, JSON.stringify([revised.body.id, resent.body])).toBe(200);
    const accepted = await call('POST', `/v1/quotes/${revised.body.id}/accept`, { key: owner.key, body: { name: 'Bill', method: 'other' } });
    expect(accepted.body.status, JSON.stringify(accepted.body)).toBe('converted');
    expect((await call('GET', `/v1/invoices/${accepted.body.invoice_id}`, { key: owner.key })).body.issue_date).toBe(today);

    const entry = await call('POST', '/v1/time-entries', { key: owner.key, body: { project_id: project.id, duration_seconds: 3_600 } });
    expect(entry.body.spent_date).toBe(today);
    const fromTime = await call('POST', '/v1/invoices/from-time', { key: owner.key, body: { client_id: client.id, from: addDays(today, -1), to: today } });
    expect(fromTime.status).toBe(201);
    expect(fromTime.body.issue_date).toBe(today);

    const sent = (await call('POST', `/v1/invoices/${invoice.id}/send`, { key: owner.key, body: { email: false } })).body;
    expect((await call('POST', `/v1/invoices/${sent.id}/payments`, { key: owner.key, body: { amount: 1_000 } })).status).toBe(200);
    expect((await call('GET', `/v1/invoices/${sent.id}/payments`, { key: owner.key })).body.data[0].paid_on).toBe(today);
    const expense = await call('POST', '/api/workflow/expenses', { key: owner.key, body: { amount: 500, currency: 'USD', category: 'software', description: 'Fonts' } });
    expect(expense.body.incurred_on).toBe(today);

    // A recurring invoice may start on its today, not the day before it.
    const recurring = { client_id: client.id, line_items: [line], interval: 'month' };
    expect((await call('POST', '/v1/recurring-invoices', { key: owner.key, body: { ...recurring, start_date: today } })).status).toBe(201);
    expect((await call('POST', '/v1/recurring-invoices', { key: owner.key, body: { ...recurring, start_date: addDays(today, -1) } })).status).toBe(422);

    // Due yesterday in its own zone: overdue there, on the invoice and on the dashboard alike.
    const late = (await call('POST', '/v1/invoices', { key: owner.key, body: { client_id: client.id, line_items: [line], issue_date: addDays(today, -2), due_date: addDays(today, -1) } })).body;
    expect((await call('POST', `/v1/invoices/${late.id}/send`, { key: owner.key, body: { email: false } })).body.overdue).toBe(true);

    // The dashboard's default period ends on its today, and counts what was issued then.
    const dashboard = (await call('GET', '/api/workflow/dashboard', { key: owner.key })).body;
    expect(dashboard.period).toEqual({ from: `${today.slice(0, 4)}-01-01`, to: today });
    expect(dashboard.totals).toMatchObject({ invoiced: 2 * 10_000, overdue: 10_000 });
    expect(dashboard.counts.invoices.overdue).toBe(1);
  });
});
