import { readFileSync } from 'node:fs';
import { Miniflare } from 'miniflare';
import { createDb } from '../src/lib/db';
import { profitAndLossQueries } from '../src/modules/reports/profit-and-loss';
import { agedReceivablesQueries } from '../src/modules/reports/aged-receivables';
import { vatQueries } from '../src/modules/reports/vat';

const accounts = JSON.parse(readFileSync('/tmp/reports-profile/accounts.json', 'utf8'));
const worker = `export default { async fetch(req, env) {
  const { sql, params } = await req.json();
  const stmt = env.DB.prepare(sql).bind(...params);
  await stmt.all(); await stmt.all();
  const t0 = Date.now(); let rows = 0;
  for (let i = 0; i < 10; i++) rows = (await stmt.all()).results.length;
  return Response.json({ ms: (Date.now() - t0) / 10, rows });
} }`;
const mf = new Miniflare({ modules: true, script: worker, d1Databases: { DB: '00000000-0000-4000-8000-000000000001' }, d1Persist: '/tmp/reports-profile/state/d1' });
await mf.ready;
const d1 = await mf.getD1Database('DB');
console.log((await d1.prepare('SELECT count(*) n FROM invoices').first()));
const fake = { prepare: () => ({}), batch: () => ({}) } as unknown as D1Database;
const ctx = { db: createDb(fake), env: {} as Env, workspaceId: accounts.large.workspaceId, timeZone: 'UTC', actor: { type: 'system', id: null, name: 'x' } } as const;
const day = (o: number) => new Date(Date.now() + o * 86_400_000).toISOString().slice(0, 10);
const variants: [string, readonly { toSQL(): { sql: string; params: unknown[] } }[]][] = [
  ['pnl month', profitAndLossQueries(ctx as any, { from: day(-30), to: day(-1), basis: 'accrual', group_by: 'month' })],
  ['pnl year', profitAndLossQueries(ctx as any, { from: day(-365), to: day(0), basis: 'accrual', group_by: 'month' })],
  ['aged', agedReceivablesQueries(ctx as any, { as_of: day(0) })],
  ['vat year', vatQueries(ctx as any, { from: day(-365), to: day(0) })],
];
const ws = accounts.large.workspaceId;
const raw = (name: string, sql: string, params: unknown[]) => [name, [null, { toSQL: () => ({ sql, params }) }]] as any;
const Y = [ws, day(-365), day(0)];
const M = [ws, day(-30), day(-1)];
for (const [label, P] of [['year', Y], ['month', M]] as const) {
  variants.push(
    raw(`${label} invoices grouped`, `SELECT currency, issue_date, sum(subtotal) FROM invoices i WHERE i.workspace_id = ? AND i.issue_date BETWEEN ? AND ? AND i.status IN ('open','paid') GROUP BY issue_date, currency`, P),
    raw(`${label} payments grouped`, `SELECT currency, paid_on, sum(amount) FROM payments p WHERE p.workspace_id = ? AND p.paid_on BETWEEN ? AND ? GROUP BY paid_on, currency`, P),
    raw(`${label} fx issue`, `SELECT p.currency, i.issue_date, sum(p.amount) FROM payments p JOIN invoices i ON i.id = p.invoice_id WHERE p.workspace_id = ? AND p.paid_on BETWEEN ? AND ? AND p.currency <> 'USD' GROUP BY i.issue_date, p.currency`, P),
    raw(`${label} rates only`, `SELECT g.currency, g.day, (SELECT r.rate FROM exchange_rates r WHERE r.currency = g.currency AND r.day <= g.day ORDER BY r.day DESC LIMIT 1) FROM (SELECT DISTINCT currency, issue_date AS day FROM invoices WHERE workspace_id = ? AND issue_date BETWEEN ? AND ?) g`, P),
  );
}
for (const [name, qs] of variants) {
  const { sql, params } = qs[1].toSQL();
  const res = await (await mf.dispatchFetch('http://x/', { method: 'POST', body: JSON.stringify({ sql, params }) })).json() as { ms: number; rows: number };
  console.log(name, res.ms, 'ms', res.rows, 'rows');
  if (process.argv[2] === 'sql' && name === 'pnl year') console.log(sql);
}
await mf.dispose();
