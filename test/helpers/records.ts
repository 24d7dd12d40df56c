// One way to make a record of every kind, keyed by the id prefix its routes take in /openapi.json
// (cli, prj, inv, …). The isolation matrix and the contract fuzzer walk the route table and look
// the prefix up here, so a route for a new kind of record fails both until a factory is added:
// that is the reminder, on purpose.
//
// `states` lists ways to make the record in each state worth reaching; the first is the freshly
// created one, which its owner may still edit and delete. Actions (send, pay, void, cancel) are
// tried on every state. `settle` finishes the background work a new record starts (a queue
// message), for tests that compare a record before and after.
import { env } from 'cloudflare:workers';
import { vi } from 'vitest';
import { call } from './api';
import { addMember, createClient, createInvoice, createProject, createSentInvoice, createUser, type TestUser } from './factories';
import { readOnQueue, TINY_PNG, uploadDocument } from './inbound';
import { nestedPathValues } from './route-table';
import { sendTransfer } from './transfers';
import { deliver } from './worker';

export type RecordKind = {
  states: ((key: string) => Promise<string>)[];
  settle?: (id: string) => Promise<void>;
  /** A record the key's own list of its kind shows, where that is not the one `states` makes (a proposal). */
  listed?: (key: string) => Promise<string>;
};

/** A monthly recurring invoice starting tomorrow (UTC), so no time zone finds its start in the past. */
const recurring = (clientId: string) => ({
  client_id: clientId, interval: 'month', start_date: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
  line_items: [{ description: 'Retainer', quantity: 1, unit_amount: 250_000 }],
});

/**
 * The client a key's documents (invoices, quotes, schedules) are made for: one per key, made on
 * first use, since no state these records are wanted in depends on having a client of their own.
 */
const clients = new Map<string, Promise<string>>();
function clientOf(key: string): Promise<string> {
  let id = clients.get(key);
  if (!id) {
    id = createClient(key).then((client) => client.id as string);
    id.catch(() => clients.delete(key));
    clients.set(key, id);
  }
  return id;
}

const created = (what: string, res: { status: number; body: any }) => {
  if (res.status >= 300) throw new Error(`Could not create ${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  return res.body.id as string;
};

/**
 * Someone in another workspace, to send proposals to a key's gigs or post the gigs a key answers: a
 * workspace sends at most 20 proposals a day, so a new one is made after 15, or when the storage
 * that held it was emptied for another test file.
 */
let other: { user: TestUser; sent: number } | null = null;
async function otherWorkspace(): Promise<string> {
  if (!other || other.sent >= 15) other = { user: await createUser('Another studio'), sent: 0 };
  other.sent++;
  return other.user.key;
}

const postGig = async (key: string) =>
  created('a gig', await call('POST', '/v1/gigs', { key, body: { title: 'Landing page', description: 'One page, responsive.', budget_type: 'fixed', budget_min: 50_000, budget_max: 90_000 } }));

/** A submitted proposal of `from` for `gig`; an answer of 401 (its user gone with the storage) gets a new sender once. */
async function proposalOf(gig: string, from: () => Promise<string>): Promise<string> {
  const send = async () => call('POST', `/v1/gigs/${gig}/proposals`, { key: await from(), body: { message: 'I can build this in a week.' } });
  let res = await send();
  // The sender's rows went with the storage of another test file: while the worker still holds its key (30 s), the
  // answer is a 500 from the database's foreign keys rather than a 401. A new sender either way.
  if (res.status === 401 || res.status === 500) {
    other = null;
    res = await send();
  }
  const id = created('a proposal', res);
  nestedPathValues.set(id, { id: gig, pid: id });
  return id;
}

export const recordKinds: Record<string, RecordKind> = {
  cli: { states: [async (key) => (await createClient(key)).id] },
  prj: { states: [async (key) => (await createProject(key)).id] },
  inv: {
    states: [
      async (key) => (await createInvoice(key, { client_id: await clientOf(key) })).id, // draft
      async (key) => (await createSentInvoice(key, { client_id: await clientOf(key) })).id, // open
    ],
  },
  // A draft (editable, deletable, sendable), an open quote (answerable, cancelable, revisable) and an accepted one.
  quo: {
    states: [
      async (key) => created('a quote', await call('POST', '/v1/quotes', { key, body: { client_id: await clientOf(key), line_items: [{ description: 'Design', quantity: 1, unit_amount: 90_000 }] } })),
      async (key) => {
        const id = created('a quote', await call('POST', '/v1/quotes', { key, body: { client_id: await clientOf(key), line_items: [{ description: 'Design', quantity: 1, unit_amount: 90_000 }] } }));
        await call('POST', `/v1/quotes/${id}/send`, { key });
        return id;
      },
      // Accepted: convertible.
      async (key) => {
        const id = created('a quote', await call('POST', '/v1/quotes', { key, body: { client_id: await clientOf(key), line_items: [{ description: 'Design', quantity: 1, unit_amount: 90_000 }] } }));
        await call('POST', `/v1/quotes/${id}/send`, { key });
        await call('POST', `/v1/quotes/${id}/accept`, { key, body: { name: 'Bill', method: 'email' } });
        return id;
      },
    ],
  },
  exp: {
    states: [async (key) => created('an expense', await call('POST', '/api/workflow/expenses', { key, body: { category: 'software', amount: 4_900, vendor: 'Tools Inc.' } }))],
  },
  gig: {
    states: [
      async (key) =>
        created('a gig', await call('POST', '/v1/gigs', { key, body: { title: 'Landing page', description: 'One page, responsive.', budget_type: 'fixed', budget_min: 50_000, budget_max: 90_000 } })),
    ],
  },
  // A proposal another workspace sent for the key's gig: the poster's routes act on it, and either side
  // reads it (its routes live under the gig too: …/gigs/{id}/proposals/{pid}/…). The key's own list
  // (GET /v1/proposals) shows the ones its workspace sent.
  prp: {
    states: [async (key) => proposalOf(await postGig(key), otherWorkspace)],
    listed: async (key) => {
      let gig: string;
      try {
        gig = await postGig(await otherWorkspace());
      } catch {
        other = null;
        gig = await postGig(await otherWorkspace());
      }
      return proposalOf(gig, async () => key);
    },
  },
  // The quote needs rates in the cache (putRates) first.
  trf: {
    states: [async (key) => (await sendTransfer(key)).id],
    settle: async (id) => void (await deliver('workspace-transfers', [{ id: `settle-${id}`, body: { transfer_id: id } }])),
  },
  rq: {
    states: [
      async (key) => created('a transfer quote', await call('POST', '/v1/remit/quotes', { key, body: { source_currency: 'USD', target_currency: 'EUR', source_amount: 100_000 } })),
    ],
  },
  // A period bundle of today (§22); settling it runs its queue job.
  xpt: {
    states: [async (key) => created('an export', await call('POST', '/v1/exports', { key, body: { from: new Date().toISOString().slice(0, 10), to: new Date().toISOString().slice(0, 10) } }))],
    settle: async (id) => void (await deliver('workspace-exports', [{ id: `settle-${id}`, body: { export_id: id } }])),
  },
  sug: {
    states: [async (key) => created('a suggestion', await call('POST', '/v1/ai/suggest', { key, body: { task: 'Plan a website relaunch' } }))],
    settle: async (id) => void (await deliver('workspace-suggestions', [{ id: `settle-${id}`, body: { suggestion_id: id } }])),
  },
  key: { states: [async (key) => created('an API key', await call('POST', '/api/keys', { key, body: { name: 'spare' } }))] },
  // The newest event of the workspace: making a client writes one.
  evt: {
    states: [
      async (key) => {
        await createClient(key);
        return (await call('GET', '/api/events?limit=1', { key })).body.data[0].id;
      },
    ],
  },
  // A viewer invited into the workspace (the owner's own membership would be the last owner).
  mem: {
    states: [
      async (key) => {
        const viewer = await addMember(key, 'viewer');
        return (await call('GET', '/api/workspace/members?limit=100', { key })).body.data.find((m: { user: { id: string } }) => m.user.id === viewer.id).id;
      },
    ],
  },
  // A workspace holds 16 endpoints: a caller that makes many drops its oldest to make room.
  we: {
    states: [
      async (key) => {
        const create = () => call('POST', '/api/webhook-endpoints', { key, body: { url: `https://hooks.example.com/${crypto.randomUUID()}`, events: ['invoice.paid'] } });
        let res = await create();
        if (res.status === 409) {
          const oldest = (await call('GET', '/api/webhook-endpoints?limit=100', { key })).body.data.at(-1);
          await call('DELETE', `/api/webhook-endpoints/${oldest.id}`, { key });
          res = await create();
        }
        return created('a webhook endpoint', res);
      },
    ],
  },
  // Active (pause, cancel), and paused (resume).
  rin: {
    states: [
      async (key) => created('a recurring invoice', await call('POST', '/v1/recurring-invoices', { key, body: recurring(await clientOf(key)) })),
      async (key) => {
        const id = created('a recurring invoice', await call('POST', '/v1/recurring-invoices', { key, body: recurring(await clientOf(key)) }));
        await call('POST', `/v1/recurring-invoices/${id}/pause`, { key });
        return id;
      },
    ],
  },
  // A manual payment on an open invoice; its routes live under the invoice (…/invoices/{id}/payments/{payment_id}/…).
  pay: {
    states: [
      async (key) => {
        const invoice = await createSentInvoice(key, { client_id: await clientOf(key) });
        await call('POST', `/v1/invoices/${invoice.id}/payments`, { key, body: { amount: 10_000 } });
        const id = (await call('GET', `/v1/invoices/${invoice.id}/payments`, { key })).body.data[0].id as string;
        nestedPathValues.set(id, { id: invoice.id, payment_id: id });
        return id;
      },
    ],
  },
  // A line of an open invoice (a credit note names the lines it credits).
  li: { states: [async (key) => (await createSentInvoice(key, { client_id: await clientOf(key) })).line_items[0].id as string] },
  // A credit note of part of an open invoice (the invoice can be credited again); its routes are its own
  // (…/credit-notes/{id}) or its invoice's (…/invoices/{id}/credit-notes).
  cn: {
    states: [
      async (key) => {
        const invoice = await createSentInvoice(key, { client_id: await clientOf(key) });
        const res = await call('POST', `/v1/invoices/${invoice.id}/credit-notes`, { key, body: { reason: 'other', email: false, lines: [{ line_item_id: invoice.line_items[0].id, quantity: 1 }] } });
        return created('a credit note', res);
      },
    ],
  },
  // A finished entry (editable, deletable, not stoppable) and a timer running for an hour (stoppable).
  te: {
    states: [
      async (key) => created('a time entry', await call('POST', '/v1/time-entries', { key, body: { project_id: (await createProject(key, { hourly_rate: 10_000 })).id, duration_seconds: 5_400, task: 'Design' } })),
      async (key) => {
        const started_at = new Date(Date.now() - 3_600_000).toISOString();
        return created('a timer', await call('POST', '/v1/time-entries', { key, body: { project_id: (await createProject(key)).id, started_at } }));
      },
    ],
  },
  // A received document (a photo of a receipt), read on the queue before it is used (§21).
  // Its message is kept off the runtime's queue, whose consumer would read it whenever it pleases: `settle` reads it.
  ind: {
    states: [
      async (key) => {
        const send = vi.spyOn(env.INBOUND_QUEUE, 'send').mockResolvedValue(undefined as never);
        try {
          return created('an inbound document', await uploadDocument(key, TINY_PNG, { filename: 'receipt.png' }));
        } finally {
          send.mockRestore();
        }
      },
    ],
    settle: async (id) => void (await readOnQueue(id)),
  },
  // The caller themself: the one user a body's user_id can name without another member.
  usr: { states: [async (key) => (await call('GET', '/api/me', { key })).body.user.id] },
  ivt: {
    states: [async (key) => created('a workspace invitation', await call('POST', '/api/workspace/invitations', { key, body: { email: `invitee-${crypto.randomUUID()}@example.com`, role: 'member' } }))],
  },
};

export function recordKind(prefix: string, where: string): RecordKind {
  const kind = recordKinds[prefix];
  if (!kind?.states.length) {
    throw new Error(`No factory for records with ids "${prefix}_…" (${where}). Add one to recordKinds in test/helpers/records.ts.`);
  }
  return kind;
}
