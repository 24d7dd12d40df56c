// `npm run dev`: applies the local migrations, seeds a demo workspace owned by a demo user, with a
// second member (role `member`), a fresh API key for each (printed), sample clients, projects,
// invoices and an expense, two received documents (an XRechnung and a receipt photo, their files in the
// local bucket), and a sample exchange-rate snapshot marked source "sample".
// Safe to run again: records are only added once; each run mints new demo keys.
import { execFileSync } from 'node:child_process';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const env = { ...process.env, WRANGLER_SEND_METRICS: 'false' };
const wrangler = (...args) => execFileSync('npx', ['wrangler', ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });

wrangler('d1', 'migrations', 'apply', 'DB', '--local');
// The second workspace database gets the same schema, though it holds nothing until WORKSPACE_DATABASES names it.
wrangler('d1', 'migrations', 'apply', 'DB_WORKSPACES_2', '--local');

const now = new Date().toISOString();
const today = now.slice(0, 10);
const newKey = () => {
  const key = `wsk_${randomBytes(32).toString('base64url')}`;
  return { key, hash: createHash('sha256').update(key).digest('hex'), id: `key_${ulidLike()}` };
};
const ownerKey = newKey();
const memberKey = newKey();
// Fixed ids keep the seed idempotent (INSERT OR IGNORE); they are valid prefixed ULIDs.
const fixedId = (prefix, n) => `${prefix}_01JDEM${String(n).padStart(20, '0')}`;
const ids = {
  user: fixedId('usr', 1),
  member: fixedId('usr', 2),
  // The personal workspace shares its owner's ULID, as every signup's does.
  workspace: fixedId('wsp', 1),
  clients: [fixedId('cli', 1), fixedId('cli', 2), fixedId('cli', 3), fixedId('cli', 4)],
  projects: [fixedId('prj', 1), fixedId('prj', 2)],
  invoices: [fixedId('inv', 1), fixedId('inv', 2), fixedId('inv', 3)],
};
const daysAgo = (n) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
const today0 = new Date();
const firstOfLastMonth = new Date(Date.UTC(today0.getUTCFullYear(), today0.getUTCMonth() - 1, 1)).toISOString().slice(0, 10);
const lastOfLastMonth = new Date(Date.UTC(today0.getUTCFullYear(), today0.getUTCMonth(), 0)).toISOString().slice(0, 10);

// The hosted links of the seeded invoices, made as the worker makes them (src/modules/invoices/links.ts):
// HMAC-SHA256 of "<invoice id>:<version>" under INVOICE_LINK_SECRET, of which only the SHA-256 is stored.
const linkSecret = readFileSync(join(root, '.dev.vars'), 'utf8').match(/^INVOICE_LINK_SECRET=(.*)$/m)?.[1]?.trim();
const links = ids.invoices.map((id) => {
  const token = createHmac('sha256', linkSecret).update(`${id}:1`).digest('base64url');
  return { token, hash: createHash('sha256').update(token).digest('hex') };
});
const noAddress = { line1: null, line2: null, city: null, region: null, postal_code: null };
// The issuer carries what an EN 16931 e-invoice needs (§15): a VAT id, an address with a country, an IBAN,
// and a Peppol id for UBL; and what a German or French accountant looks for on the page (§20): the
// Steuernummer beside the VAT id, the trade register entry, and legal notes in each client's language.
const workspaceIssuer = {
  legal_name: 'Demo Studio GmbH', email: 'billing@demo-studio.example', address: { ...noAddress, line1: 'Torstraße 1', postal_code: '10119', city: 'Berlin', country: 'DE' },
  tax_id: '27/123/45678', vat_id: 'DE123456789', registration_id: 'HRB 123456 B (Amtsgericht Charlottenburg)', peppol_id: '9930:DE123456789', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX',
  legal_notes: {
    de: 'Geschäftsführerin: Ada Lovelace · Sitz Berlin',
    fr: 'Pénalités de retard : trois fois le taux d’intérêt légal. Indemnité forfaitaire pour frais de recouvrement : 40 €',
    en: 'Demo Studio GmbH, registered in Berlin, Germany',
  },
};
const issuer = { name: 'Demo Studio', ...workspaceIssuer };
const quoted = (value) => `'${JSON.stringify(value).replace(/'/g, "''")}'`;
const sqlValue = (value) => (value === null || value === undefined ? 'NULL' : typeof value === 'number' ? String(value) : `'${String(value).replace(/'/g, "''")}'`);
const sqlJson = (value) => (value ? quoted(value) : 'NULL');
const billTo = (i) => [
  { name: 'Acme GmbH', email: 'billing@acme.example', company: 'Acme GmbH', address: { ...noAddress, line1: 'Marienplatz 8', postal_code: '80331', city: 'München', country: 'DE' }, tax_id: 'DE987654321', vat_id: 'DE987654321', peppol_id: '9930:DE987654321', buyer_reference: 'ACME-2026-17' },
  { name: 'Globex Ltd', email: 'ap@globex.example', company: 'Globex Ltd', address: { ...noAddress, country: 'GB' }, tax_id: null },
  { name: 'Claire Dubois', email: 'compta@dubois.example', company: 'Dubois SARL', address: { ...noAddress, line1: '12 rue de la Paix', postal_code: '75002', city: 'Paris', country: 'FR' }, tax_id: 'FR12345678901', vat_id: 'FR12345678901', peppol_id: '9957:FR12345678901', buyer_reference: 'DUB-2026-04' },
][i];

// A week of unbilled time on "Brand refresh" (the five days before today, both people), and one
// billable expense: what POST /v1/invoices/from-time turns into a draft.
const WEEK = [
  ['usr', 1, 'Discovery workshop', 3 * 3600 + 30 * 60], ['usr', 2, 'Moodboards', 2 * 3600 + 15 * 60], ['usr', 1, 'Logo sketches', 4 * 3600],
  ['usr', 2, 'Type pairing', 1 * 3600 + 45 * 60], ['usr', 1, 'Colour system', 3 * 3600 + 20 * 60], ['usr', 2, 'Client review call', 50 * 60],
];
const timeEntryRows = WEEK.map(([, who, task, seconds], i) => {
  const day = daysAgo(5 - Math.floor(i / 1.2));
  const started = `${day}T09:00:00.000Z`;
  const stopped = new Date(Date.parse(started) + seconds * 1000).toISOString();
  return `('${fixedId('te', i + 1)}', '${ids.workspace}', '${who === 1 ? ids.user : ids.member}', '${ids.projects[0]}', '${task}', NULL, '${day}', '${started}', '${stopped}', ${seconds}, 1, 9500, 'EUR', NULL, '${now}', '${now}')`;
}).join(',\n  ');

const sample = JSON.parse(readFileSync(join(root, 'scripts', 'sample-rates.json'), 'utf8'));
// The reports (§22) convert each record at its own date's rate, kept by the rates cron one day at a
// time: the sample rates stand for every day since 1 January of last year, so the demo's dates need none.
const firstRatesDay = `${today0.getUTCFullYear() - 1}-01-01`;
const sql = `
INSERT OR IGNORE INTO users (id, email, name, invoice_seq, created_at) VALUES
  ('${ids.user}', 'demo@example.com', 'Demo Studio', 0, '${now}'),
  ('${ids.member}', 'sam@example.com', 'Sam Rivera', 0, '${now}');
INSERT OR IGNORE INTO workspaces (id, name, personal_user_id, invoice_seq, time_zone, locale, payment_instructions, created_at, updated_at) VALUES
  ('${ids.workspace}', 'Demo Studio', '${ids.user}', 2, 'Europe/Berlin', 'en-US', 'Bank transfer to DE89 3704 0044 0532 0130 00', '${now}', '${now}'),
  ('${fixedId('wsp', 2)}', 'Sam Rivera', '${ids.member}', 0, 'UTC', 'en-US', NULL, '${now}', '${now}');
INSERT OR IGNORE INTO memberships (id, workspace_id, user_id, role, created_at) VALUES
  ('${fixedId('mem', 1)}', '${ids.workspace}', '${ids.user}', 'owner', '${now}'),
  ('${fixedId('mem', 2)}', '${fixedId('wsp', 2)}', '${ids.member}', 'owner', '${now}'),
  ('${fixedId('mem', 3)}', '${ids.workspace}', '${ids.member}', 'member', '${now}');
INSERT INTO api_keys (id, user_id, workspace_id, name, prefix, key_hash, created_at) VALUES
  ('${ownerKey.id}', '${ids.user}', '${ids.workspace}', 'Demo key', '${ownerKey.key.slice(0, 12)}', '${ownerKey.hash}', '${now}'),
  ('${memberKey.id}', '${ids.member}', '${ids.workspace}', 'Demo key', '${memberKey.key.slice(0, 12)}', '${memberKey.hash}', '${now}');
INSERT OR IGNORE INTO clients (id, user_id, workspace_id, name, email, company, currency, address_country, status, created_at, updated_at) VALUES
  ('${ids.clients[0]}', '${ids.user}', '${ids.workspace}', 'Acme GmbH', 'billing@acme.example', 'Acme GmbH', 'EUR', 'DE', 'active', '${now}', '${now}'),
  ('${ids.clients[1]}', '${ids.user}', '${ids.workspace}', 'Globex Ltd', 'ap@globex.example', 'Globex Ltd', 'GBP', 'GB', 'active', '${now}', '${now}'),
  ('${ids.clients[2]}', '${ids.user}', '${ids.workspace}', 'Claire Dubois', 'compta@dubois.example', 'Dubois SARL', 'EUR', 'FR', 'active', '${now}', '${now}'),
  ('${ids.clients[3]}', '${ids.user}', '${ids.workspace}', 'Bill Lumbergh', 'ap@initrode.example', 'Initrode Inc.', 'USD', 'US', 'active', '${now}', '${now}');
-- The French business (VAT id: its invoices are reverse charge) and the US one, with their addresses.
UPDATE clients SET tax_id = 'FR12345678901', peppol_id = '9957:FR12345678901', buyer_reference = 'DUB-2026-04', address_line1 = '12 rue de la Paix', address_postal_code = '75002', address_city = 'Paris'
  WHERE id = '${ids.clients[2]}' AND tax_id IS NULL;
UPDATE clients SET address_line1 = '1 Main St', address_city = 'Springfield', address_region = 'IL', address_postal_code = '62704'
  WHERE id = '${ids.clients[3]}' AND address_line1 IS NULL;
INSERT OR IGNORE INTO projects (id, user_id, workspace_id, client_id, name, description, status, currency, budget, hourly_rate, start_date, created_at, updated_at) VALUES
  ('${ids.projects[0]}', '${ids.user}', '${ids.workspace}', '${ids.clients[0]}', 'Brand refresh', 'Logo, type and colour system', 'active', 'EUR', 1200000, 9500, '${today}', '${now}', '${now}'),
  ('${ids.projects[1]}', '${ids.user}', '${ids.workspace}', '${ids.clients[1]}', 'Checkout rebuild', 'New checkout flow', 'active', 'GBP', 2500000, 11000, '${today}', '${now}', '${now}');
-- Three invoices: EUR 2,280.00 + 19 % VAT, paid; GBP 1,650.00, open and past due; EUR 3,800.00 to the
-- French business under reverse charge, open, read in French.
INSERT OR IGNORE INTO invoices (id, user_id, workspace_id, number, status, client_id, project_id, currency, issue_date, due_date, subtotal, tax, total, amount_paid, sent_at, paid_at, created_at, updated_at) VALUES
  ('${ids.invoices[0]}', '${ids.user}', '${ids.workspace}', 'INV-000001', 'paid', '${ids.clients[0]}', '${ids.projects[0]}', 'EUR', '${daysAgo(40)}', '${daysAgo(10)}', 228000, 43320, 271320, 271320, '${now}', '${now}', '${now}', '${now}'),
  ('${ids.invoices[1]}', '${ids.user}', '${ids.workspace}', 'INV-000002', 'open', '${ids.clients[1]}', '${ids.projects[1]}', 'GBP', '${daysAgo(35)}', '${daysAgo(5)}', 165000, 0, 165000, 0, '${now}', NULL, '${now}', '${now}'),
  ('${ids.invoices[2]}', '${ids.user}', '${ids.workspace}', 'INV-000003', 'open', '${ids.clients[2]}', NULL, 'EUR', '${daysAgo(2)}', '${daysAgo(-28)}', 380000, 0, 380000, 0, '${now}', NULL, '${now}', '${now}');
UPDATE workspaces SET invoice_seq = 3 WHERE id = '${ids.workspace}' AND invoice_seq < 3;
INSERT OR IGNORE INTO invoice_line_items (id, invoice_id, position, description, quantity_milli, unit_amount, tax_rate_milli, amount, tax) VALUES
  ('${fixedId('li', 1)}', '${ids.invoices[0]}', 0, 'Brand workshop and identity', 24000, 9500, 19000, 228000, 43320),
  ('${fixedId('li', 2)}', '${ids.invoices[1]}', 0, 'Checkout discovery', 15000, 11000, 0, 165000, 0);
INSERT OR IGNORE INTO invoice_line_items (id, invoice_id, position, description, quantity_milli, unit_amount, tax_rate_milli, amount, tax, unit, tax_category) VALUES
  ('${fixedId('li', 3)}', '${ids.invoices[2]}', 0, 'Conseil en identité de marque', 40000, 9500, 0, 380000, 0, 'HUR', 'AE');
INSERT OR IGNORE INTO payments (id, user_id, workspace_id, invoice_id, amount, currency, paid_on, method, created_at) VALUES
  ('${fixedId('pay', 1)}', '${ids.user}', '${ids.workspace}', '${ids.invoices[0]}', 271320, 'EUR', '${daysAgo(12)}', 'bank_transfer', '${now}');
INSERT OR IGNORE INTO expenses (id, user_id, workspace_id, project_id, category, description, vendor, amount, currency, incurred_on, billable, created_at, updated_at) VALUES
  ('${fixedId('exp', 1)}', '${ids.member}', '${ids.workspace}', NULL, 'software', 'Design tools', 'Figma', 4500, 'USD', '${daysAgo(20)}', 0, '${now}', '${now}'),
  ('${fixedId('exp', 2)}', '${ids.user}', '${ids.workspace}', '${ids.projects[0]}', 'other', 'Print proofs', 'Druckerei Stern', 8900, 'EUR', '${daysAgo(3)}', 1, '${now}', '${now}');
INSERT OR IGNORE INTO time_entries (id, workspace_id, user_id, project_id, task, notes, spent_date, started_at, stopped_at, duration_seconds, billable, rate, currency, invoice_id, created_at, updated_at) VALUES
  ${timeEntryRows};
-- Both invoices were sent: what they keep of the issuer and the client, and their hosted links.
UPDATE invoices SET issuer = '${JSON.stringify(issuer).replace(/'/g, "''")}', bill_to = '${JSON.stringify(billTo(0)).replace(/'/g, "''")}', link_version = 1, link_hash = '${links[0].hash}'
  WHERE id = '${ids.invoices[0]}' AND link_version IS NULL;
UPDATE invoices SET issuer = '${JSON.stringify(issuer).replace(/'/g, "''")}', bill_to = '${JSON.stringify(billTo(1)).replace(/'/g, "''")}', link_version = 1, link_hash = '${links[1].hash}'
  WHERE id = '${ids.invoices[1]}' AND link_version IS NULL;
-- INV-000001 is a ready e-invoice (CII and UBL; its PDF is Factur-X): its snapshot, tax breakdown and buyer
-- reference are set on every run, so a database seeded before e-invoices existed gets them too.
UPDATE workspaces SET issuer = ${quoted(workspaceIssuer)} WHERE id = '${ids.workspace}' AND (issuer IS NULL OR json_extract(issuer, '$.legal_notes') IS NULL);
UPDATE invoices SET locale = 'de-DE' WHERE id = '${ids.invoices[0]}';
UPDATE invoices SET locale = 'en-GB' WHERE id = '${ids.invoices[1]}' AND locale IS NULL;
-- INV-000003: reverse charge to the French business, for last month's work, sent in French: its page and
-- PDF print both issuer numbers, the client's VAT id, "Autoliquidation" and the period, as its XML does.
UPDATE invoices SET issuer = ${quoted(issuer)}, bill_to = ${quoted(billTo(2))}, buyer_reference = 'DUB-2026-04', locale = 'fr-FR',
  payment_instructions = 'Virement SEPA sous 30 jours.', link_version = 1, link_hash = '${links[2].hash}',
  service_period_start = '${firstOfLastMonth}', service_period_end = '${lastOfLastMonth}',
  tax_breakdown = ${quoted([{ category: 'AE', rate: 0, taxable_amount: 380000, tax_amount: 0, discount_amount: 0, exemption_reason: 'Reverse charge', exemption_code: null }])}
  WHERE id = '${ids.invoices[2]}';
UPDATE clients SET tax_id = 'DE987654321', peppol_id = '9930:DE987654321', buyer_reference = 'ACME-2026-17', address_line1 = 'Marienplatz 8', address_postal_code = '80331', address_city = 'München'
  WHERE id = '${ids.clients[0]}' AND tax_id IS NULL;
UPDATE invoices SET issuer = ${quoted(issuer)}, bill_to = ${quoted(billTo(0))}, buyer_reference = 'ACME-2026-17',
  tax_breakdown = ${quoted([{ category: 'S', rate: 19, taxable_amount: 228000, tax_amount: 43320, exemption_reason: null, exemption_code: null }])}
  WHERE id = '${ids.invoices[0]}';
INSERT OR IGNORE INTO exchange_rates (currency, day, rate, as_of)
  SELECT key, '${firstRatesDay}', value, '${firstRatesDay}T12:00:00.000Z' FROM json_each(${quoted(sample.rates)});
-- A little history for the dashboard's activity (the API writes these with every change).
INSERT OR IGNORE INTO events (id, workspace_id, type, actor_type, actor_id, actor_name, object_id, summary, data, created_at) VALUES
  ('${fixedId('evt', 1)}', '${ids.workspace}', 'invoice.paid', 'user', '${ids.user}', 'Demo Studio', '${ids.invoices[0]}', 'Invoice INV-000001 paid in full', '{"object":{"id":"${ids.invoices[0]}","number":"INV-000001"}}', '${now}'),
  ('${fixedId('evt', 2)}', '${ids.workspace}', 'expense.created', 'user', '${ids.member}', 'Sam Rivera', '${fixedId('exp', 1)}', 'Expense at Figma of 4500 USD (minor units) created', '{"object":{"id":"${fixedId('exp', 1)}"}}', '${now}');
`;
const dir = mkdtempSync(join(tmpdir(), 'seed-'));
writeFileSync(join(dir, 'seed.sql'), sql);
wrangler('d1', 'execute', 'DB', '--local', `--file=${join(dir, 'seed.sql')}`);

const snapshot = { base: 'USD', rates: sample.rates, as_of: now, fetched_at: now, source: 'sample' };
writeFileSync(join(dir, 'rates.json'), JSON.stringify(snapshot));
wrangler('kv', 'key', 'put', '--local', '--binding=RATES_KV', 'rates:v1:USD', `--path=${join(dir, 'rates.json')}`);

// Received documents (§21, README "Receiving documents"): an XRechnung the print shop emailed, read and checked, and a photo of a café receipt Sam uploaded, read and waiting for review. Each is made once: its file goes to
// the local bucket under a key no one can guess, its row and events to DB.
const documentIds = { xrechnung: fixedId('ind', 1), receipt: fixedId('ind', 2) };
const stored = JSON.parse(wrangler('d1', 'execute', 'DB', '--local', '--json', `--command=SELECT id FROM inbound_documents WHERE id IN ('${documentIds.xrechnung}', '${documentIds.receipt}')`).toString())[0].results.map((row) => row.id);
if (stored.length < 2) {
  const made = JSON.parse(execFileSync('npx', ['tsx', join(root, 'scripts', 'seed-documents.ts'), daysAgo(1), 'RE-2026-0815'], { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] }).toString());
  const documents = [
    {
      id: documentIds.xrechnung, source: 'email', status: 'needs_review', filename: 'RE-2026-0815.xml', contentType: 'application/xml', bytes: Buffer.from(made.xrechnung),
      from: 'rechnung@druckerei-stern.example', userId: null, actor: ['system', null, 'email'], extraction: 'xml', ...made.read,
    },
    {
      id: documentIds.receipt, source: 'upload', status: 'needs_review', filename: 'receipt-cafe-einstein.png', contentType: 'image/png', bytes: Buffer.from(made.receipt, 'base64'),
      from: null, userId: ids.member, actor: ['user', ids.member, 'Sam Rivera'], format: 'image', extraction: 'model', confidence: 0.86, supplierKey: 'name:café einstein', number: 'B-20481',
      extracted: {
        kind: 'invoice', supplier: { name: 'Café Einstein', vat_id: null, tax_id: '27/456/12345', address: 'Kurfürstenstraße 58, 10785 Berlin', iban: null }, number: 'B-20481',
        issue_date: daysAgo(2), due_date: null, currency: 'EUR', subtotal: 1252, tax: 238, total: 1490,
        tax_breakdown: [{ category: 'S', rate: 19, taxable_amount: 1252, tax_amount: 238 }],
        lines: [{ description: 'Flat white', quantity: 2, unit_amount: 390, amount: 780, tax_rate: 19 }, { description: 'Franzbrötchen', quantity: 2, unit_amount: 236, amount: 472, tax_rate: 19 }],
        buyer_reference: null, purchase_order: null,
      },
      validation: { valid: true, checked_at: now, errors: [], warnings: [] },
    },
  ].filter((doc) => !stored.includes(doc.id));
  const rows = [];
  const eventRows = [];
  for (const doc of documents) {
    const key = `inbound/${ids.workspace}/${randomBytes(16).toString('base64url')}`;
    const file = join(dir, doc.filename);
    writeFileSync(file, doc.bytes);
    wrangler('r2', 'object', 'put', `workspace-files/${key}`, '--local', `--file=${file}`, `--content-type=${doc.contentType}`);
    const sha256 = createHash('sha256').update(doc.bytes).digest('hex');
    const object = {
      id: doc.id, source: doc.source, status: doc.status, received_at: now, filename: doc.filename, content_type: doc.contentType, size: doc.bytes.length, sha256,
      format: doc.format ?? null, profile: doc.profile ?? null, validation: doc.validation ?? null, extracted: doc.extracted ?? null, extraction: doc.extraction ?? null,
      confidence: doc.confidence ?? null, duplicate_of: null, expense_id: null, rejected_reason: null, failure_reason: null, from: doc.from, created_at: now, updated_at: now,
    };
    rows.push(`('${doc.id}', '${ids.workspace}', ${sqlValue(doc.userId)}, '${doc.source}', '${doc.status}', '${now}', ${sqlValue(doc.filename)}, '${doc.contentType}', ${doc.bytes.length}, '${sha256}', '${key}', ${sqlValue(doc.format)}, ${sqlValue(doc.profile ?? null)}, ${sqlJson(doc.validation)}, ${sqlJson(doc.extracted)}, ${sqlValue(doc.extraction)}, ${sqlValue(doc.confidence)}, ${sqlValue(doc.supplierKey)}, ${sqlValue(doc.number)}, ${sqlValue(doc.from)}, '${now}', '${now}')`);
    // Received by whoever brought it (an email is the system's), read by the inbound job: as the worker writes them.
    const event = (n, type, [actorType, actorId, actorName], data) =>
      `('${fixedId('evt', n)}', '${ids.workspace}', '${type}', '${actorType}', ${sqlValue(actorId)}, '${actorName}', '${doc.id}', ${sqlValue(`Document ${doc.filename} ${type.split('.')[1]}`)}, ${sqlJson({ object: data })}, '${now}')`;
    const asReceived = { ...object, status: 'received', format: null, validation: null, extracted: null, extraction: null, confidence: null };
    const xrechnung = doc.id === documentIds.xrechnung;
    eventRows.push(event(xrechnung ? 3 : 4, 'inbound_document.received', doc.actor, asReceived));
    eventRows.push(event(xrechnung ? 5 : 6, 'inbound_document.processed', ['system', null, 'inbound'], object));
  }
  if (rows.length) {
    writeFileSync(join(dir, 'documents.sql'), `INSERT OR IGNORE INTO inbound_documents (id, workspace_id, user_id, source, status, received_at, filename, content_type, size, sha256, file_key, format, profile, validation, extracted, extraction, confidence, supplier_key, number, from_address, created_at, updated_at) VALUES
  ${rows.join(',\n  ')};
INSERT OR IGNORE INTO events (id, workspace_id, type, actor_type, actor_id, actor_name, object_id, summary, data, created_at) VALUES
  ${eventRows.join(',\n  ')};
`);
    wrangler('d1', 'execute', 'DB', '--local', `--file=${join(dir, 'documents.sql')}`);
  }
}

console.log(`
  Workspace API — local demo
  Workspace "Demo Studio"
  Owner  demo@example.com  API key: ${ownerKey.key}
  Member sam@example.com   API key: ${memberKey.key}

  curl -H "Authorization: Bearer ${ownerKey.key}" http://localhost:8787/api/me
  curl -H "Authorization: Bearer ${ownerKey.key}" http://localhost:8787/api/workspace/members
  Invoice INV-000002 as the client sees it: http://localhost:8787/i/${links[1].token}
  Invoice INV-000003, reverse charge to a French business, in French: http://localhost:8787/i/${links[2].token}
    its Factur-X PDF:  http://localhost:8787/i/${links[2].token}/pdf
  Invoice INV-000001, a ready e-invoice: http://localhost:8787/i/${links[0].token}
    its Factur-X PDF:  http://localhost:8787/i/${links[0].token}/pdf
    its XML (CII):     http://localhost:8787/i/${links[0].token}/invoice.xml?format=cii
    its XML (UBL):     http://localhost:8787/i/${links[0].token}/invoice.xml?format=ubl
  curl -H "Authorization: Bearer ${ownerKey.key}" "http://localhost:8787/v1/invoices/${ids.invoices[0]}/e-invoice/check?format=ubl"
  A week of unbilled time and a print bill on "Brand refresh", into a draft invoice:
  curl -X POST -H "Authorization: Bearer ${ownerKey.key}" -H "Content-Type: application/json" \\
    -d '{"client_id": "${ids.clients[0]}", "group_by": "task"}' http://localhost:8787/v1/invoices/from-time
  Received documents: an XRechnung by email, waiting to be read, and a receipt photo waiting for review
  curl -H "Authorization: Bearer ${ownerKey.key}" http://localhost:8787/v1/inbound-documents
  curl -H "Authorization: Bearer ${ownerKey.key}" -o receipt.png http://localhost:8787/v1/inbound-documents/${documentIds.receipt}/file
  Reference: http://localhost:8787/docs
`);

function ulidLike() {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  let time = Date.now();
  let out = '';
  for (let i = 0; i < 10; i++) { out = alphabet[time % 32] + out; time = Math.floor(time / 32); }
  for (const b of randomBytes(16)) out += alphabet[b % 32];
  return out;
}
