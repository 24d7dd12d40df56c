// A whole scenario through a client generated from /openapi.json with the default settings of
// openapi-typescript (`openapi-typescript openapi.json -o generated/api.d.ts`; its types, and
// openapi-fetch calls): invite, accept, client, project, invoice, send, pay, dashboard.
//   BASE_URL=http://127.0.0.1:8787 ADMIN_TOKEN=… npx tsx examples/scenario-openapi-fetch.ts
import createClient from 'openapi-fetch';
import type { paths } from './generated/api';

// Node's process, declared here so the example needs no @types/node.
declare const process: { env: Record<string, string | undefined> };

const baseUrl = process.env.BASE_URL ?? 'http://127.0.0.1:8787';
const adminToken = process.env.ADMIN_TOKEN ?? 'dev-admin-token-change-me';

function must<T>(result: { data?: T; error?: unknown; response: Response }, what: string): T {
  if (result.data === undefined) throw new Error(`${what} failed with ${result.response.status}: ${JSON.stringify(result.error)}`);
  console.log(`✓ ${what} (${result.response.status})`);
  return result.data;
}

const admin = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${adminToken}` } });
const email = `scenario-${Date.now()}@example.com`;
const invitation = must(await admin.POST('/api/admin/invitations', { body: { email, expires_in_days: 7 } }), `invite ${email}`);

const anonymous = createClient<paths>({ baseUrl });
const accepted = must(await anonymous.POST('/api/invitations/accept', { body: { code: invitation.code, name: 'Scenario Studio' } }), 'accept the invitation');

const api = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${accepted.api_key.key}` } });
const client = must(await api.POST('/v1/clients', { body: { name: 'Initech', email: 'ap@initech.example', currency: 'USD' } }), 'create a client');
const project = must(await api.POST('/v1/projects', { body: { name: 'TPS reports', client_id: client.id, hourly_rate: 12_000 } }), 'create a project');
const invoice = must(
  await api.POST('/v1/invoices', {
    body: {
      client_id: client.id,
      project_id: project.id,
      line_items: [
        { description: 'Discovery', quantity: 2.5, unit_amount: 12_000, tax_rate: 8.25 },
        { description: 'Cover sheets', quantity: 1, unit_amount: 4_999 },
      ],
    },
  }),
  'draft an invoice',
);
console.log(`  ${invoice.number}: subtotal ${invoice.subtotal}, tax ${invoice.tax}, total ${invoice.total} (${invoice.currency} minor units)`);
must(await api.POST('/v1/invoices/{id}/send', { params: { path: { id: invoice.id } } }), 'send it');
const paid = must(
  await api.POST('/v1/invoices/{id}/payments', {
    params: { path: { id: invoice.id }, header: { 'Idempotency-Key': `pay-${invoice.id}` } },
    body: { amount: invoice.total, method: 'bank_transfer' },
  }),
  'record the payment',
);
if (paid.status !== 'paid' || paid.amount_due !== 0) throw new Error(`expected a paid invoice, got ${paid.status} with ${paid.amount_due} due`);
const dashboard = must(await api.GET('/api/workflow/dashboard', {}), 'read the dashboard');
console.log(`  collected ${dashboard.totals.collected} ${dashboard.currency} minor units; invoices paid: ${dashboard.counts.invoices.paid}`);
if (dashboard.totals.collected !== invoice.total) throw new Error('the dashboard does not show the payment');
console.log('Scenario complete.');
