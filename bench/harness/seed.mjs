// Local state for the run, written in bulk with SQL (INSERT … SELECT over recursive CTEs, never
// through the API): the migrations in order, then accounts with 1,000 and 100,000 invoices over the
// last seven years, each in its own workspace, a writer account for the POST workload, a public gig
// board, the sample rates snapshot and the rates kept for each day, and the keys the I/O floor looks up. Ids are prefixed ULIDs of
// each row's creation time.
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ulid, ulidSql } from './ulid.mjs';

const DAY_MS = 86_400_000;
const SPAN_MS = 7 * 365 * DAY_MS;
// Seeded history ends an hour ago, so anything the API creates during the run is newer.
const END_MS = Date.now() - 3_600_000;
const START_MS = END_MS - SPAN_MS;

const ACCOUNTS = { small: 1_000, large: 100_000, writer: 0 };
const CLIENTS = 20;
const PROJECTS = 30;
const GIGS = 500;
// Events in the last 30 days (what the record keeps), per 1,000 invoices of the account.
const EVENTS_PER_1000_INVOICES = 50;

const sha256 = (text) => createHash('sha256').update(text).digest('hex');
const iso = (ms) => new Date(ms).toISOString();
// Timestamps as the app writes them (RFC 3339 with milliseconds), from an SQL millisecond expression.
const isoSql = (msSql) => `strftime('%Y-%m-%dT%H:%M:%fZ', (${msSql}) / 1000.0, 'unixepoch')`;
const seq = (count) => `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ${count})`;
// Clients bill in a mix of currencies; an invoice takes its client's.
const CLIENT_CURRENCY = `CASE n % 5 WHEN 1 THEN 'EUR' WHEN 2 THEN 'GBP' WHEN 3 THEN 'CAD' ELSE 'USD' END`;
const CLIENT_COUNTRY = `CASE n % 5 WHEN 1 THEN 'DE' WHEN 2 THEN 'GB' WHEN 3 THEN 'CA' ELSE 'US' END`;

export async function applyMigrations(db, root) {
  const dir = join(root, 'migrations');
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.sql')).sort()) {
    for (const statement of readFileSync(join(dir, file), 'utf8').split('--> statement-breakpoint')) {
      if (statement.trim()) await db.prepare(statement).run();
    }
  }
}

function newAccount(name, invoices) {
  const key = `wsk_${randomBytes(32).toString('base64url')}`; // the shape mintKey gives out
  const id = `usr_${ulid(START_MS)}`;
  // Each account is its user's personal workspace, which shares the user's ULID (as at signup).
  return { name, invoices, id, workspaceId: `wsp_${id.slice(4)}`, key, keyId: `key_${ulid(START_MS)}` };
}

function accountStatements(account) {
  const { id: user, workspaceId: ws, invoices: n } = account;
  return [
    `INSERT INTO users (id, email, name, created_at) VALUES ('${user}', '${account.name}@bench.example', 'Bench ${account.name}', '${iso(START_MS)}')`,
    `INSERT INTO workspaces (id, name, personal_user_id, invoice_seq, created_at, updated_at) VALUES ('${ws}', 'Bench ${account.name}', '${user}', ${n}, '${iso(START_MS)}', '${iso(START_MS)}')`,
    `INSERT INTO memberships (id, workspace_id, user_id, role, created_at) VALUES ('mem_${user.slice(4)}', '${ws}', '${user}', 'owner', '${iso(START_MS)}')`,
    // The key is stored as its SHA-256 hex, as src/modules/access/api-keys.ts does.
    `INSERT INTO api_keys (id, user_id, workspace_id, name, prefix, key_hash, created_at) VALUES ('${account.keyId}', '${user}', '${ws}', 'bench', '${account.key.slice(0, 12)}', '${sha256(account.key)}', '${iso(START_MS)}')`,
    `${seq(CLIENTS)}, t AS (SELECT n, ${START_MS} + n * 60000 AS ms FROM seq)
     INSERT INTO clients (id, user_id, workspace_id, name, email, company, currency, address_country, status, created_at, updated_at)
     SELECT 'cli_' || ${ulidSql('ms')}, '${user}', '${ws}', 'Client ' || n, 'billing@client' || n || '.example', 'Client ' || n || ' Ltd',
       ${CLIENT_CURRENCY}, ${CLIENT_COUNTRY}, CASE WHEN n % 10 = 0 THEN 'archived' ELSE 'active' END, ${isoSql('ms')}, ${isoSql('ms')} FROM t`,
    `${seq(PROJECTS)}, t AS (SELECT n, ${START_MS} + n * ${Math.floor(SPAN_MS / PROJECTS)} AS ms FROM seq),
       c AS (SELECT id, currency, row_number() OVER (ORDER BY id) - 1 AS k FROM clients WHERE workspace_id = '${ws}')
     INSERT INTO projects (id, user_id, workspace_id, client_id, name, description, status, currency, budget, hourly_rate, start_date, created_at, updated_at)
     SELECT 'prj_' || ${ulidSql('ms')}, '${user}', '${ws}', c.id, 'Project ' || n, 'Design and build, phase ' || n,
       CASE WHEN n > ${PROJECTS - 8} THEN 'active' WHEN n % 4 = 0 THEN 'archived' ELSE 'completed' END,
       c.currency, 500000 + n * 10000, 9500, date(ms / 1000, 'unixepoch'), ${isoSql('ms')}, ${isoSql('ms')}
     FROM t JOIN c ON c.k = n % ${CLIENTS}`,
  ];
}

function invoiceStatements(account) {
  const { id: user, workspaceId: ws, invoices: n } = account;
  const step = Math.floor(SPAN_MS / n);
  const recent = Math.ceil(n * 0.02); // the newest 2 %: where drafts and most unpaid invoices are
  const tax = '(subtotal * tax_pct / 100)';
  return [
    // Amounts: subtotals of 5.00–4,999.00 with 0, 10 or 20 % tax (exact, so total = subtotal + tax).
    // Status: among the newest 2 %, a fifth drafts and half open; older ones are paid, but for 3 % void
    // and 1 % still open (overdue). A quarter of open ones are half paid.
    `${seq(n)},
       t AS (SELECT n, ${START_MS} + n * ${step} AS ms, (n * 7919) % 1000 AS r FROM seq),
       shaped AS (SELECT n, ms, r, date(ms / 1000, 'unixepoch') AS issue, ${isoSql('ms')} AS at,
         (5 + (r * 37) % 4995) * 100 AS subtotal, (r % 3) * 10 AS tax_pct,
         CASE WHEN n > ${n - recent} THEN (CASE WHEN r % 10 < 2 THEN 'draft' WHEN r % 10 < 7 THEN 'open' ELSE 'paid' END)
              WHEN r % 33 = 0 THEN 'void' WHEN r % 97 = 1 THEN 'open' ELSE 'paid' END AS status
         FROM t),
       c AS (SELECT id, currency, row_number() OVER (ORDER BY id) - 1 AS k FROM clients WHERE workspace_id = '${ws}'),
       p AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k FROM projects WHERE workspace_id = '${ws}')
     INSERT INTO invoices (id, user_id, workspace_id, number, status, client_id, project_id, currency, issue_date, due_date,
       subtotal, tax, total, amount_paid, notes, sent_at, paid_at, voided_at, created_at, updated_at, tax_breakdown)
     SELECT 'inv_' || ${ulidSql('ms')}, '${user}', '${ws}', 'INV-' || printf('%06d', n), status, c.id, p.id, c.currency,
       issue, date(issue, CASE r % 2 WHEN 0 THEN '+14 days' ELSE '+30 days' END),
       subtotal, ${tax}, subtotal + ${tax},
       CASE WHEN status = 'paid' THEN subtotal + ${tax} WHEN status = 'open' AND r % 4 = 0 THEN (subtotal + ${tax}) / 2 ELSE 0 END,
       CASE WHEN n % 7 = 0 THEN 'PO ' || n END,
       CASE WHEN status != 'draft' THEN at END,
       CASE WHEN status = 'paid' THEN min(date(issue, '+' || (r % 30) || ' days'), date('now')) || 'T12:00:00.000Z' END,
       CASE WHEN status = 'void' THEN at END,
       at, at,
       -- One tax group, as the tax engine writes it (§15): what the VAT report reads (§22).
       json_array(json_object('category', CASE WHEN tax_pct > 0 THEN 'S' ELSE 'Z' END, 'rate', tax_pct, 'taxable_amount', subtotal,
         'tax_amount', ${tax}, 'discount_amount', 0, 'exemption_reason', NULL, 'exemption_code', NULL))
     FROM shaped JOIN c ON c.k = n % ${CLIENTS} LEFT JOIN p ON n % 3 = 0 AND p.k = (n / 3) % ${PROJECTS}`,
    `INSERT INTO invoice_line_items (id, invoice_id, position, description, quantity_milli, unit_amount, tax_rate_milli, amount, tax)
     SELECT 'li_' || substr(id, 5), id, 0, 'Design and build, ' || issue_date, 1000, subtotal, tax * 100000 / subtotal, subtotal, tax
     FROM invoices WHERE workspace_id = '${ws}'`,
    `WITH t AS (SELECT *, CASE status WHEN 'paid' THEN substr(paid_at, 1, 10) ELSE min(date(issue_date, '+7 days'), date('now')) END AS paid_on
                FROM invoices WHERE workspace_id = '${ws}' AND amount_paid > 0),
          timed AS (SELECT *, min(strftime('%s', paid_on) * 1000 + 43200000 + (strftime('%s', created_at) % 3600) * 1000, ${END_MS}) AS ms FROM t)
     INSERT INTO payments (id, user_id, workspace_id, invoice_id, amount, currency, paid_on, method, reference, created_at)
     SELECT 'pay_' || ${ulidSql('ms')}, user_id, workspace_id, id, amount_paid, currency, paid_on, 'bank_transfer', number, ${isoSql('ms')} FROM timed`,
    `${seq(Math.ceil(n / 10))}, t AS (SELECT n, ${START_MS} + n * ${step * 10} + 3600000 AS ms FROM seq)
     INSERT INTO expenses (id, user_id, workspace_id, category, description, vendor, amount, currency, incurred_on, billable, created_at, updated_at)
     SELECT 'exp_' || ${ulidSql('ms')}, '${user}', '${ws}',
       json_extract('["software","hardware","travel","meals","office","contractors","fees","marketing"]', '$[' || (n % 8) || ']'),
       'Expense ' || n, 'Vendor ' || (n % 12), (1 + (n * 7919) % 500) * 100, CASE n % 4 WHEN 1 THEN 'EUR' ELSE 'USD' END,
       date(ms / 1000, 'unixepoch'), n % 4 = 0, ${isoSql('ms')}, ${isoSql('ms')} FROM t`,
    // A third arrived as received documents (§21), with their input tax at 19 %.
    `UPDATE expenses SET tax_amount = (amount * 19 + 59) / 119, net_amount = amount - (amount * 19 + 59) / 119,
       tax_breakdown = json_array(json_object('category', 'S', 'rate', 19, 'taxable_amount', amount - (amount * 19 + 59) / 119, 'tax_amount', (amount * 19 + 59) / 119))
     WHERE workspace_id = '${ws}' AND rowid % 3 = 0`,
    // The event record of the last 30 days: invoices created, sent and paid, by the account's user.
    `${seq(Math.ceil((n * EVENTS_PER_1000_INVOICES) / 1000))}, t AS (SELECT n, ${END_MS - 30 * DAY_MS} + n * ${Math.floor((30 * DAY_MS) / Math.max(1, Math.ceil((n * EVENTS_PER_1000_INVOICES) / 1000)))} AS ms FROM seq),
       i AS (SELECT id, number, row_number() OVER (ORDER BY id DESC) AS k FROM invoices WHERE workspace_id = '${ws}')
     INSERT INTO events (id, workspace_id, type, actor_type, actor_id, actor_name, object_id, summary, data, created_at)
     SELECT 'evt_' || ${ulidSql('ms')}, '${ws}', json_extract('["invoice.created","invoice.sent","invoice.paid"]', '$[' || (n % 3) || ']'),
       'user', '${user}', 'Bench ${account.name}', i.id, 'Invoice ' || i.number || ' changed',
       json_object('object', json_object('id', i.id, 'number', i.number)), ${isoSql('ms')}
     FROM t JOIN i ON i.k = 1 + n % ${Math.max(1, n)}`,
  ];
}

const GIG_WORDS = JSON.stringify(['design', 'website', 'logo', 'api', 'mobile', 'copywriting', 'seo', 'video', 'data', 'brand']);
const word = (expr) => `json_extract('${GIG_WORDS}', '$[' || ((${expr}) % 10) || ']')`;

/** Public gigs posted over the last 90 days; `design` is in about a quarter of them. */
function gigStatements(poster) {
  const start = END_MS - 90 * DAY_MS;
  return [
    `${seq(GIGS)}, t AS (SELECT n, ${start} + n * ${Math.floor((90 * DAY_MS) / GIGS)} AS ms FROM seq)
     INSERT INTO gigs (id, user_id, workspace_id, poster_name, title, description, skills, budget_type, budget_min, budget_max, currency, remote, location, status, expires_on, created_at, updated_at)
     SELECT 'gig_' || ${ulidSql('ms')}, '${poster.id}', '${poster.workspaceId}', 'Studio ' || (n % 40), 'Gig ' || n || ': ' || ${word('n')},
       'A ' || ${word('n * 7')} || ' project for a small studio', json_array(${word('n * 3')}, ${word('n * 3 + 1')}),
       CASE n % 2 WHEN 0 THEN 'fixed' ELSE 'hourly' END, 10000, 100000 + n * 100, 'USD', n % 3 != 0,
       CASE WHEN n % 3 = 0 THEN 'Berlin' END, CASE n % 5 WHEN 0 THEN 'closed' ELSE 'open' END,
       date(ms / 1000, 'unixepoch', '+60 days'), ${isoSql('ms')}, ${isoSql('ms')} FROM t`,
  ];
}

/**
 * The rates kept for each day of the seeded history (§22, what the rates cron writes): the sample
 * rates, moved a little from day to day, so that no two neighbouring days convert alike.
 */
function dayRateStatement(sampleRates) {
  const days = Math.ceil(SPAN_MS / DAY_MS) + 2;
  return `${seq(days)}, d AS (SELECT date(${START_MS} / 1000, 'unixepoch', '+' || (n - 1) || ' days') AS day, n FROM seq)
    INSERT INTO exchange_rates (currency, day, rate, as_of)
    SELECT j.key, d.day, CASE j.key WHEN 'USD' THEN 1 ELSE j.value * (1 + ((d.n * 7 + unicode(j.key)) % 41 - 20) / 1000.0) END, d.day || 'T12:00:00.000Z'
    FROM d, json_each('${JSON.stringify(sampleRates)}') j`;
}

/** Seeds a fresh Miniflare; returns the accounts (id, key, invoice count). */
export async function seed(mf, root) {
  const db = await mf.getD1Database('DB', 'app');
  await applyMigrations(db, root);
  const accounts = Object.fromEntries(Object.entries(ACCOUNTS).map(([name, n]) => [name, newAccount(name, n)]));
  for (const account of Object.values(accounts)) {
    const statements = [...accountStatements(account), ...(account.invoices ? invoiceStatements(account) : [])];
    for (const sql of statements) await db.prepare(sql).run();
  }
  for (const sql of gigStatements(accounts.writer)) await db.prepare(sql).run();

  const rates = await mf.getKVNamespace('RATES_KV', 'app');
  const sample = JSON.parse(readFileSync(join(root, 'scripts/sample-rates.json'), 'utf8'));
  await db.prepare(dayRateStatement(sample.rates)).run();
  const now = new Date().toISOString();
  await rates.put('rates:v1:USD', JSON.stringify({ base: 'USD', rates: sample.rates, as_of: now, fetched_at: now, source: 'sample' }));
  const floorKeys = await mf.getKVNamespace('KEYS', 'io-floor');
  for (const account of Object.values(accounts)) await floorKeys.put(`key:${sha256(account.key)}`, account.workspaceId);

  for (const account of Object.values(accounts)) {
    account.clientId = (await db.prepare('SELECT id FROM clients WHERE workspace_id = ? ORDER BY id LIMIT 1').bind(account.workspaceId).first()).id;
  }
  return accounts;
}

/** The id of the invoice `depth` rows below the newest: the cursor there gives the page after it. */
export async function invoiceIdAtDepth(mf, workspaceId, depth) {
  const db = await mf.getD1Database('DB', 'app');
  const row = await db.prepare('SELECT id FROM invoices WHERE workspace_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?').bind(workspaceId, depth - 1).first();
  return row.id;
}

/**
 * `count` members of `account`'s workspace, each with a key of their own, for the timer workload: a
 * user has one running timer per workspace, so concurrent starts by one user would meet each other
 * (and answer 409 after their retries); taken in turn, each start meets only that member's own
 * running timer, which it stops. Answers the members' keys and an active project of the workspace.
 */
export async function timerMembers(mf, account, count) {
  const db = await mf.getD1Database('DB', 'app');
  const keys = [];
  for (let i = 0; i < count; i++) {
    const user = `usr_${ulid(Date.now())}`;
    const key = `wsk_${randomBytes(32).toString('base64url')}`;
    const at = iso(Date.now());
    await db.batch([
      db.prepare('INSERT INTO users (id, email, name, created_at) VALUES (?, ?, ?, ?)').bind(user, `timer${i}@bench.example`, `Timer ${i}`, at),
      db.prepare("INSERT INTO memberships (id, workspace_id, user_id, role, created_at) VALUES (?, ?, ?, 'member', ?)").bind(`mem_${user.slice(4)}`, account.workspaceId, user, at),
      db.prepare("INSERT INTO api_keys (id, user_id, workspace_id, name, prefix, key_hash, created_at) VALUES (?, ?, ?, 'bench', ?, ?, ?)")
        .bind(`key_${ulid(Date.now())}`, user, account.workspaceId, key.slice(0, 12), sha256(key), at),
    ]);
    keys.push(key);
  }
  const project = await db.prepare("SELECT id FROM projects WHERE workspace_id = ? AND status = 'active' ORDER BY id LIMIT 1").bind(account.workspaceId).first();
  return { keys, projectId: project.id };
}

/**
 * `count` clients of `account`'s workspace (USD), each with one project at 100.00 an hour and
 * `entries` billable, stopped, unbilled time entries over the last 30 days, on five tasks, for the
 * invoice-from-time workload: each request bills one client's time, which it then holds. Answers
 * the client ids, in SQL in bulk like the rest of the seed.
 */
export async function unbilledTime(mf, account, count, entries) {
  const db = await mf.getD1Database('DB', 'app');
  const tag = randomBytes(4).toString('hex');
  const at = iso(Date.now());
  const base = Date.now();
  await db.batch([
    db.prepare(`${seq(count)} INSERT INTO clients (id, user_id, workspace_id, name, currency, status, created_at, updated_at)
      SELECT 'cli_' || ${ulidSql(`${base} + n`)}, ?, ?, 'Timesheet ${tag} ' || n, 'USD', 'active', ?, ? FROM seq`).bind(account.id, account.workspaceId, at, at),
    db.prepare(`INSERT INTO projects (id, user_id, workspace_id, client_id, name, status, currency, hourly_rate, created_at, updated_at)
      SELECT 'prj_' || substr(id, 5), user_id, workspace_id, id, 'Hours of ' || name, 'active', 'USD', 10000, ?, ? FROM clients WHERE name LIKE 'Timesheet ${tag} %'`).bind(at, at),
    db.prepare(`${seq(entries)} INSERT INTO time_entries (id, workspace_id, user_id, project_id, task, spent_date, duration_seconds, billable, rate, currency, created_at, updated_at)
      SELECT 'te_' || ${ulidSql(`${base} + n`)}, p.workspace_id, p.user_id, p.id, 'Task ' || (n % 5), date('now', '-' || (n % 30) || ' days'), 600 + (n * 37) % 7200, 1, 10000, 'USD', ?, ?
      FROM seq, projects p WHERE p.name LIKE 'Hours of Timesheet ${tag} %'`).bind(at, at),
  ]);
  const { results } = await db.prepare(`SELECT id FROM clients WHERE name LIKE 'Timesheet ${tag} %' ORDER BY id`).all();
  return results.map((r) => r.id);
}

/**
 * `count` received e-invoices in `account`'s workspace waiting for review (§21), as the inbound consumer leaves
 * them: read, with a supplier, number, dates and a 19 % tax group in EUR, each its own supplier invoice (so none is
 * a duplicate), for the accept workload: each request books one. Their files are never read by accepting, so none
 * is stored. Answers the document ids, in SQL in bulk like the rest of the seed.
 */
export async function documentsInReview(mf, account, count) {
  const db = await mf.getD1Database('DB', 'app');
  const tag = randomBytes(4).toString('hex');
  const at = iso(Date.now());
  const base = Date.now();
  const extracted = (n) => `json_object('kind', 'invoice',
      'supplier', json_object('name', 'Hosting GmbH', 'vat_id', 'DE811907980', 'tax_id', NULL, 'address', 'Hauptstraße 1, 10115 Berlin', 'iban', 'DE89370400440532013000'),
      'number', 'R-${tag}-' || ${n}, 'issue_date', date('now', '-3 days'), 'due_date', date('now', '+11 days'), 'currency', 'EUR',
      'subtotal', 10000, 'tax', 1900, 'total', 11900,
      'tax_breakdown', json_array(json_object('category', 'S', 'rate', 19, 'taxable_amount', 10000, 'tax_amount', 1900)),
      'lines', json_array(json_object('description', 'Hosting, one month', 'quantity', 1, 'unit_amount', 10000, 'amount', 10000, 'tax_rate', 19)),
      'buyer_reference', NULL, 'purchase_order', NULL)`;
  await db.prepare(`${seq(count)} INSERT INTO inbound_documents (id, workspace_id, user_id, source, status, received_at, filename, content_type, size, sha256,
      file_key, format, profile, validation, extracted, extraction, supplier_key, number, created_at, updated_at)
    SELECT 'ind_' || ${ulidSql(`${base} + n`)}, ?, ?, 'upload', 'needs_review', ?, 'R-${tag}-' || n || '.xml', 'application/xml', 4096, hex(randomblob(32)),
      'inbound/' || ? || '/' || hex(randomblob(16)), 'ubl', 'Peppol BIS Billing 3.0',
      json_object('valid', json('true'), 'checked_at', ?, 'errors', json_array(), 'warnings', json_array()), ${extracted('n')}, 'xml',
      'DE811907980', 'R-${tag}-' || n, ?, ? FROM seq`).bind(account.workspaceId, account.id, at, account.workspaceId, at, at, at).run();
  const { results } = await db.prepare(`SELECT id FROM inbound_documents WHERE workspace_id = ? AND number LIKE 'R-${tag}-%' ORDER BY id`).bind(account.workspaceId).all();
  return results.map((r) => r.id);
}

/**
 * For the proposal workloads (§24): `senders` workspaces of their own (a user, its personal workspace,
 * a key each), `gigs` open gigs posted by `poster`'s workspace, and, when `perGig` is set, that many
 * submitted proposals on each gig from senders taken in turn. A workspace sends at most 20 proposals
 * a day, so a load of sends takes a sender per 20 requests. In SQL in bulk like the rest of the seed.
 * Answers the senders (id, key), the gig ids and, per gig, its first proposal's id.
 */
export async function proposalBoard(mf, poster, { senders, gigs, perGig = 0 }) {
  const db = await mf.getD1Database('DB', 'app');
  const tag = randomBytes(4).toString('hex');
  const at = iso(Date.now());
  const made = [];
  for (let i = 0; i < senders; i++) {
    const user = `usr_${ulid(Date.now())}`;
    const workspace = `wsp_${user.slice(4)}`;
    const key = `wsk_${randomBytes(32).toString('base64url')}`;
    await db.batch([
      db.prepare('INSERT INTO users (id, email, name, created_at) VALUES (?, ?, ?, ?)').bind(user, `sender-${tag}-${i}@bench.example`, `Sender ${i}`, at),
      db.prepare('INSERT INTO workspaces (id, name, personal_user_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)').bind(workspace, `Sender studio ${i}`, user, at, at),
      db.prepare("INSERT INTO memberships (id, workspace_id, user_id, role, created_at) VALUES (?, ?, ?, 'owner', ?)").bind(`mem_${user.slice(4)}`, workspace, user, at),
      db.prepare("INSERT INTO api_keys (id, user_id, workspace_id, name, prefix, key_hash, created_at) VALUES (?, ?, ?, 'bench', ?, ?, ?)")
        .bind(`key_${ulid(Date.now())}`, user, workspace, key.slice(0, 12), sha256(key), at),
    ]);
    made.push({ id: user, workspaceId: workspace, key });
  }
  const base = Date.now();
  await db.prepare(`${seq(gigs)} INSERT INTO gigs (id, user_id, workspace_id, poster_name, title, description, skills, budget_type, budget_min, budget_max, currency, remote, status, created_at, updated_at)
    SELECT 'gig_' || ${ulidSql(`${base} + n`)}, ?, ?, 'Bench writer', 'Proposal board ${tag} ' || n, 'A logo for a bakery', '["logo"]', 'fixed', 50000, 120000, 'EUR', 1, 'open', ?, ? FROM seq`)
    .bind(poster.id, poster.workspaceId, at, at).run();
  const { results } = await db.prepare(`SELECT id FROM gigs WHERE title LIKE 'Proposal board ${tag} %' ORDER BY id`).all();
  const gigIds = results.map((r) => r.id);
  const proposals = [];
  for (let g = 0; g < gigIds.length && perGig; g++) {
    const statements = [];
    for (let k = 0; k < perGig; k++) {
      const sender = made[(g * perGig + k) % made.length];
      const id = `prp_${ulid(Date.now())}`;
      if (k === 0) proposals.push(id);
      statements.push(db.prepare(`INSERT INTO proposals (id, gig_id, workspace_id, user_id, status, message, rate_type, rate_amount, rate_currency, estimate_milli_hours, links, from_workspace_name, from_user_name, created_at, updated_at)
        VALUES (?, ?, ?, ?, 'submitted', 'I designed logos for two bakeries.', 'fixed', 90000, 'EUR', 12000, '[]', ?, ?, ?, ?)`).bind(id, gigIds[g], sender.workspaceId, sender.id, `Sender studio ${k}`, `Sender ${k}`, at, at));
    }
    await db.batch(statements);
  }
  return { senders: made, gigs: gigIds, proposals };
}
