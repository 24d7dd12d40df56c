// §22's period bundle through the worker: POST /v1/exports queues it (202), the workspace-exports consumer writes one
// ZIP into object storage, GET /v1/exports/{id} says it is ready with a signed link valid 24 h, and the link serves it.
// The ZIP passes `unzip -t` (the standard tool, run in Node: scripts/zip-check.mjs) and holds each sent invoice's and
// credit note's PDF and XML, each accepted received document's original and the five CSVs, whose rows add up to the
// documents' own figures.
import { env } from 'cloudflare:workers';
import { unzipSync } from 'fflate';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { call, errorPaths, expectError, open } from '../helpers/api';
import { addMember, createClient, createProject, createUser, type TestUser } from '../helpers/factories';
import { bundleLimits } from '../../src/modules/exports/bundle/bounds';
import { zipLimits } from '../../src/modules/exports/bundle/zip-upload';
import { abortLeftUploads, sweepExpiredExports, sweepStrandedExports } from '../../src/modules/exports/bundle/sweep';
import { deliver } from '../helpers/worker';
import { workspaceOn } from '../scaling/helpers';

const today = new Date().toISOString().slice(0, 10); // the workspace is on UTC, as invoices' default issue date is

/** Asks for a bundle and delivers its queue message to the consumer, as the runtime would; answers the export as GET shows it. */
async function bundle(key: string, body: Record<string, unknown> = { from: today, to: today }) {
  const sent: unknown[] = [];
  const spy = vi.spyOn(env.EXPORTS_QUEUE, 'send').mockImplementation(async (message) => void sent.push(message) as never);
  const created = await call('POST', '/v1/exports', { key, body });
  spy.mockRestore();
  expect(created.status, JSON.stringify(created.body)).toBe(202);
  expect(created.body).toMatchObject({ status: 'queued', download_url: null, expires_at: null, size: null });
  expect(sent).toHaveLength(1);
  const result = await deliver('workspace-exports', [{ id: 'm1', body: sent[0] }]);
  expect(result.explicitAcks).toEqual(['m1']);
  const got = await call('GET', `/v1/exports/${created.body.id}`, { key });
  expect(got.status).toBe(200);
  return got.body;
}

async function download(url: string) {
  const res = await open(url);
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

/** `unzip -t` on the bytes, in Node. */
async function unzipTest(bytes: Uint8Array): Promise<{ code: number; output: string }> {
  return (await fetch('https://unzip.test/', { method: 'POST', body: bytes })).json();
}

/** A CSV's rows as objects by heading (RFC 4180: quoted fields may hold commas and quotes). */
function csv(text: string): Record<string, string>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (cell += '"'), i++;
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(cell), (cell = '');
    else if (c === '\r' && text[i + 1] === '\n') row.push(cell), rows.push(row), (row = []), (cell = ''), i++;
    else cell += c;
  }
  const [headings, ...data] = rows;
  return data.map((r) => Object.fromEntries(headings!.map((h, i) => [h, r[i]!])));
}

/** The server's own link, past its 24 hours: a 410 in the error envelope. */
async function expectLinkExpired(url: string) {
  const res = await open(url);
  expectError({ status: res.status, headers: res.headers, body: await res.json() }, 410, 'link_expired');
}

const sum = (rows: Record<string, string>[], column: string) => rows.reduce((total, r) => total + Number(r[column]), 0);

let owner: TestUser;
let figures: { invoices: any[]; creditNote: any; payments: number; refunds: number; expenses: number; receivedId: string };
let entries: Record<string, Uint8Array>;
let ready: any;

beforeAll(async () => {
  owner = await createUser('Owner');
  await call('PATCH', '/api/workspace', {
    key: owner.key,
    body: {
      default_currency: 'EUR', time_zone: 'UTC',
      issuer: { legal_name: 'Studio GmbH', email: 'billing@studio.example', vat_id: 'DE123456789', address: { line1: 'Torstraße 1', city: 'Berlin', postal_code: '10119', country: 'DE' } },
    },
  });
  const client = await createClient(owner.key, {
    name: 'Müller, "Die Druckerei" GmbH', company: 'Müller, "Die Druckerei" GmbH', email: 'ap@mueller.example', currency: 'EUR', vat_id: 'DE999999999',
    address: { line1: 'Hauptstraße 2', city: 'Köln', postal_code: '50667', country: 'DE' },
  });
  const send = async (lines: unknown[]) => {
    const draft = await call('POST', '/v1/invoices', { key: owner.key, body: { client_id: client.id, line_items: lines } });
    const sent = await call('POST', `/v1/invoices/${draft.body.id}/send`, { key: owner.key, body: {} });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    return sent.body;
  };
  const twoRates = await send([
    { description: 'Design', quantity: 3, unit_amount: 33_333, tax_rate: 19 },
    { description: 'Books', quantity: 1, unit_amount: 4_999, tax_rate: 7 },
  ]);
  const other = await send([{ description: 'Print', quantity: 1, unit_amount: 120_000, tax_rate: 19 }]);
  const voided = await send([{ description: 'Mistake', quantity: 1, unit_amount: 1_000, tax_rate: 19 }]);
  await call('POST', `/v1/invoices/${voided.id}/void`, { key: owner.key, body: {} });
  await call('POST', '/v1/invoices', { key: owner.key, body: { client_id: client.id, line_items: [{ description: 'Draft', quantity: 1, unit_amount: 999 }] } });

  const payment = await call('POST', `/v1/invoices/${other.id}/payments`, { key: owner.key, body: { amount: 142_800, method: 'bank_transfer' } });
  const paymentId = payment.body.payments?.at(-1)?.id ?? (await call('GET', `/v1/invoices/${other.id}/payments`, { key: owner.key })).body.data[0].id;
  const refund = await call('POST', `/v1/invoices/${other.id}/payments/${paymentId}/refunds`, { key: owner.key, body: { amount: 11_900 } });
  expect(refund.status, JSON.stringify(refund.body)).toBe(201);
  const creditNote = await call('POST', `/v1/invoices/${twoRates.id}/credit-notes`, {
    key: owner.key, body: { reason: 'other', email: false, lines: [{ description: 'Goodwill', quantity: 1, unit_amount: 2_000, tax_rate: 19 }] },
  });
  expect(creditNote.status, JSON.stringify(creditNote.body)).toBe(201);

  const byHand = await call('POST', '/api/workflow/expenses', { key: owner.key, body: { category: 'travel', amount: 4_990, currency: 'EUR', vendor: 'Bahn' } });
  const received = await call('POST', '/api/workflow/expenses', { key: owner.key, body: { category: 'office', amount: 11_900, currency: 'EUR', vendor: 'Paper & Co' } });
  // A received document accepted into that expense (§21: its row and its original in object storage).
  const receivedId = 'ind_01JD5ZQ5X8Y4V1N2K3M4P5Q6R7';
  const original = new TextEncoder().encode('%PDF-1.7 the supplier\'s invoice');
  await env.FILES.put('inbound/original-key', original);
  for (const db of [env.DB, env.DB_WORKSPACES_2]) {
    await db.prepare('UPDATE expenses SET net_amount = 10000, tax_amount = 1900, document_id = ?1, tax_breakdown = ?2 WHERE id = ?3')
      .bind(receivedId, JSON.stringify([{ category: 'S', rate: 19, taxable_amount: 10_000, tax_amount: 1_900 }]), received.body.id).run();
    const workspace = await db.prepare('SELECT workspace_id FROM expenses WHERE id = ?').bind(received.body.id).first<{ workspace_id: string }>();
    if (!workspace) continue;
    await db.prepare(`INSERT INTO inbound_documents (id, workspace_id, source, status, received_at, filename, content_type, size, sha256, file_key, expense_id, created_at, updated_at)
      VALUES (?1, ?2, 'upload', 'accepted', ?3, 'Rechnung 17.pdf', 'application/pdf', ?4, 'x', 'inbound/original-key', ?5, ?3, ?3)`)
      .bind(receivedId, workspace.workspace_id, new Date().toISOString(), original.length, received.body.id).run();
  }

  const project = await createProject(owner.key, { client_id: client.id, hourly_rate: 9_000, currency: 'EUR' });
  const entry = await call('POST', '/v1/time-entries', { key: owner.key, body: { project_id: project.id, duration_seconds: 5_400, task: 'Layout' } });
  expect(entry.status, JSON.stringify(entry.body)).toBe(201);

  figures = {
    invoices: [twoRates, other, voided].map((i) => i.id),
    creditNote: creditNote.body,
    payments: 142_800,
    refunds: 11_900,
    expenses: byHand.body.amount + received.body.amount,
    receivedId,
  };
  figures.invoices = await Promise.all(figures.invoices.map(async (id: string) => (await call('GET', `/v1/invoices/${id}`, { key: owner.key })).body));

  ready = await bundle(owner.key);
  const { bytes } = await download(ready.download_url);
  entries = unzipSync(bytes);
}, 120_000); // a whole set of books through the worker: room beyond the 30 s of a hook on a busy machine

describe('POST /v1/exports and GET /v1/exports/{id}', () => {
  it('is ready once the job ran, with its size and a link valid 24 hours', async () => {
    expect(ready).toMatchObject({ status: 'ready', from: today, to: today, kinds: ['invoices', 'credit_notes', 'expenses', 'payments', 'time'], failure_reason: null });
    expect(ready.id).toMatch(/^xpt_/);
    expect(ready.size).toBeGreaterThan(0);
    const expires = Date.parse(ready.expires_at) - Date.now();
    expect(expires).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(expires).toBeLessThanOrEqual(24 * 3600_000);
    const { res, bytes } = await download(ready.download_url);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('application/zip');
    expect(res.headers.get('Content-Disposition')).toBe(`attachment; filename="export_${today}_${today}.zip"`);
    expect(bytes.length).toBe(ready.size);
  });

  it('writes a ZIP that `unzip -t` finds without errors', async () => {
    const { bytes } = await download(ready.download_url);
    const checked = await unzipTest(bytes);
    expect(checked.output).toContain('No errors detected');
    expect(checked.code).toBe(0);
  });

  it('holds each sent invoice\'s and credit note\'s PDF and XML, the received original and the five CSVs', async () => {
    const [twoRates, other, voided] = figures.invoices;
    const names = Object.keys(entries).sort();
    expect(names).toEqual([
      'credit_notes.csv', `credit-notes/${figures.creditNote.number}.cii.xml`, `credit-notes/${figures.creditNote.number}.pdf`, 'expenses.csv',
      `invoices/${twoRates.number}.cii.xml`, `invoices/${twoRates.number}.pdf`, `invoices/${other.number}.cii.xml`, `invoices/${other.number}.pdf`,
      `invoices/${voided.number}.cii.xml`, `invoices/${voided.number}.pdf`, 'invoices.csv', 'payments.csv', `received/${figures.receivedId}-Rechnung_17.pdf`,
      'time_entries.csv',
    ].sort());
    for (const name of names.filter((n) => n.endsWith('.pdf') && !n.startsWith('received/'))) expect(new TextDecoder().decode(entries[name]!.slice(0, 5))).toBe('%PDF-');
    expect(new TextDecoder().decode(entries[`invoices/${other.number}.cii.xml`])).toContain(`<ram:ID>${other.number}</ram:ID>`);
    expect(new TextDecoder().decode(entries[`received/${figures.receivedId}-Rechnung_17.pdf`])).toBe('%PDF-1.7 the supplier\'s invoice');
  });

  it('has CSVs whose rows are the documents\' own figures, in decimals and in minor units', async () => {
    const text = (name: string) => new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(entries[name]);
    const invoices = csv(text('invoices.csv'));
    // A row per invoice the figures count: the void and the draft count in none.
    const [twoRates, other] = figures.invoices;
    expect(invoices.map((r) => r.id).sort()).toEqual([twoRates.id, other.id].sort());
    for (const invoice of [twoRates, other]) {
      const row = invoices.find((r) => r.id === invoice.id)!;
      expect(row).toMatchObject({
        number: invoice.number, client_name: 'Müller, "Die Druckerei" GmbH', currency: 'EUR',
        net_minor: String(invoice.subtotal - invoice.discount_total), tax_minor: String(invoice.tax), total_minor: String(invoice.total),
        tax_groups: invoice.tax_breakdown.map((g: any) => `${g.category}:${g.rate}:${g.taxable_amount}:${g.tax_amount}`).join(';'),
        converted_currency: 'EUR', converted_total_minor: String(invoice.total),
      });
      expect(Math.round(Number(row.total) * 100)).toBe(invoice.total);
    }
    const notes = csv(text('credit_notes.csv'));
    expect(notes).toEqual([expect.objectContaining({ number: figures.creditNote.number, invoice_number: twoRates.number, total: '23.80', total_minor: '2380', tax_groups: 'S:19:2000:380' })]);

    const payments = csv(text('payments.csv'));
    expect(payments.map((r) => r.type)).toEqual(['payment', 'refund']);
    expect(sum(payments, 'amount_minor')).toBe(figures.payments - figures.refunds);
    expect(sum(payments, 'net_minor')).toBe(sum(payments, 'amount_minor') - sum(payments, 'tax_minor'));
    expect(payments[1]).toMatchObject({ amount: '-119.00', amount_minor: '-11900', tax: '-19.00', net: '-100.00' });

    const expenses = csv(text('expenses.csv'));
    expect(sum(expenses, 'amount_minor')).toBe(figures.expenses);
    // Typed in by hand: no input tax (§21).
    expect(expenses.find((r) => r.category === 'travel')).toMatchObject({ amount: '49.90', net: '49.90', input_tax: '', tax_groups: '' });
    expect(expenses.find((r) => r.category === 'office')).toMatchObject({ net_minor: '10000', input_tax_minor: '1900', tax_groups: 'S:19:10000:1900' });

    // 1.5 h at 90.00 an hour.
    expect(csv(text('time_entries.csv'))).toEqual([expect.objectContaining({ duration_seconds: '5400', hours: '1.5000', rate: '90.00', amount: '135.00', amount_minor: '13500', task: 'Layout' })]);
  });

  it('has CSVs whose rows add up to the period\'s reports, to the cent', async () => {
    const text = (name: string) => new TextDecoder().decode(entries[name]);
    const report = async (path: string) => (await call('GET', `/v1/reports/${path}${path.includes('?') ? '&' : '?'}from=${today}&to=${today}`, { key: owner.key })).body;
    const [accrual, cash, vat] = [await report('profit-and-loss'), await report('profit-and-loss?basis=cash'), await report('vat')];
    const [invoices, notes, payments, expenses] = ['invoices.csv', 'credit_notes.csv', 'payments.csv', 'expenses.csv'].map((name) => csv(text(name)));
    expect(sum(invoices!, 'converted_net_minor') - sum(notes!, 'converted_net_minor')).toBe(accrual.totals.income);
    expect(sum(invoices!, 'converted_tax_minor') - sum(notes!, 'converted_tax_minor')).toBe(vat.output_tax);
    expect(sum(payments!, 'converted_net_minor')).toBe(cash.totals.income);
    expect(sum(expenses!, 'converted_net_minor')).toBe(accrual.totals.expenses);
    expect(sum(expenses!, 'converted_input_tax_minor')).toBe(vat.input_tax);
    expect(accrual.totals.income).toBeGreaterThan(0);
  });

  it('holds only the kinds asked for', async () => {
    const only = await bundle(owner.key, { from: today, to: today, kinds: ['payments', 'time'] });
    expect(only.kinds).toEqual(['payments', 'time']);
    const { bytes } = await download(only.download_url);
    expect(Object.keys(unzipSync(bytes)).sort()).toEqual(['payments.csv', 'time_entries.csv']);
  });

  it('refuses a period past 366 days or ending before it starts, naming the field', async () => {
    const year = Number(today.slice(0, 4));
    expect(errorPaths(await call('POST', '/v1/exports', { key: owner.key, body: { from: `${year - 2}-01-01`, to: `${year - 1}-01-02` } }))).toEqual(['to']);
    expect(errorPaths(await call('POST', '/v1/exports', { key: owner.key, body: { from: today, to: `${year - 1}-01-01` } }))).toEqual(['from']);
    expect(errorPaths(await call('POST', '/v1/exports', { key: owner.key, body: { from: today, to: today, kinds: ['time', 'time'] } }))).toEqual(['kinds']);
  });

  it('is for admins; another workspace\'s export is a 404, and so is a link that was changed; one that expired is a 410', async () => {
    const member = await addMember(owner.key, 'member');
    const viewer = await addMember(owner.key, 'viewer');
    expectError(await call('POST', '/v1/exports', { key: member.key, body: { from: today, to: today } }), 403, 'forbidden');
    expectError(await call('GET', `/v1/exports/${ready.id}`, { key: viewer.key }), 403, 'forbidden');
    const stranger = await createUser();
    expectError(await call('GET', `/v1/exports/${ready.id}`, { key: stranger.key }), 404, 'not_found');

    const url = new URL(ready.download_url);
    const tampered = new URL(url);
    tampered.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    expect((await open(tampered.href)).status).toBe(404);
    expect((await open(`${url.origin}${url.pathname}`)).status).toBe(404);
    vi.useFakeTimers({ now: Date.now() + 24 * 3600_000 + 1000, toFake: ['Date'] });
    try {
      await expectLinkExpired(url.href);
    } finally {
      vi.useRealTimers();
    }
  });

  it('replays the first answer for the same Idempotency-Key, queueing one job', async () => {
    const send = vi.spyOn(env.EXPORTS_QUEUE, 'send').mockResolvedValue(undefined as never);
    const headers = { 'Idempotency-Key': `bundle-${Date.now()}` };
    const first = await call('POST', '/v1/exports', { key: owner.key, body: { from: today, to: today }, headers });
    const again = await call('POST', '/v1/exports', { key: owner.key, body: { from: today, to: today }, headers });
    expect(send).toHaveBeenCalledTimes(1);
    send.mockRestore();
    expect(again.body.id).toBe(first.body.id);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
  });

  it('retries a job that failed, marks it failed on its last delivery, and does nothing for one already done', async () => {
    const sent: unknown[] = [];
    const send = vi.spyOn(env.EXPORTS_QUEUE, 'send').mockImplementation(async (message) => void sent.push(message) as never);
    const created = await call('POST', '/v1/exports', { key: owner.key, body: { from: today, to: today, kinds: ['time'] } });
    send.mockRestore();
    const broken = vi.spyOn(env.FILES, 'createMultipartUpload').mockRejectedValue(new Error('storage is down'));
    const first = await deliver('workspace-exports', [{ id: 'm1', body: sent[0], attempts: 1 }]);
    expect(first.retryMessages.map((m) => m.msgId)).toEqual(['m1']);
    expect((await call('GET', `/v1/exports/${created.body.id}`, { key: owner.key })).body.status).toBe('queued');
    const last = await deliver('workspace-exports', [{ id: 'm2', body: sent[0], attempts: 4 }]);
    broken.mockRestore();
    expect(last.explicitAcks).toEqual(['m2']);
    expect((await call('GET', `/v1/exports/${created.body.id}`, { key: owner.key })).body).toMatchObject({
      status: 'failed', failure_reason: 'The bundle could not be written; please ask for it again.', download_url: null,
    });
    // A message for a bundle already written changes nothing.
    const again = await deliver('workspace-exports', [{ id: 'm3', body: { export_id: ready.id }, attempts: 1 }]);
    expect(again.explicitAcks).toEqual(['m3']);
    expect((await call('GET', `/v1/exports/${ready.id}`, { key: owner.key })).body).toMatchObject({ status: 'ready', size: ready.size });
  });

  it('is sent again by the cron when its message was lost, and written by that one', async () => {
    const send = vi.spyOn(env.EXPORTS_QUEUE, 'send').mockResolvedValue(undefined as never); // the message is lost
    const created = await call('POST', '/v1/exports', { key: owner.key, body: { from: today, to: today, kinds: ['time'] } });
    send.mockRestore();
    const resent: unknown[] = [];
    const again = vi.spyOn(env.EXPORTS_QUEUE, 'send').mockImplementation(async (message) => void resent.push(message) as never);
    await sweepStrandedExports(env, Date.now()); // not yet: it may still be on its way
    expect(resent).toEqual([]);
    await sweepStrandedExports(env, Date.now() + 16 * 60_000);
    again.mockRestore();
    // (The one an earlier test asked for with its message lost too is sent again beside it.)
    expect(resent).toContainEqual({ export_id: created.body.id });
    await deliver('workspace-exports', [{ id: 'm1', body: { export_id: created.body.id } }]);
    expect((await call('GET', `/v1/exports/${created.body.id}`, { key: owner.key })).body.status).toBe('ready');
  });

  it('is written and served for a workspace whose records are on the second database', async () => {
    const studio = await workspaceOn('DB_WORKSPACES_2');
    await call('PATCH', '/api/workspace', { key: studio.key, body: { default_currency: 'EUR', time_zone: 'UTC' } });
    const client = await createClient(studio.key, { currency: 'EUR' });
    const draft = await call('POST', '/v1/invoices', { key: studio.key, body: { client_id: client.id, line_items: [{ description: 'Design', quantity: 1, unit_amount: 10_000 }] } });
    await call('POST', `/v1/invoices/${draft.body.id}/send`, { key: studio.key, body: {} });
    const done = await bundle(studio.key, { from: today, to: today, kinds: ['invoices'] });
    expect(done.status).toBe('ready');
    const { res, bytes } = await download(done.download_url);
    expect(res.status).toBe(200);
    expect(Object.keys(unzipSync(bytes))).toContain(`invoices/${draft.body.number}.pdf`);
  });

  it('refuses a period with more documents than a bundle holds, naming both, and its job fails saying so rather than write more', async () => {
    const documents = bundleLimits.documents;
    bundleLimits.documents = 4; // the period holds five: three invoices, a credit note and a received original
    try {
      const refused = await call('POST', '/v1/exports', { key: owner.key, body: { from: today, to: today } });
      expectError(refused, 422, 'validation_failed');
      expect(refused.body.error.details).toEqual([{ path: 'to', message: 'The period holds 5 documents; a bundle holds at most 4. Ask for a shorter period.' }]);
      // Without the documents it fits.
      const send = vi.spyOn(env.EXPORTS_QUEUE, 'send').mockResolvedValue(undefined as never);
      expect((await call('POST', '/v1/exports', { key: owner.key, body: { from: today, to: today, kinds: ['invoices', 'payments'] } })).status).toBe(202);
      send.mockRestore();
    } finally {
      bundleLimits.documents = documents;
    }

    const sent: unknown[] = [];
    const send = vi.spyOn(env.EXPORTS_QUEUE, 'send').mockImplementation(async (message) => void sent.push(message) as never);
    const created = await call('POST', '/v1/exports', { key: owner.key, body: { from: today, to: today } });
    send.mockRestore();
    expect(created.status).toBe(202);
    bundleLimits.documents = 4; // as if documents came in after it was asked for
    const upload = vi.spyOn(env.FILES, 'createMultipartUpload');
    try {
      const result = await deliver('workspace-exports', [{ id: 'm1', body: sent[0], attempts: 1 }]);
      expect(result.explicitAcks).toEqual(['m1']); // not tried again: it would fail again
    } finally {
      bundleLimits.documents = documents;
    }
    expect(upload).not.toHaveBeenCalled();
    upload.mockRestore();
    expect((await call('GET', `/v1/exports/${created.body.id}`, { key: owner.key })).body).toMatchObject({
      status: 'failed', download_url: null, failure_reason: 'The period holds 5 documents; a bundle holds at most 4. Ask for a shorter period.',
    });
  });

  it('stops short of what a ZIP without ZIP64 holds, failing the job with the reason rather than writing a broken file', async () => {
    const limits = { ...zipLimits };
    const run = async () => {
      const sent: unknown[] = [];
      const send = vi.spyOn(env.EXPORTS_QUEUE, 'send').mockImplementation(async (message) => void sent.push(message) as never);
      const created = await call('POST', '/v1/exports', { key: owner.key, body: { from: today, to: today } });
      send.mockRestore();
      const result = await deliver('workspace-exports', [{ id: 'm1', body: sent[0], attempts: 1 }]);
      expect(result.explicitAcks).toEqual(['m1']); // not tried again: it would fail again
      return (await call('GET', `/v1/exports/${created.body.id}`, { key: owner.key })).body;
    };
    try {
      zipLimits.entries = 6; // five CSVs and the first PDF
      expect(await run()).toMatchObject({ status: 'failed', download_url: null, size: null, failure_reason: 'A bundle holds at most 6 files; ask for a shorter period.' });
      zipLimits.entries = limits.entries;
      zipLimits.bytes = 1_000;
      expect(await run()).toMatchObject({ status: 'failed', download_url: null, failure_reason: 'The bundle would be larger than 4 GB, more than a ZIP holds; ask for a shorter period.' });
    } finally {
      Object.assign(zipLimits, limits);
    }
  });

  it('aborts the upload a job that died left open: the delivery that takes the job up again does, and the cron once it failed', async () => {
    const queued = async () => {
      const send = vi.spyOn(env.EXPORTS_QUEUE, 'send').mockResolvedValue(undefined as never);
      const created = await call('POST', '/v1/exports', { key: owner.key, body: { from: today, to: today, kinds: ['time'] } });
      send.mockRestore();
      return created.body.id as string;
    };
    /** Whether the upload still takes parts (R2 refuses them once it is aborted). */
    const open = (upload: R2MultipartUpload) => env.FILES.resumeMultipartUpload(upload.key, upload.uploadId).uploadPart(1, new Uint8Array(8)).then(() => true, () => false);
    // A job that died writing: running under a lease that ran out, its upload open.
    const dying = await queued();
    const left = await env.FILES.createMultipartUpload(`exports/left-${dying}.zip`);
    await env.DB.prepare("UPDATE exports SET status = 'running', attempts = 1, lease_until = ?, file_key = ?, upload_id = ? WHERE id = ?")
      .bind(new Date(Date.now() - 60_000).toISOString(), left.key, left.uploadId, dying).run();
    expect(await open(left)).toBe(true);
    await deliver('workspace-exports', [{ id: 'm1', body: { export_id: dying }, attempts: 2 }]);
    expect((await call('GET', `/v1/exports/${dying}`, { key: owner.key })).body.status).toBe('ready');
    expect(await open(left)).toBe(false);
    expect(await env.DB.prepare('SELECT upload_id FROM exports WHERE id = ?').bind(dying).first()).toEqual({ upload_id: null });

    // One that failed after its last delivery with its upload open: the cron aborts it, once.
    const failed = await queued();
    const stuck = await env.FILES.createMultipartUpload(`exports/stuck-${failed}.zip`);
    await env.DB.prepare("UPDATE exports SET status = 'failed', file_key = ?, upload_id = ? WHERE id = ?").bind(stuck.key, stuck.uploadId, failed).run();
    expect(await abortLeftUploads(env)).toBe(1);
    expect(await open(stuck)).toBe(false);
    expect(await abortLeftUploads(env)).toBe(0);
    expect((await call('GET', `/v1/exports/${failed}`, { key: owner.key })).body).toMatchObject({ status: 'failed', download_url: null });
  });

  // Last: the sweep expires every bundle of this file.
  it('is kept 24 hours from when it was ready: then it says expired, its link is a 410, and the cron removes its file once', async () => {
    const done = await bundle(owner.key, { from: today, to: today, kinds: ['time'] });
    const { file_key: key } = (await env.DB.prepare('SELECT file_key FROM exports WHERE id = ?').bind(done.id).first<{ file_key: string }>())!;
    expect(await env.FILES.head(key)).not.toBeNull();
    expect(Date.parse(done.expires_at)).toBe(Math.floor(Date.parse(done.completed_at) / 1000) * 1000 + 24 * 3600_000);
    // The same link each time it is asked for, until then.
    expect((await call('GET', `/v1/exports/${done.id}`, { key: owner.key })).body.download_url).toBe(done.download_url);
    expect(await sweepExpiredExports(env, Date.parse(done.expires_at) - 60_000)).toBe(0);
    expect(await env.FILES.head(key)).not.toBeNull();

    const later = Date.parse(done.expires_at) + 1000;
    vi.useFakeTimers({ now: later, toFake: ['Date'] });
    try {
      // Expired from the end of its link, before the cron has come by.
      expect((await call('GET', `/v1/exports/${done.id}`, { key: owner.key })).body).toMatchObject({ status: 'expired', download_url: null, expires_at: done.expires_at });
      await expectLinkExpired(done.download_url);
      expect(await sweepExpiredExports(env, later)).toBeGreaterThanOrEqual(1);
      expect(await env.FILES.head(key)).toBeNull();
      expect(await sweepExpiredExports(env, later)).toBe(0);
      expect((await call('GET', `/v1/exports/${done.id}`, { key: owner.key })).body).toMatchObject({ status: 'expired', size: done.size, download_url: null, expires_at: done.expires_at });
      await expectLinkExpired(done.download_url);
    } finally {
      vi.useRealTimers();
    }
  });
});
