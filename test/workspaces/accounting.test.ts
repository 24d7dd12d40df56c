// §22's `accounting` setting (§9: a setting, changed by an admin): what the DATEV export books with. Sent and
// replaced whole like `issuer`, shown to every member, null until set and after null clears it; a bad value is
// a 422 naming the field and changes nothing.
import { describe, expect, it } from 'vitest';
import { call, errorPaths, expectError } from '../helpers/api';
import { addMember, createUser } from '../helpers/factories';

const setting = {
  chart: 'SKR04', consultant_number: 29098, client_number: 55003, fiscal_year_start: '07-01',
  revenue_accounts: { standard: '4401' }, expense_accounts: { software: '6837', travel: '6673' }, bank_account: '1810',
};

describe('the accounting setting', () => {
  it('is null until set; an admin sets it, every member reads it back with the defaults filled', async () => {
    const owner = await createUser();
    expect((await call('GET', '/api/workspace', { key: owner.key })).body.accounting).toBeNull();

    const res = await call('PATCH', '/api/workspace', { key: owner.key, body: { accounting: setting } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const shown = { ...setting, receivable_account: null };
    expect(res.body.accounting).toEqual(shown);

    const viewer = await addMember(owner.key, 'viewer');
    expect((await call('GET', '/api/workspace', { key: viewer.key })).body.accounting).toEqual(shown);

    // Only the chart is needed to store it; the numbers the export needs may come later.
    const bare = await call('PATCH', '/api/workspace', { key: owner.key, body: { accounting: { chart: 'SKR03' } } });
    expect(bare.body.accounting).toEqual({
      chart: 'SKR03', consultant_number: null, client_number: null, fiscal_year_start: '01-01',
      revenue_accounts: {}, expense_accounts: {}, receivable_account: null, bank_account: null,
    });
    // Another setting leaves it as it is; null clears it.
    expect((await call('PATCH', '/api/workspace', { key: owner.key, body: { name: 'Renamed' } })).body.accounting.chart).toBe('SKR03');
    expect((await call('PATCH', '/api/workspace', { key: owner.key, body: { accounting: null } })).body.accounting).toBeNull();
  });

  it('is changed by an admin only', async () => {
    const owner = await createUser();
    const member = await addMember(owner.key, 'member');
    expectError(await call('PATCH', '/api/workspace', { key: member.key, body: { accounting: setting } }), 403, 'forbidden');
    expect((await call('GET', '/api/workspace', { key: owner.key })).body.accounting).toBeNull();
  });

  it('refuses a value DATEV would not take, naming the field, and keeps what was there', async () => {
    const owner = await createUser();
    await call('PATCH', '/api/workspace', { key: owner.key, body: { accounting: setting } });
    const cases: [Record<string, unknown>, string][] = [
      [{ chart: 'SKR14' }, 'accounting.chart'],
      [{ consultant_number: 1000 }, 'accounting.consultant_number'],
      [{ consultant_number: 10_000_000 }, 'accounting.consultant_number'],
      [{ client_number: 0 }, 'accounting.client_number'],
      [{ client_number: 100_000 }, 'accounting.client_number'],
      [{ fiscal_year_start: '02-29' }, 'accounting.fiscal_year_start'],
      [{ fiscal_year_start: '2026-01-01' }, 'accounting.fiscal_year_start'],
      [{ revenue_accounts: { standard: '84' } }, 'accounting.revenue_accounts.standard'],
      [{ revenue_accounts: { nineteen: '8400' } }, 'accounting.revenue_accounts.nineteen'],
      [{ expense_accounts: { lunch: '4650' } }, 'accounting.expense_accounts.lunch'],
      [{ bank_account: '12 00' }, 'accounting.bank_account'],
      [{ ledger: 'x' }, 'accounting.ledger'],
    ];
    for (const [change, path] of cases) {
      const res = await call('PATCH', '/api/workspace', { key: owner.key, body: { accounting: { ...setting, ...change } } });
      expectError(res, 422, 'validation_failed');
      expect(errorPaths(res), JSON.stringify(change)).toContain(path);
    }
    expectError(await call('PATCH', '/api/workspace', { key: owner.key, body: { accounting: { consultant_number: 29098 } } }), 422, 'validation_failed');
    expect((await call('GET', '/api/workspace', { key: owner.key })).body.accounting.fiscal_year_start).toBe('07-01');
  });
});
