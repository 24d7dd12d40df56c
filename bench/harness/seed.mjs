// Local state for the run, written in bulk with SQL (not through the API): the migrations, two
// users (1,000 and 100,000 invoices), their clients, projects, payments and activity, a public
// gig board, and a rates snapshot. Ids are prefixed ULIDs whose order follows their number.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const SIZES = { small: 1_000, large: 100_000 };
const NOW = new Date().toISOString();

/** A valid prefixed ULID whose 26 characters sort like the number n. */
export const benchId = (prefix, tag, n) => `${prefix}_01J${tag}${String(n).padStart(22, '0')}`;

export const benchUsers = {
  small: { id: benchId('usr', 'A', 1), key: `wsk_benchSmall${'0'.repeat(30)}`, tag: 'A', invoices: SIZES.small },
  large: { id: benchId('usr', 'B', 1), key: `wsk_benchLarge${'0'.repeat(30)}`, tag: 'B', invoices: SIZES.large },
};

const sha256 = (text) => createHash('sha256').update(text).digest('hex');

export async function applyMigrations(db, root) {
  const dir = join(root, 'migrations');
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.sql')).sort()) {
    for (const statement of readFileSync(join(dir, file), 'utf8').split('--> statement-breakpoint')) {
      if (statement.trim()) await db.prepare(statement).run();
    }
  }
}

function userStatements(user) {
  const { id, tag, invoices: n } = user;
  const client = benchId('cli', tag, 1);
  const seq = (count) => `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ${count})`;
  // Issue dates spread evenly from 2020-01-01 over 2,520 days, so this year holds about a seventh.
  const issue = `date('2020-01-01', '+' || (n * 2520 / ${n}) || ' days')`;
  const subtotal = '(10000 + (n % 5000) * 10)';
  // A tenth drafts, a tenth void; unpaid ("open") invoices are among the newest 3 %, the rest paid:
  // an account that old does not have thousands of invoices from 2020 still awaiting payment.
  const status = `CASE WHEN n % 10 = 0 THEN 'draft' WHEN n % 10 = 1 THEN 'void' WHEN n > ${Math.floor(n * 0.97)} AND n % 10 IN (2, 3) THEN 'open' ELSE 'paid' END`;
  return [
    `INSERT INTO users (id, email, name, invoice_seq, created_at) VALUES ('${id}', 'bench-${tag}@example.com', 'Bench ${tag}', ${n}, '${NOW}')`,
    `INSERT INTO api_keys (id, user_id, name, prefix, key_hash, created_at) VALUES ('${benchId('key', tag, 1)}', '${id}', 'bench', '${user.key.slice(0, 12)}', '${sha256(user.key)}', '${NOW}')`,
    `INSERT INTO clients (id, user_id, name, email, currency, status, created_at, updated_at) VALUES ('${client}', '${id}', 'Bench Client ${tag}', 'client-${tag}@example.com', 'USD', 'active', '${NOW}', '${NOW}')`,
    `${seq(30)} INSERT INTO projects (id, user_id, client_id, name, status, currency, budget, hourly_rate, created_at, updated_at)
       SELECT 'prj_01J${tag}' || printf('%022d', n), '${id}', '${client}', 'Project ' || n, CASE n % 3 WHEN 0 THEN 'completed' ELSE 'active' END, 'USD', 500000, 9500, '${NOW}', '${NOW}' FROM seq`,
    `${seq(n)} INSERT INTO invoices (id, user_id, number, status, client_id, currency, issue_date, due_date, subtotal, tax, total, amount_paid, sent_at, paid_at, created_at, updated_at)
       SELECT 'inv_01J${tag}' || printf('%022d', n), '${id}', 'INV-' || printf('%06d', n), ${status}, '${client}',
         CASE n % 4 WHEN 0 THEN 'EUR' WHEN 1 THEN 'GBP' ELSE 'USD' END, ${issue}, date(${issue}, '+30 days'),
         ${subtotal}, ${subtotal} / 10, ${subtotal} + ${subtotal} / 10,
         0, CASE WHEN n % 10 = 0 THEN NULL ELSE '${NOW}' END, NULL, '${NOW}', '${NOW}' FROM seq`,
    `UPDATE invoices SET amount_paid = total, paid_at = '${NOW}' WHERE user_id = '${id}' AND status = 'paid'`,
    `INSERT INTO invoice_line_items (id, invoice_id, position, description, quantity_milli, unit_amount, tax_rate_milli, amount, tax)
       SELECT 'li_' || substr(id, 5), id, 0, 'Work', 1000, subtotal, 10000, subtotal, tax FROM invoices WHERE user_id = '${id}'`,
    `INSERT INTO payments (id, user_id, invoice_id, amount, currency, paid_on, created_at)
       SELECT 'pay_' || substr(id, 5), user_id, id, total, currency, date(issue_date, '+10 days'), '${NOW}' FROM invoices WHERE user_id = '${id}' AND status = 'paid'`,
    `${seq(40)} INSERT INTO activities (id, user_id, type, subject_id, summary, occurred_at)
       SELECT 'act_01J${tag}' || printf('%022d', n), '${id}', 'invoice.created', 'inv_01J${tag}' || printf('%022d', n), 'Invoice created', '${NOW}' FROM seq`,
  ];
}

const GIG_WORDS = ['design', 'website', 'logo', 'api', 'mobile', 'copywriting', 'seo', 'video', 'data', 'brand'];

function gigStatements(posterId) {
  return [
    `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 500)
     INSERT INTO gigs (id, user_id, poster_name, title, description, skills, budget_type, budget_min, budget_max, currency, remote, status, created_at, updated_at)
       SELECT 'gig_01JG' || printf('%022d', n), '${posterId}', 'Bench Poster',
         'Gig ' || n || ' ' || json_extract('${JSON.stringify(GIG_WORDS)}', '$[' || (n % 10) || ']'),
         'A ' || json_extract('${JSON.stringify(GIG_WORDS)}', '$[' || ((n * 7) % 10) || ']') || ' project for a small studio',
         json_array(json_extract('${JSON.stringify(GIG_WORDS)}', '$[' || ((n * 3) % 10) || ']')),
         CASE n % 2 WHEN 0 THEN 'fixed' ELSE 'hourly' END, 10000, 100000 + n * 100, 'USD', n % 3 != 0, CASE n % 5 WHEN 0 THEN 'closed' ELSE 'open' END, '${NOW}', '${NOW}' FROM seq`,
  ];
}

export async function seed(mf, root) {
  const db = await mf.getD1Database('DB', 'app');
  await applyMigrations(db, root);
  for (const user of Object.values(benchUsers)) for (const sql of userStatements(user)) await db.prepare(sql).run();
  for (const sql of gigStatements(benchUsers.small.id)) await db.prepare(sql).run();

  const kv = await mf.getKVNamespace('RATES_KV', 'app');
  const sample = JSON.parse(readFileSync(join(root, 'scripts/sample-rates.json'), 'utf8'));
  await kv.put('rates:v1:USD', JSON.stringify({ base: 'USD', rates: sample.rates, as_of: NOW, fetched_at: NOW, source: 'sample' }));
  for (const user of Object.values(benchUsers)) await kv.put(`floor:key:${sha256(user.key)}`, user.id);
}
