// Every write operation in /openapi.json, on both listings, against the event record (§11): each
// writes exactly the events listed for it, in the same batch as its change, with the record as the
// API returned it and the caller as actor. A write route missing from this table fails the first
// test, so a new operation cannot forget its event. A batch that fails writes neither the change
// nor its event.
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { EventType } from '../../src/modules/events/types';
import { ADMIN_TOKEN, call, type ApiResponse } from '../helpers/api';
import { addMember, createClient, createInvoice, createProject, createSentInvoice, createUser, type TestUser } from '../helpers/factories';
import { readOnQueue, TINY_PNG } from '../helpers/inbound';
import { exportedXml, sentInvoice, supplierStudio } from '../inbound-documents/exports';
import { putRates } from '../helpers/rates';
import { recipient as transferRecipient, sendTransfer } from '../helpers/transfers';
import { label, type Route, routeTable } from '../helpers/route-table';

/**
 * One write operation: `setup` makes the record it acts on (its events are not the operation's),
 * `act` calls the route. `events` are what the call must write, oldest first; `[]` says why none.
 */
type Case = {
  events: EventType[];
  why?: string;
  setup?: (user: TestUser) => Promise<string>;
  act: (user: TestUser, path: (p: string) => string, id: string) => Promise<ApiResponse>;
  /** Set when the events carry different records (a credit note and its invoice): `act` checks each object itself. */
  objectsCheckedByAct?: string;
};

const expense = { category: 'software', amount: 4_900, vendor: 'Tools Inc.' };
const gig = { title: 'Landing page', description: 'One page.', budget_type: 'fixed', budget_min: 50_000, budget_max: 90_000 };
const lines = [{ description: 'Work', quantity: 2, unit_amount: 5_000 }];
const NOT_A_RECORD = 'not a record of §11';

const newClient = async (u: TestUser) => (await createClient(u.key)).id;
const newProject = async (u: TestUser) => (await createProject(u.key)).id;
const newDraft = async (u: TestUser) => (await createInvoice(u.key)).id;
const newOpenInvoice = async (u: TestUser) => (await createSentInvoice(u.key)).id;
const newEntry = async (u: TestUser) => (await call('POST', '/v1/time-entries', { key: u.key, body: { project_id: await newProject(u), duration_seconds: 600 } })).body.id;
const newTimer = async (u: TestUser) =>
  (await call('POST', '/v1/time-entries', { key: u.key, body: { project_id: await newProject(u), started_at: new Date(Date.now() - 60_000).toISOString() } })).body.id;
const newExpense = async (u: TestUser) => (await call('POST', '/api/workflow/expenses', { key: u.key, body: expense })).body.id;
const newTransfer = async (u: TestUser) => (await sendTransfer(u.key)).id;
const newGig = async (u: TestUser) => (await call('POST', '/v1/gigs', { key: u.key, body: gig })).body.id;
const newKey = async (u: TestUser) => (await call('POST', '/api/keys', { key: u.key, body: { name: 'CI' } })).body.id;
const newMember = (role: 'member' | 'viewer') => async (u: TestUser) => {
  const member = await addMember(u.key, role);
  const members = (await call('GET', '/api/workspace/members', { key: u.key })).body.data;
  return members.find((m: { user: { id: string } }) => m.user.id === member.id).id;
};
const newWorkspaceInvitation = async (u: TestUser) =>
  (await call('POST', '/api/workspace/invitations', { key: u.key, body: { email: `i${crypto.randomUUID()}@example.com`, role: 'viewer' } })).body.id;

const recurring = (clientId: string) => ({
  client_id: clientId, interval: 'month', start_date: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10), line_items: lines,
});
const newRecurring = async (u: TestUser) => (await call('POST', '/v1/recurring-invoices', { key: u.key, body: recurring(await newClient(u)) })).body.id;

/** A proposal another workspace sent for a new gig of the caller's; its gig is remembered for the path. */
const gigOfProposal = new Map<string, string>();
const newReceivedProposal = async (u: TestUser) => {
  const gigId = await newGig(u);
  const sender = await createUser('Sender');
  const id = (await call('POST', `/v1/gigs/${gigId}/proposals`, { key: sender.key, body: { message: 'I can do it.' } })).body.id as string;
  gigOfProposal.set(id, gigId);
  return id;
};

const WEBHOOK_SETTINGS = 'webhook endpoints have no event types in §11';
const endpoint = { url: 'https://hooks.example.com/events', events: ['*'] };
const newEndpoint = async (u: TestUser) => (await call('POST', '/api/webhook-endpoints', { key: u.key, body: endpoint })).body.id;

/** Keyed by method and path without its listing (`/api/workflow`, `/api`, `/v1`). */
const newQuote = async (u: TestUser, body: Record<string, unknown> = {}) =>
  (await call('POST', '/v1/quotes', { key: u.key, body: { client_id: await newClient(u), line_items: lines, ...body } })).body.id as string;
const newOpenQuote = async (u: TestUser) => {
  const id = await newQuote(u);
  await call('POST', `/v1/quotes/${id}/send`, { key: u.key });
  return id;
};
const newAcceptedQuote = async (u: TestUser) => {
  const id = await newOpenQuote(u);
  await call('POST', `/v1/quotes/${id}/accept`, { key: u.key, body: { name: 'Bill', method: 'email' } });
  return id;
};

/** A supplier's e-invoice, received into the caller's workspace and read, waiting for review (§21). */
let supplierXml: Promise<string> | undefined;
async function newDocumentInReview(u: TestUser): Promise<string> {
  supplierXml ??= (async () => {
    const supplier = await supplierStudio();
    return exportedXml(supplier, (await sentInvoice(supplier)).id, 'cii');
  })();
  const send = vi.spyOn(env.INBOUND_QUEUE, 'send').mockResolvedValue(undefined as never);
  try {
    const id = (await call('POST', '/v1/inbound-documents', { key: u.key, body: await supplierXml, headers: { 'Content-Type': 'application/xml' } })).body.id;
    const workspaceId = (await call('GET', '/api/workspace', { key: u.key })).body.id;
    const database = await env.DB.prepare('SELECT database FROM workspaces WHERE id = ?').bind(workspaceId).first<string | null>('database');
    await readOnQueue(id, { database: database ?? undefined });
    return id;
  } finally {
    send.mockRestore();
  }
}

const CASES: Record<string, Case> = {
  'POST /quotes': { events: ['quote.created'], setup: newClient, act: (u, p, clientId) => call('POST', p('/quotes'), { key: u.key, body: { client_id: clientId, line_items: lines } }) },
  'PATCH /quotes/{id}': { events: ['quote.updated'], setup: newQuote, act: (u, p, id) => call('PATCH', p(`/quotes/${id}`), { key: u.key, body: { notes: 'Renamed' } }) },
  'DELETE /quotes/{id}': { events: ['quote.deleted'], setup: newQuote, act: (u, p, id) => call('DELETE', p(`/quotes/${id}`), { key: u.key }) },
  'POST /quotes/{id}/send': { events: ['quote.sent'], setup: newQuote, act: (u, p, id) => call('POST', p(`/quotes/${id}/send`), { key: u.key }) },
  'POST /quotes/{id}/accept': { events: ['quote.accepted'], setup: newOpenQuote, act: (u, p, id) => call('POST', p(`/quotes/${id}/accept`), { key: u.key, body: { name: 'Bill', po_number: 'PO-1', method: 'phone' } }) },
  'POST /quotes/{id}/decline': { events: ['quote.declined'], setup: newOpenQuote, act: (u, p, id) => call('POST', p(`/quotes/${id}/decline`), { key: u.key, body: { reason: 'Too dear' } }) },
  'POST /quotes/{id}/cancel': { events: ['quote.canceled'], setup: newOpenQuote, act: (u, p, id) => call('POST', p(`/quotes/${id}/cancel`), { key: u.key }) },
  'POST /quotes/{id}/revise': { events: ['quote.created', 'quote.canceled'], setup: newOpenQuote, act: (u, p, id) => call('POST', p(`/quotes/${id}/revise`), { key: u.key }) },
  'POST /quotes/{id}/convert': { events: ['invoice.created', 'quote.converted'], setup: newAcceptedQuote, act: (u, p, id) => call('POST', p(`/quotes/${id}/convert`), { key: u.key }) },
  'POST /clients': { events: ['client.created'], act: (u, p) => call('POST', p('/clients'), { key: u.key, body: { name: 'Acme' } }) },
  'PATCH /clients/{id}': { events: ['client.updated'], setup: newClient, act: (u, p, id) => call('PATCH', p(`/clients/${id}`), { key: u.key, body: { name: 'Acme Renamed' } }) },
  'DELETE /clients/{id}': { events: ['client.deleted'], setup: newClient, act: (u, p, id) => call('DELETE', p(`/clients/${id}`), { key: u.key }) },
  'POST /projects': { events: ['project.created'], act: (u, p) => call('POST', p('/projects'), { key: u.key, body: { name: 'Site' } }) },
  'PATCH /projects/{id}': { events: ['project.updated'], setup: newProject, act: (u, p, id) => call('PATCH', p(`/projects/${id}`), { key: u.key, body: { status: 'on_hold' } }) },
  'DELETE /projects/{id}': { events: ['project.deleted'], setup: newProject, act: (u, p, id) => call('DELETE', p(`/projects/${id}`), { key: u.key }) },
  'POST /invoices': { events: ['invoice.created'], setup: newClient, act: (u, p, clientId) => call('POST', p('/invoices'), { key: u.key, body: { client_id: clientId, line_items: lines } }) },
  'PATCH /invoices/{id}': { events: ['invoice.updated'], setup: newDraft, act: (u, p, id) => call('PATCH', p(`/invoices/${id}`), { key: u.key, body: { notes: 'Thanks!' } }) },
  'DELETE /invoices/{id}': { events: ['invoice.deleted'], setup: newDraft, act: (u, p, id) => call('DELETE', p(`/invoices/${id}`), { key: u.key }) },
  'POST /invoices/{id}/send': { events: ['invoice.sent'], setup: newDraft, act: (u, p, id) => call('POST', p(`/invoices/${id}/send`), { key: u.key }) },
  'POST /invoices/{id}/payments': { events: ['invoice.payment_recorded'], setup: newOpenInvoice, act: (u, p, id) => call('POST', p(`/invoices/${id}/payments`), { key: u.key, body: { amount: 1_000 } }) },
  'POST /invoices/{id}/void': { events: ['invoice.voided'], setup: newOpenInvoice, act: (u, p, id) => call('POST', p(`/invoices/${id}/void`), { key: u.key }) },
  'POST /expenses': { events: ['expense.created'], act: (u, p) => call('POST', p('/expenses'), { key: u.key, body: expense }) },
  'PATCH /expenses/{id}': { events: ['expense.updated'], setup: newExpense, act: (u, p, id) => call('PATCH', p(`/expenses/${id}`), { key: u.key, body: { amount: 5_100 } }) },
  'DELETE /expenses/{id}': { events: ['expense.deleted'], setup: newExpense, act: (u, p, id) => call('DELETE', p(`/expenses/${id}`), { key: u.key }) },
  'POST /time-entries': { events: ['time_entry.created'], setup: newProject, act: (u, p, projectId) => call('POST', p('/time-entries'), { key: u.key, body: { project_id: projectId, duration_seconds: 900 } }) },
  'PATCH /time-entries/{id}': { events: ['time_entry.updated'], setup: newEntry, act: (u, p, id) => call('PATCH', p(`/time-entries/${id}`), { key: u.key, body: { duration_seconds: 1_200 } }) },
  'DELETE /time-entries/{id}': { events: ['time_entry.deleted'], setup: newEntry, act: (u, p, id) => call('DELETE', p(`/time-entries/${id}`), { key: u.key }) },
  'POST /time-entries/{id}/stop': { events: ['time_entry.updated'], setup: newTimer, act: (u, p, id) => call('POST', p(`/time-entries/${id}/stop`), { key: u.key }) },
  'POST /invoices/from-time': {
    events: ['invoice.created'],
    why: 'stamping the entries it bills is part of the invoice\'s change (one event, not one per entry)',
    setup: async (u) => {
      const clientId = await newClient(u);
      const projectId = (await createProject(u.key, { client_id: clientId, hourly_rate: 10_000 })).id;
      await call('POST', '/v1/time-entries', { key: u.key, body: { project_id: projectId, duration_seconds: 3_600 } });
      return clientId;
    },
    act: (u, p, clientId) => call('POST', p('/invoices/from-time'), { key: u.key, body: { client_id: clientId } }),
  },
  'POST /remit/transfer': {
    events: ['transfer.created'],
    act: (u, p) => call('POST', p('/remit/transfer'), { key: u.key, headers: { 'Idempotency-Key': crypto.randomUUID() }, body: { source_currency: 'USD', target_currency: 'EUR', source_amount: 100_000, recipient: transferRecipient() } }),
  },
  'POST /remit/quotes': {
    events: [], why: 'a quote only holds terms: it moves no money and changes no record (§11 has no event for it)',
    act: (u, p) => call('POST', p('/remit/quotes'), { key: u.key, body: { source_currency: 'USD', target_currency: 'EUR', source_amount: 100_000 } }),
  },
  'POST /remit/transfers/{id}/cancel': { events: ['transfer.canceled'], setup: newTransfer, act: (u, p, id) => call('POST', p(`/remit/transfers/${id}/cancel`), { key: u.key }) },
  'PATCH /workspace/members/{id}': { events: ['member.role_changed'], setup: newMember('member'), act: (u, p, id) => call('PATCH', p(`/workspace/members/${id}`), { key: u.key, body: { role: 'admin' } }) },
  'DELETE /workspace/members/{id}': { events: ['member.removed'], setup: newMember('viewer'), act: (u, p, id) => call('DELETE', p(`/workspace/members/${id}`), { key: u.key }) },

  // Writes that change no record of §11 write no event.
  'POST /ai/suggest': { events: [], why: 'its job writes suggestion.completed or .failed', act: (u, p) => call('POST', p('/ai/suggest'), { key: u.key, body: { task: 'Plan a relaunch' } }) },
  'POST /exports': { events: [], why: 'an export job reads the books and changes no record (§11 has no event for it)', act: (u, p) => call('POST', p('/exports'), { key: u.key, body: { from: '2026-01-01', to: '2026-03-31' } }) },
  'POST /gigs': { events: [], why: 'the public gig board has no event types in §11', act: (u, p) => call('POST', p('/gigs'), { key: u.key, body: gig }) },
  'PATCH /gigs/{id}': { events: [], why: 'the public gig board has no event types in §11', setup: newGig, act: (u, p, id) => call('PATCH', p(`/gigs/${id}`), { key: u.key, body: { title: 'New' } }) },
  'DELETE /gigs/{id}': { events: [], why: 'the public gig board has no event types in §11', setup: newGig, act: (u, p, id) => call('DELETE', p(`/gigs/${id}`), { key: u.key }) },
  // Proposals (§24): each change tells the other workspace; only the poster's accept writes in its own.
  'POST /gigs/{id}/proposals': {
    events: [], why: 'the poster\'s workspace is told (gig.proposal_received), not the sender\'s',
    setup: async () => newGig(await createUser('Poster')),
    act: (u, p, gigId) => call('POST', p(`/gigs/${gigId}/proposals`), { key: u.key, body: { message: 'I can do it.' } }),
  },
  'POST /gigs/{id}/proposals/{pid}/decline': {
    events: [], why: 'the sender\'s workspace is told (proposal.declined), not the poster\'s', setup: newReceivedProposal,
    act: (u, p, id) => call('POST', p(`/gigs/${gigOfProposal.get(id)}/proposals/${id}/decline`), { key: u.key, body: {} }),
  },
  'POST /gigs/{id}/proposals/{pid}/accept': {
    events: ['proposal.accepted'], setup: newReceivedProposal,
    act: (u, p, id) => call('POST', p(`/gigs/${gigOfProposal.get(id)}/proposals/${id}/accept`), { key: u.key }),
  },
  'POST /proposals/{id}/withdraw': {
    events: [], why: 'the poster\'s workspace is told (proposal.withdrawn), not the sender\'s',
    setup: async (u) => {
      const gigId = await newGig(await createUser('Poster'));
      return (await call('POST', `/v1/gigs/${gigId}/proposals`, { key: u.key, body: { message: 'I can do it.' } })).body.id;
    },
    act: (u, p, id) => call('POST', p(`/proposals/${id}/withdraw`), { key: u.key }),
  },
  'POST /keys': { events: [], why: NOT_A_RECORD, act: (u, p) => call('POST', p('/keys'), { key: u.key, body: { name: 'CI' } }) },
  'DELETE /keys/{id}': { events: [], why: NOT_A_RECORD, setup: newKey, act: (u, p, id) => call('DELETE', p(`/keys/${id}`), { key: u.key }) },
  'POST /workspaces': { events: [], why: 'the new workspace is not the caller\'s', act: (u, p) => call('POST', p('/workspaces'), { key: u.key, body: { name: 'Side studio' } }) },
  'PATCH /workspace': { events: [], why: 'settings have no event type in §11', act: (u, p) => call('PATCH', p('/workspace'), { key: u.key, body: { payment_instructions: 'Bank transfer' } }) },
  'POST /workspace/invitations': { events: [], why: 'member.added comes when it is accepted', act: (u, p) => call('POST', p('/workspace/invitations'), { key: u.key, body: { email: `i${crypto.randomUUID()}@example.com`, role: 'viewer' } }) },
  'DELETE /workspace/invitations/{id}': { events: [], why: NOT_A_RECORD, setup: newWorkspaceInvitation, act: (u, p, id) => call('DELETE', p(`/workspace/invitations/${id}`), { key: u.key }) },
  'POST /waitlist': { events: [], why: 'public, outside any workspace', act: (_u, p) => call('POST', p('/waitlist'), { body: { email: `w${crypto.randomUUID()}@example.com` } }) },
  'POST /invitations/accept': {
    events: [], why: 'a signup makes a new workspace; joining one writes member.added (test/workspaces)',
    act: async () => {
      const invite = await call('POST', '/api/admin/invitations', { key: ADMIN_TOKEN, body: { email: `s${crypto.randomUUID()}@example.com` } });
      return call('POST', '/api/invitations/accept', { body: { code: invite.body.code, name: 'New' } });
    },
  },
  'POST /webhook-endpoints': { events: [], why: WEBHOOK_SETTINGS, act: (u, p) => call('POST', p('/webhook-endpoints'), { key: u.key, body: endpoint }) },
  'PATCH /webhook-endpoints/{id}': { events: [], why: WEBHOOK_SETTINGS, setup: newEndpoint, act: (u, p, id) => call('PATCH', p(`/webhook-endpoints/${id}`), { key: u.key, body: { description: 'Books' } }) },
  'DELETE /webhook-endpoints/{id}': { events: [], why: WEBHOOK_SETTINGS, setup: newEndpoint, act: (u, p, id) => call('DELETE', p(`/webhook-endpoints/${id}`), { key: u.key }) },
  'POST /webhook-endpoints/{id}/rotate-secret': { events: [], why: WEBHOOK_SETTINGS, setup: newEndpoint, act: (u, p, id) => call('POST', p(`/webhook-endpoints/${id}/rotate-secret`), { key: u.key, body: {} }) },
  'POST /webhook-endpoints/{id}/test': { events: [], why: 'a test event is logged in the deliveries, never in /api/events', setup: newEndpoint, act: (u, p, id) => call('POST', p(`/webhook-endpoints/${id}/test`), { key: u.key }) },
  'POST /webhook-endpoints/{id}/recover': { events: [], why: 'it delivers events again; it changes no record', setup: newEndpoint, act: (u, p, id) => call('POST', p(`/webhook-endpoints/${id}/recover`), { key: u.key, body: { since: '2026-01-01T00:00:00Z' } }) },
  'POST /events/{id}/resend': {
    events: [], why: 'it delivers an event again; it changes no record',
    setup: async (u) => {
      await newEndpoint(u);
      await newClient(u);
      return (await call('GET', '/api/events?limit=1', { key: u.key })).body.data[0].id;
    },
    act: async (u, p, id) => {
      const endpointId = (await call('GET', '/api/webhook-endpoints?limit=1', { key: u.key })).body.data[0].id;
      return call('POST', p(`/events/${id}/resend`), { key: u.key, body: { endpoint_id: endpointId } });
    },
  },
  'POST /invoices/{id}/share-link': { events: [], why: 'a new link changes no field an event carries (links are never in events)', setup: async (u) => (await createSentInvoice(u.key)).id, act: (u, p, id) => call('POST', p(`/invoices/${id}/share-link`), { key: u.key }) },
  'POST /recurring-invoices': { events: ['recurring_invoice.created'], setup: newClient, act: (u, p, clientId) => call('POST', p('/recurring-invoices'), { key: u.key, body: recurring(clientId) }) },
  'PATCH /recurring-invoices/{id}': { events: ['recurring_invoice.updated'], setup: newRecurring, act: (u, p, id) => call('PATCH', p(`/recurring-invoices/${id}`), { key: u.key, body: { due_in_days: 14 } }) },
  'DELETE /recurring-invoices/{id}': { events: [], why: '§11 has no recurring_invoice.deleted; the invoices it issued stay', setup: newRecurring, act: (u, p, id) => call('DELETE', p(`/recurring-invoices/${id}`), { key: u.key }) },
  'POST /recurring-invoices/{id}/pause': { events: ['recurring_invoice.paused'], setup: newRecurring, act: (u, p, id) => call('POST', p(`/recurring-invoices/${id}/pause`), { key: u.key }) },
  'POST /recurring-invoices/{id}/resume': {
    events: ['recurring_invoice.resumed'],
    setup: async (u) => {
      const id = await newRecurring(u);
      await call('POST', `/v1/recurring-invoices/${id}/pause`, { key: u.key });
      return id;
    },
    act: (u, p, id) => call('POST', p(`/recurring-invoices/${id}/resume`), { key: u.key }),
  },
  'POST /recurring-invoices/{id}/cancel': { events: ['recurring_invoice.canceled'], setup: newRecurring, act: (u, p, id) => call('POST', p(`/recurring-invoices/${id}/cancel`), { key: u.key }) },
  // Online payment (§16): the provider setting is a setting, its secrets never in an event; a refund
  // writes invoice.payment_refunded on the invoice (the refund rides in data.refund), so the act
  // reads the invoice back to compare the event's object with it.
  'PUT /workspace/payment-provider': { events: [], why: 'settings have no event type in §11', act: (u, p) => call('PUT', p('/workspace/payment-provider'), { key: u.key, body: { provider: 'sandbox' } }) },
  'DELETE /workspace/payment-provider': { events: [], why: 'settings have no event type in §11', act: (u, p) => call('DELETE', p('/workspace/payment-provider'), { key: u.key }) },
  'PUT /workspace/payout-provider': { events: [], why: 'settings have no event type in §11', act: (u, p) => call('PUT', p('/workspace/payout-provider'), { key: u.key, body: { provider: 'sandbox' } }) },
  'POST /workspace/inbound-address/rotate': { events: [], why: 'settings have no event type in §11', act: (u, p) => call('POST', p('/workspace/inbound-address/rotate'), { key: u.key }) },
  'DELETE /workspace/payout-provider': { events: [], why: 'settings have no event type in §11', act: (u, p) => call('DELETE', p('/workspace/payout-provider'), { key: u.key }) },
  'POST /invoices/{id}/payments/{payment_id}/refunds': {
    events: ['invoice.payment_refunded'],
    setup: async (u) => {
      const id = await newOpenInvoice(u);
      await call('POST', `/v1/invoices/${id}/payments`, { key: u.key, body: { amount: 1_000 } });
      return id;
    },
    act: async (u, p, id) => {
      const [payment] = (await call('GET', `/v1/invoices/${id}/payments`, { key: u.key })).body.data;
      const refund = await call('POST', p(`/invoices/${id}/payments/${payment.id}/refunds`), { key: u.key, body: { amount: 400 } });
      if (refund.status !== 201) return refund;
      const events = (await call('GET', '/api/events?type=invoice.payment_refunded&limit=1', { key: u.key })).body.data;
      expect(events[0].data.refund).toEqual(refund.body);
      return call('GET', p(`/invoices/${id}`), { key: u.key });
    },
  },
  // A credit note (§17): credit_note.issued carries the credit note, invoice.credited the invoice with
  // the credit note in data.credit_note; crediting all of an open invoice settles it (invoice.paid).
  'POST /invoices/{id}/credit-notes': {
    events: ['credit_note.issued', 'invoice.credited', 'invoice.paid'],
    objectsCheckedByAct: 'the credit note and the invoice',
    setup: newOpenInvoice,
    act: async (u, p, id) => {
      const res = await call('POST', p(`/invoices/${id}/credit-notes`), { key: u.key, body: { reason: 'duplicate', email: false } });
      if (res.status !== 201) return res;
      const events = (await call('GET', '/api/events?limit=3', { key: u.key })).body.data;
      const invoice = (await call('GET', p(`/invoices/${id}`), { key: u.key })).body;
      const note = { ...res.body, hosted_url: null, pdf_url: null };
      expect(events.find((e: any) => e.type === 'credit_note.issued').data.object).toEqual(note);
      for (const type of ['invoice.credited', 'invoice.paid']) expect(events.find((e: any) => e.type === type).data.object).toEqual({ ...invoice, hosted_url: null, pdf_url: null });
      expect(events.find((e: any) => e.type === 'invoice.credited').data.credit_note).toEqual(note);
      return res;
    },
  },
  // Receiving (§21): the document as received; reading it writes inbound_document.processed on the queue.
  'POST /inbound-documents': {
    events: ['inbound_document.received'],
    act: async (u, p) => {
      // Off the runtime's queue, whose consumer could write .processed before the events are read.
      const send = vi.spyOn(env.INBOUND_QUEUE, 'send').mockResolvedValue(undefined as never);
      try {
        return await call('POST', p('/inbound-documents?filename=receipt.png'), { key: u.key, body: TINY_PNG, headers: { 'Content-Type': 'image/png' } });
      } finally {
        send.mockRestore();
      }
    },
  },
  // Review (§21): a correction is an update of the document; accepting it books the expense in the same batch.
  'PATCH /inbound-documents/{id}': {
    events: ['inbound_document.updated'], setup: newDocumentInReview,
    act: (u, p, id) => call('PATCH', p(`/inbound-documents/${id}`), { key: u.key, body: { extracted: { purchase_order: 'PO-2' } } }),
  },
  'POST /inbound-documents/{id}/accept': {
    events: ['inbound_document.accepted', 'expense.created'], setup: newDocumentInReview,
    objectsCheckedByAct: 'the document and the expense it books',
    act: async (u, p, id) => {
      const res = await call('POST', p(`/inbound-documents/${id}/accept`), { key: u.key, body: { category: 'software' } });
      const events = (await call('GET', '/api/events?limit=2', { key: u.key })).body.data;
      expect(events.find((e: any) => e.type === 'inbound_document.accepted').data.object).toEqual(res.body);
      const expense = (await call('GET', `/api/workflow/expenses/${res.body.expense_id}`, { key: u.key })).body;
      expect(events.find((e: any) => e.type === 'expense.created').data.object).toEqual(expense);
      return res;
    },
  },
  'POST /inbound-documents/{id}/reject': {
    events: ['inbound_document.rejected'], setup: newDocumentInReview,
    act: (u, p, id) => call('POST', p(`/inbound-documents/${id}/reject`), { key: u.key, body: { reason: 'Not ours' } }),
  },
  'POST /admin/invitations': { events: [], why: 'the operator\'s, outside any workspace', act: (_u, p) => call('POST', p('/admin/invitations'), { key: ADMIN_TOKEN, body: { email: `a${crypto.randomUUID()}@example.com` } }) },
};

const withoutListing = (path: string) => path.replace(/^\/(api\/workflow|api|v1)(?=\/)/, '');

// Read while collecting, so each write operation is a test of its own rather than one test
// looping over all of them against a single time limit.
const writes: Route[] = (await routeTable()).routes.filter((r) => r.method !== 'GET');

beforeAll(async () => {
  await putRates({ EUR: 0.92, GBP: 0.79 });
});

/**
 * The caller, in a workspace of its own per case (so that no other case's background work can
 * write to its event record): one person makes them through POST /api/workspaces, one request where
 * a new signup takes two, and is replaced before nearing the 10 workspaces a person may own (a case
 * may make one too).
 */
let writer: TestUser | undefined;
let workspacesMade = 0;
async function writerInNewWorkspace(): Promise<TestUser> {
  if (!writer || workspacesMade >= 8) [writer, workspacesMade] = [await createUser('Event Writer'), 0];
  workspacesMade++;
  const res = await call('POST', '/api/workspaces', { key: writer.key, body: { name: 'Event studio' } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { ...writer, key: res.body.api_key.key, keyId: res.body.api_key.id };
}

describe('one event per change', () => {
  it('lists every write operation of the document', () => {
    const unlisted = writes.filter((r) => !CASES[`${r.method} ${withoutListing(r.path)}`]).map(label);
    expect(unlisted, 'add these to CASES with the events they write').toEqual([]);
  });

  const listed = writes.filter((r) => CASES[`${r.method} ${withoutListing(r.path)}`]);
  it.each(listed.map((r) => [label(r), r] as const))('%s writes exactly the listed events with the record as returned and the caller as actor', async (_, route) => {
    {
      const testCase = CASES[`${route.method} ${withoutListing(route.path)}`]!;
      const user = await writerInNewWorkspace();
      const listing = route.path.slice(0, route.path.length - withoutListing(route.path).length);
      const setupId = testCase.setup ? await testCase.setup(user) : '';
      const before = new Set((await call('GET', '/api/events?limit=100', { key: user.key })).body.data.map((e: { id: string }) => e.id));
      const res = await testCase.act(user, (p) => listing + p, setupId);
      expect(res.status, `${label(route)}: answered ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`).toBeLessThan(300);
      const written = (await call('GET', '/api/events?limit=100', { key: user.key })).body.data.filter((e: { id: string }) => !before.has(e.id)).reverse();
      const types = written.map((e: { type: string }) => e.type);
      expect(types, label(route)).toEqual(testCase.events);
      for (const event of written) {
        // Setup makes the record an {id} path acts on; elsewhere it makes a parent (a client) and the answer is the record.
        // An action that makes another record (a quote's revision or its invoice) answers that one, and writes its event too.
        const answered = res.body?.id !== undefined && res.body.id !== setupId && event.data.object.id === res.body.id;
        const recordId = route.path.includes('{id}') && !answered ? setupId : res.body.id;
        expect(event.actor, label(route)).toEqual({ type: 'user', id: user.id, name: 'Event Writer' });
        if (testCase.objectsCheckedByAct) continue;
        expect(event.data.object.id, label(route)).toBe(recordId);
        if (recordId !== res.body?.id) continue;
        // An action or update answers the record: the event carries exactly that. A delete answers nothing.
        // An invoice's links are left out of events: their tokens are the client's, never stored.
        const links = res.body && 'hosted_url' in res.body ? { hosted_url: null, pdf_url: null } : {};
        if (res.status !== 204) expect(event.data.object, label(route)).toEqual({ ...res.body, ...links });
        if (event.type.endsWith('.updated') || event.type === 'member.role_changed') expect(Object.keys(event.data.previous_attributes ?? {}).length, label(route)).toBeGreaterThan(0);
      }
    }
  });

  it('writes neither the change nor its event when the event cannot be written', async () => {
    const user = await createUser();
    await env.DB.prepare("CREATE TRIGGER fail_events BEFORE INSERT ON events BEGIN SELECT RAISE(ABORT, 'injected'); END").run();
    try {
      expect((await call('POST', '/api/workflow/clients', { key: user.key, body: { name: 'Never' } })).status).toBe(500);
    } finally {
      await env.DB.prepare('DROP TRIGGER fail_events').run();
    }
    expect((await call('GET', '/api/workflow/clients', { key: user.key })).body.data).toEqual([]);
  });

  it('writes no event when the change fails', async () => {
    const user = await createUser();
    const client = await createClient(user.key, { name: 'Before' });
    await env.DB.prepare("CREATE TRIGGER fail_client_update BEFORE UPDATE ON clients BEGIN SELECT RAISE(ABORT, 'injected'); END").run();
    try {
      expect((await call('PATCH', `/api/workflow/clients/${client.id}`, { key: user.key, body: { name: 'After' } })).status).toBe(500);
    } finally {
      await env.DB.prepare('DROP TRIGGER fail_client_update').run();
    }
    expect((await call('GET', `/api/workflow/clients/${client.id}`, { key: user.key })).body.name).toBe('Before');
    expect((await call('GET', '/api/events?type=client.updated', { key: user.key })).body.data).toEqual([]);
  });
});
