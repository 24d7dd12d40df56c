// npm run bench: build what would deploy, serve it with Miniflare beside a hello world and an I/O
// floor, seed accounts with 1,000 and 100,000 invoices, then load each workload and report
// throughput, latency, CPU and D1 round trips per request, and ratios to the I/O floor. The machine
// is shared, so every workload is measured in rounds, each paired with a run of the floor next to
// it, and the ratio to the floor is the median over those pairs.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBundle, RENDERER_BUILD } from './harness/build.mjs';
import { cpuSeconds, findWorkerdPid } from './harness/cpu.mjs';
import { measureColdStart } from './harness/coldstart.mjs';
import { measureCron } from './harness/cron.mjs';
import { measureFanout } from './harness/fanout.mjs';
import { measureInbound } from './harness/inbound.mjs';
import { countD1Calls } from './harness/d1-count.mjs';
import { quantile, runLoad } from './harness/load.mjs';
import { completedEvent, fakeStripe } from './harness/fake-stripe.mjs';
import { documentsInReview, invoiceIdAtDepth, proposalBoard, seed, timerMembers, unbilledTime } from './harness/seed.mjs';
import { serve } from './harness/serve.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CONNECTIONS = 10;
// Many short pairs rather than a few long ones: the other load on the machine changes within seconds.
const ROUNDS = 10;
const RUN = { amount: 600, maxSeconds: 2 }; // each measured run stops at whichever comes first
// Documents take tens of ms of CPU each: their runs end by count, never by time, so that no request is
// still in flight when the floor's run beside them starts (on a busy machine the floor then answered
// nothing in its 1.2 s).
const DOCUMENT_RUN = { amount: 30, maxSeconds: 120 };
const FLOOR_RUN = { amount: 400, maxSeconds: 1.2 };
// A report reads a period's records: its runs end by count, like the documents'.
const REPORT_RUN = { amount: 100, maxSeconds: 60 };
// Each payment request uses an invoice of its own (made beforehand through the API), so fewer of them.
const PAYMENT_RUN = { amount: 40, maxSeconds: 30 };
const WARM_UP = { amount: 200, maxSeconds: 2 };
// Enough drafts for every send the two send workloads (with and without a key) can make: each one's
// warm-up, rounds and count.
const DRAFTS_TO_SEND = 2 * (WARM_UP.amount + ROUNDS * RUN.amount + 10);

/** Whether a workload runs: all of them, or those whose name contains one of `only`'s |-separated parts. */
const selected = (only, name) => !only || only.split('|').some((part) => name.includes(part));

const auth = (account) => ({ authorization: `Bearer ${account.key}` });
const json = { 'content-type': 'application/json' };
const cursor = (id) => Buffer.from(JSON.stringify({ id })).toString('base64url');
const day = (offsetDays) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const thousands = (n) => n.toLocaleString('en-US');

/** The table of workloads: one entry each. `list` marks the authenticated lists held to the floor target. */
async function workloads(mf, { small, large, writer }, only, stripe) {
  const sized = async (account, depth) => {
    const size = `${thousands(account.invoices)} invoices`;
    const deepId = await invoiceIdAtDepth(mf, account.workspaceId, depth);
    return [
      { name: `GET /v1/invoices (${size})`, path: '/v1/invoices', headers: auth(account), list: true, size: account.invoices, page: 'first' },
      { name: `GET /v1/invoices ${thousands(depth)} deep (${size})`, path: `/v1/invoices?cursor=${cursor(deepId)}`, headers: auth(account), list: true, size: account.invoices, page: 'deep' },
      // An explicit last-365-days period, so the rows it covers do not depend on the date of the run.
      { name: `GET /api/workflow/dashboard (${size})`, path: `/api/workflow/dashboard?from=${day(-364)}&to=${day(0)}`, headers: auth(account), size: account.invoices, dashboard: true },
    ];
  };
  const fiveLines = {
    client_id: writer.clientId,
    line_items: Array.from({ length: 5 }, (_, i) => ({ description: `Design work, part ${i + 1}`, quantity: 1.5, unit_amount: 9_999, tax_rate: 8.25 })),
  };
  const invoice = JSON.stringify(fiveLines);
  const keyed = () => ({ headers: { 'idempotency-key': randomUUID() } });
  const post = async (path, body) => {
    const res = await mf.dispatchFetch(`http://app.bench${path}`, { method: 'POST', headers: { ...auth(writer), ...json }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`bench setup: POST ${path} answered ${res.status}`);
    return res.json();
  };
  // Payments: one cent at a time on open invoices of 10^13 minor units, never paid off, taken in turn
  // from a hundred so that concurrent payments seldom meet on one invoice (they would answer 409).
  // What only some workloads need is made only when one of them runs (`npm run bench -- pdf` skips it).
  const runs = (...names) => names.some((name) => selected(only, name));
  const owed = [];
  for (let made = 0; made < (runs('POST /v1/invoices/{id}/payments', 'POST /v1/invoices/{id}/payments, Idempotency-Key') ? 100 : 0); made += 10) {
    owed.push(...(await Promise.all(Array.from({ length: 10 }, async () => {
      const { id } = await post('/v1/invoices', { client_id: writer.clientId, line_items: [{ description: 'Retainer', quantity: 1, unit_amount: 10_000_000_000_000 }] });
      await post(`/v1/invoices/${id}/send`, { email: false });
      return id;
    }))));
  }
  let turn = 0;
  const nextOwed = () => ({ path: `/v1/invoices/${owed[turn++ % owed.length]}/payments` });
  const payment = JSON.stringify({ amount: 1 });
  // Credit notes (§17): one minor unit of a line of its own on open invoices of 10^13, taken in turn
  // from a hundred (concurrent credit notes of one invoice would race for it), no email.
  const creditable = [];
  for (let made = 0; made < (runs('POST /v1/invoices/{id}/credit-notes') ? 100 : 0); made += 10) {
    creditable.push(...(await Promise.all(Array.from({ length: 10 }, async () => {
      const { id } = await post('/v1/invoices', { client_id: writer.clientId, line_items: [{ description: 'Retainer', quantity: 1, unit_amount: 10_000_000_000_000 }] });
      await post(`/v1/invoices/${id}/send`, { email: false });
      return id;
    }))));
  }
  let creditTurn = 0;
  const nextCreditable = () => ({ path: `/v1/invoices/${creditable[creditTurn++ % creditable.length]}/credit-notes` });
  const creditNote = JSON.stringify({ reason: 'order_change', email: false, lines: [{ description: 'Agreed discount', quantity: 1, unit_amount: 1, tax_rate: 0 }] });
  // Sending: every request sends a draft of its own (made here, ten at a time), without an email.
  const drafts = [];
  for (let made = 0; made < (runs('POST /v1/invoices/{id}/send (no email)', 'POST /v1/invoices/{id}/send, Idempotency-Key') ? DRAFTS_TO_SEND : 0); made += 10) {
    drafts.push(...(await Promise.all(Array.from({ length: 10 }, () => post('/v1/invoices', fiveLines)))).map((d) => d.id));
  }
  const nextDraft = () => ({ path: `/v1/invoices/${drafts.pop()}/send` });
  // Invoices of 5 and 100 lines for the PDF workloads, made through the API; and the worst text a
  // 100-line invoice can hold: every description a 500-character word with no space to break at, and
  // 5,000 characters of notes, likewise (§7: at most twice the normal one's work, as PDF and as page).
  const LONG = '100 lines of 500-character words, 5,000-character notes';
  const invoiceOf = async (lines, long = false, locale = undefined) => {
    const body = JSON.stringify({
      client_id: writer.clientId,
      ...(locale ? { locale } : {}),
      ...(long ? { notes: 'Pay within 30 days. '.repeat(250).replaceAll(' ', '-') } : {}),
      line_items: Array.from({ length: lines }, (_, i) => ({
        description: long ? `Design${i + 1}`.padEnd(500, 'x') : `Design work, part ${i + 1}: layouts, reviews and the changes they asked for`, quantity: 1.5, unit_amount: 9_999, tax_rate: 8.25,
      })),
    });
    const res = await mf.dispatchFetch('http://app.bench/v1/invoices', { method: 'POST', headers: { ...auth(writer), ...json }, body });
    if (!res.ok) throw new Error(`bench setup: POST /v1/invoices answered ${res.status}`);
    return (await res.json()).id;
  };
  const pdfOf = async (lines, long = false) =>
    ({ name: `GET /v1/invoices/{id}/pdf (${long ? LONG : `${lines} lines`})`, path: `/v1/invoices/${await invoiceOf(lines, long)}/pdf`, headers: auth(writer), pdf: long ? 'long' : lines, run: DOCUMENT_RUN });
  const pageOf = async (long = false) =>
    ({ name: `GET /v1/invoices/{id}/preview (${long ? LONG : '100 lines'})`, path: `/v1/invoices/${await invoiceOf(100, long)}/preview`, headers: auth(writer), hosted: long ? 'long' : 100, run: DOCUMENT_RUN });
  // The same page in another language (§20): its labels, dates, numbers and country names in that locale.
  const pageIn = async (locale) =>
    ({ name: `GET /v1/invoices/{id}/preview (100 lines, ${locale})`, path: `/v1/invoices/${await invoiceOf(100, false, locale)}/preview`, headers: auth(writer), run: DOCUMENT_RUN });
  // Timers: each request starts one for the next of 40 members in turn, stopping that member's
  // running one in the same batch (from the second round on, there always is one). The first three
  // requests (the D1 count) are one member's, so its key is cached for the two counted, as under load.
  const timers = await timerMembers(mf, writer, 40);
  let timerTurn = 0;
  const nextTimer = () => {
    const turn = timerTurn++;
    return { headers: { authorization: `Bearer ${timers.keys[turn < 3 ? 0 : turn % timers.keys.length]}` } };
  };
  // E-invoices (§15): one sent, ready 100-line invoice in EUR to a French business (the writer's issuer
  // made complete first), as CII, as UBL, and as its Factur-X PDF.
  const einvoiceRuns = runs('GET /v1/invoices/{id}/e-invoice?format=cii (100 lines)', 'GET /v1/invoices/{id}/e-invoice?format=ubl (100 lines)', 'GET /v1/invoices/{id}/pdf (Factur-X, 100 lines)');
  let readyId = null;
  if (einvoiceRuns) {
    const patched = await mf.dispatchFetch('http://app.bench/api/workspace', {
      method: 'PATCH', headers: { ...auth(writer), ...json },
      body: JSON.stringify({ issuer: { legal_name: 'Bench Studio GmbH', email: 'billing@bench.example', address: { line1: 'Hauptstraße 1', city: 'Berlin', postal_code: '10115', country: 'DE' }, vat_id: 'DE123456789', peppol_id: '9930:DE123456789', iban: 'DE89370400440532013000' } }),
    });
    if (!patched.ok) throw new Error(`bench setup: PATCH /api/workspace answered ${patched.status}`);
    const buyer = await post('/v1/clients', {
      name: 'Client SARL', email: 'ap@client.example', currency: 'EUR', vat_id: 'FR12345678901', peppol_id: '0009:12345678901234', buyer_reference: 'PO-77',
      address: { line1: '1 rue de la Paix', city: 'Paris', postal_code: '75002', country: 'FR' },
    });
    const draft = await post('/v1/invoices', {
      client_id: buyer.id, currency: 'EUR',
      line_items: Array.from({ length: 100 }, (_, i) => ({ description: `Design work, part ${i + 1}`, quantity: 1.5, unit: 'HUR', unit_amount: 9_999, tax_rate: i % 2 ? 19 : 7 })),
    });
    await post(`/v1/invoices/${draft.id}/send`, { email: false });
    readyId = draft.id;
  }
  const einvoice = (format) => ({ name: `GET /v1/invoices/{id}/e-invoice?format=${format} (100 lines)`, path: `/v1/invoices/${readyId}/e-invoice?format=${format}`, headers: auth(writer), einvoice: format, run: DOCUMENT_RUN });
  const facturx = { name: 'GET /v1/invoices/{id}/pdf (Factur-X, 100 lines)', path: `/v1/invoices/${readyId}/pdf`, headers: auth(writer), einvoice: 'facturx', run: DOCUMENT_RUN };
  // Online payments (§16), through Stripe's API as the fake answers it: the pay button's press on the
  // hosted page of an open invoice (a new attempt and Checkout Session, 303 to Stripe), and the paid
  // session's webhook (one payment recorded). Each request has an invoice of its own; the webhook's
  // invoices were pressed beforehand, so their sessions exist.
  const payName = 'POST /i/{token}/pay (303 to a stripe checkout)';
  const webhookName = 'POST /webhooks/payments/stripe/{id} (checkout.session.completed)';
  const perPaymentWorkload = 3 + PAYMENT_RUN.amount * (ROUNDS + 1) + 10;
  let pressTokens = [];
  let webhook = { path: '/', sessions: [], secret: '' };
  if (runs(payName, webhookName)) {
    const secret = `whsec_${randomBytes(24).toString('hex')}`;
    const connected = await mf.dispatchFetch('http://app.bench/api/workspace/payment-provider', {
      method: 'PUT', headers: { ...auth(writer), ...json }, body: JSON.stringify({ provider: 'stripe', secret_key: `sk_test_${randomBytes(24).toString('hex')}`, webhook_secret: secret }),
    });
    if (!connected.ok) throw new Error(`bench setup: PUT /api/workspace/payment-provider answered ${connected.status}`);
    const webhookPath = new URL((await connected.json()).webhook_url).pathname;
    const openInvoices = async (count) => {
      const tokens = [];
      for (let made = 0; made < count; made += 10) {
        tokens.push(...(await Promise.all(Array.from({ length: 10 }, async () => {
          const { id } = await post('/v1/invoices', { client_id: writer.clientId, currency: 'USD', line_items: [{ description: 'Design work', quantity: 1, unit_amount: 125_000 }] });
          const sent = await post(`/v1/invoices/${id}/send`, { email: false });
          return new URL(sent.hosted_url).pathname.split('/')[2];
        }))));
      }
      return tokens;
    };
    pressTokens = runs(payName) ? await openInvoices(perPaymentWorkload) : [];
    if (runs(webhookName)) {
      const pressed = stripe.sessions.length;
      for (const token of await openInvoices(perPaymentWorkload)) {
        const res = await mf.dispatchFetch(`http://app.bench/i/${token}/pay`, { method: 'POST', redirect: 'manual' });
        if (res.status !== 303) throw new Error(`bench setup: POST /i/{token}/pay answered ${res.status}`);
      }
      webhook = { path: webhookPath, sessions: stripe.sessions.slice(pressed), secret };
    }
  }
  let pressed = 0;
  let completed = 0;
  const payments = [
    { name: payName, method: 'POST', path: '/', payment: 'redirect', run: PAYMENT_RUN, freshRequest: () => ({ path: `/i/${pressTokens[pressed++ % pressTokens.length]}/pay` }) },
    { name: webhookName, method: 'POST', path: webhook.path, headers: json, payment: 'webhook', run: PAYMENT_RUN, freshRequest: () => completedEvent(webhook.sessions[completed++ % webhook.sessions.length], webhook.secret) },
  ];
  // Invoices from time: each request bills another client's 50 or 500 entries (five tasks, grouped
  // by task), which it then holds; enough clients for the D1 count, the warm-up and every round.
  const fromTime = async (entries) => {
    const name = `POST /v1/invoices/from-time (${entries} entries)`;
    const clients = runs(name) ? await unbilledTime(mf, writer, 3 + DOCUMENT_RUN.amount * (ROUNDS + 1) + 10, entries) : [];
    let next = 0;
    const bodyFor = (clientId) => JSON.stringify({ client_id: clientId, group_by: 'task' });
    return {
      name, method: 'POST', path: '/v1/invoices/from-time', headers: { ...auth(writer), ...json }, body: bodyFor(clients[0]), fromTime: entries, run: DOCUMENT_RUN,
      freshRequest: () => ({ body: bodyFor(clients[next++ % clients.length]) }),
    };
  };
  // Quotes (§18): the client's page of a sent 5-line quote (found by its token: one D1 round trip per
  // database asked), and the client's acceptance from that page, each request accepting an open quote
  // of its own (made here, ten at a time, only when the workload runs; its runs are short to need few).
  const quoteOf = async () => {
    const { id } = await post('/v1/quotes', fiveLines);
    return post(`/v1/quotes/${id}/send`, { email: false });
  };
  const pagePath = (quote) => new URL(quote.hosted_url).pathname;
  const quotePage = runs('GET /q/{token}') ? pagePath(await quoteOf()) : '/q/none';
  const QUOTE_ACCEPT_RUN = { amount: 50, maxSeconds: 30 };
  const openQuotes = [];
  for (let made = 0; made < (runs('POST /q/{token}/accept') ? QUOTE_ACCEPT_RUN.amount * (ROUNDS + 1) + 10 : 0); made += 10) {
    openQuotes.push(...(await Promise.all(Array.from({ length: 10 }, quoteOf))).map(pagePath));
  }
  const nextOpenQuote = () => ({ path: `${openQuotes.pop()}/accept` });
  const accept = new URLSearchParams({ name: 'Bench Client', po_number: 'PO-1', agree: 'yes' }).toString();
  // Received documents (§21): each request accepts one waiting for review (seeded with SQL, as the consumer
  // leaves them), booking its expense: one read batch, one write batch.
  const ACCEPT_NAME = 'POST /v1/inbound-documents/{id}/accept';
  const inReview = runs(ACCEPT_NAME) ? await documentsInReview(mf, writer, 3 + QUOTE_ACCEPT_RUN.amount * (ROUNDS + 1) + 10) : [];
  const nextInReview = () => ({ path: `/v1/inbound-documents/${inReview.pop()}/accept` });
  // Proposals (§24): sending one for an open gig of the writer's, each request from a sender
  // workspace of its own turn (a workspace sends at most 20 a day, so a sender takes 20 requests, one
  // per gig, before the next takes over); and the writer accepting a proposal, each request one of its
  // own on a gig of its own that has a second submitted proposal to decline, the records made in the
  // sender's workspace. Seeded in SQL, only when the workload runs; their runs are short to need few.
  const PROPOSAL_RUN = { amount: 50, maxSeconds: 30 };
  const proposalRequests = 3 + PROPOSAL_RUN.amount * (ROUNDS + 1) + 10;
  const sendName = 'POST /v1/gigs/{id}/proposals (send a proposal)';
  const acceptName = 'POST /v1/gigs/{id}/proposals/{pid}/accept (client, project and quote for the sender)';
  const sending = runs(sendName) ? await proposalBoard(mf, writer, { senders: Math.ceil(proposalRequests / 20), gigs: 20 }) : { senders: [], gigs: [] };
  let sent = 0;
  const nextSend = () => {
    const turn = sent++;
    return { path: `/v1/gigs/${sending.gigs[turn % 20]}/proposals`, headers: { authorization: `Bearer ${sending.senders[Math.floor(turn / 20)]?.key}` } };
  };
  const accepting = runs(acceptName) ? await proposalBoard(mf, writer, { senders: 20, gigs: proposalRequests, perGig: 2 }) : { gigs: [], proposals: [] };
  let acceptedTurn = 0;
  const nextAccept = () => {
    const turn = acceptedTurn++;
    return { path: `/v1/gigs/${accepting.gigs[turn]}/proposals/${accepting.proposals[turn]}/accept` };
  };
  const proposalBody = JSON.stringify({ message: 'I designed logos for two bakeries in Berlin.', rate: { type: 'fixed', amount: 90_000 }, estimate_hours: 12, links: ['https://portfolio.example.com/bakeries'] });
  return [
    { name: 'hello world (harness ceiling)', host: 'hello.bench', path: '/' },
    { name: sendName, proposal: 'send', method: 'POST', path: '/v1/gigs/{id}/proposals', headers: json, body: proposalBody, run: PROPOSAL_RUN, freshRequest: nextSend },
    { name: acceptName, proposal: 'accept', method: 'POST', path: '/v1/gigs/{id}/proposals/{pid}/accept', headers: { ...auth(writer), ...json }, body: '{}', run: PROPOSAL_RUN, freshRequest: nextAccept },
    { name: 'GET /q/{token} (the client\'s page of a 5-line quote)', path: quotePage },
    {
      name: 'POST /q/{token}/accept (the client accepts on the page)', write: true, method: 'POST', path: '/q/none/accept', run: QUOTE_ACCEPT_RUN,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' }, body: accept, freshRequest: nextOpenQuote,
    },
    { name: 'GET /v1/projects (page of 25)', path: '/v1/projects', headers: auth(small), list: true },
    // The same page of clients from the API and as an MCP tool call (§23), which runs that very request through the app.
    { name: 'GET /v1/clients (page of 20)', path: '/v1/clients', headers: auth(small), list: true, mcp: 'api' },
    {
      name: 'POST /mcp tools/call listClients (the same page)', method: 'POST', path: '/mcp', mcp: 'tool',
      headers: { ...auth(small), ...json, accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'listClients', arguments: {} } }),
    },
    ...(await sized(small, 500)),
    ...(await sized(large, 2_000)),
    { name: 'write floor: POST a 5-line invoice (hash, KV, 1 read, 1 batch)', host: 'write-floor.bench', method: 'POST', path: '/', headers: { ...auth(writer), ...json }, body: invoice, writeFloor: true },
    // The two held to the write floor run beside it in each of their rounds too (besideWriteFloor).
    { name: 'POST /v1/invoices, 5 lines', write: true, method: 'POST', path: '/v1/invoices', headers: { ...auth(writer), ...json }, body: invoice, besideWriteFloor: true },
    { name: 'POST /v1/invoices, 5 lines, Idempotency-Key', write: true, keyed: true, method: 'POST', path: '/v1/invoices', headers: { ...auth(writer), ...json }, body: invoice, freshRequest: keyed, besideWriteFloor: true },
    { name: 'POST /v1/invoices/{id}/send (no email)', write: true, method: 'POST', path: '/v1/invoices/{id}/send', headers: { ...auth(writer), ...json }, body: '{"email":false}', freshRequest: nextDraft },
    { name: 'POST /v1/invoices/{id}/send, Idempotency-Key', write: true, keyed: true, method: 'POST', path: '/v1/invoices/{id}/send', headers: { ...auth(writer), ...json }, body: '{"email":false}', freshRequest: () => ({ ...nextDraft(), ...keyed() }) },
    { name: 'POST /v1/invoices/{id}/payments', write: true, method: 'POST', path: '/v1/invoices/{id}/payments', headers: { ...auth(writer), ...json }, body: payment, freshRequest: nextOwed },
    { name: 'POST /v1/invoices/{id}/payments, Idempotency-Key', write: true, keyed: true, method: 'POST', path: '/v1/invoices/{id}/payments', headers: { ...auth(writer), ...json }, body: payment, freshRequest: () => ({ ...nextOwed(), ...keyed() }) },
    { name: 'POST /v1/invoices/{id}/credit-notes', write: true, method: 'POST', path: '/v1/invoices/{id}/credit-notes', headers: { ...auth(writer), ...json }, body: creditNote, freshRequest: nextCreditable },
    {
      name: 'POST /v1/inbound-documents/{id}/accept (books the expense)', write: true, method: 'POST', path: '/v1/inbound-documents/{id}/accept', headers: { ...auth(writer), ...json },
      body: JSON.stringify({ category: 'software' }), run: QUOTE_ACCEPT_RUN, freshRequest: nextInReview,
    },
    { name: 'POST /v1/time-entries: start a timer, stopping the running one', write: true, method: 'POST', path: '/v1/time-entries', headers: json, body: JSON.stringify({ project_id: timers.projectId, task: 'Bench' }), freshRequest: nextTimer },
    await fromTime(50),
    await fromTime(500),
    // §22's reports of the 100,000-invoice account (about 14,300 invoices a year, three in five in a
    // currency other than the workspace's, each converted at its own date's rate).
    ...reports(large),
    { name: 'GET /v1/gigs?q=design (public)', path: '/v1/gigs?q=design' },
    { name: 'GET /api/rates', path: '/api/rates', headers: auth(small) },
    { name: 'GET /api/events (5,000 events)', path: '/api/events', headers: auth(large), list: true },
    { name: 'GET /api/events?type=invoice.paid (5,000 events)', path: '/api/events?type=invoice.paid', headers: auth(large), list: true },
    await pdfOf(5),
    await pdfOf(100),
    await pdfOf(100, true),
    await pageOf(),
    await pageOf(true),
    await pageIn('de-DE'),
    await pageIn('fr-FR'),
    einvoice('cii'),
    einvoice('ubl'),
    facturx,
    ...payments,
  ];
}

/** The reports (§22) of `account`: a month's and a year's profit and loss, aged receivables now and a year ago, VAT of a quarter and a year. */
function reports(account) {
  const size = `${thousands(account.invoices)} invoices`;
  const report = (name, path, kind) => ({ name: `GET /v1/reports/${name} (${size})`, path: `/v1/reports/${path}`, headers: auth(account), size: account.invoices, report: kind, run: REPORT_RUN });
  return [
    report('profit-and-loss, a month', `profit-and-loss?from=${day(-30)}&to=${day(-1)}`, 'pnl-month'),
    report('profit-and-loss, a year', `profit-and-loss?from=${day(-365)}&to=${day(0)}`, 'pnl-year'),
    report('profit-and-loss, a year, cash by project', `profit-and-loss?from=${day(-365)}&to=${day(0)}&basis=cash&group_by=project`, 'pnl-year-cash'),
    report('aged-receivables, today', 'aged-receivables', 'aged'),
    report('aged-receivables, a year ago', `aged-receivables?as_of=${day(-365)}`, 'aged-past'),
    report('vat, a quarter', `vat?from=${day(-91)}&to=${day(-1)}`, 'vat-quarter'),
    report('vat, a year', `vat?from=${day(-365)}&to=${day(0)}`, 'vat-year'),
  ];
}

async function measure(url, pid, workload, bounds) {
  const cpuBefore = cpuSeconds(pid);
  const run = await runLoad({ ...workload, ...bounds, url: url + workload.path, host: workload.host ?? 'app.bench', connections: CONNECTIONS });
  return { ...run, cpu: cpuSeconds(pid) - cpuBefore, rps: run.latencies.length / run.seconds };
}

const median = (values) => quantile(values, 0.5);
const round = (value, digits = 2) => Number(value.toFixed(digits));

function summarize(runs) {
  const latencies = runs.flatMap((r) => r.latencies);
  const statuses = {};
  for (const r of runs) for (const [status, n] of Object.entries(r.statuses)) statuses[status] = (statuses[status] ?? 0) + n;
  return {
    requests: latencies.length,
    rps: Math.round(median(runs.map((r) => r.rps))),
    p50_ms: round(quantile(latencies, 0.5)),
    p99_ms: round(quantile(latencies, 0.99)),
    cpu_ms_per_request: round((runs.reduce((s, r) => s + r.cpu, 0) * 1000) / latencies.length, 3),
    statuses,
    errors: runs.reduce((s, r) => s + r.errors, 0),
  };
}

async function main() {
  const started = Date.now();
  const work = mkdtempSync(join(tmpdir(), 'workspace-bench-'));
  let mf;
  let stripe;
  try {
    console.log('Building the bundles (wrangler deploy --dry-run: the API --env production, the renderer)…');
    const bundle = buildBundle(root, join(work, 'dist'));
    const renderer = buildBundle(root, join(work, 'renderer'), RENDERER_BUILD);
    // `npm run bench -- dashboard` measures only the workloads whose name contains "dashboard"
    // (`'dashboard|events'`: either); `npm run bench -- coldstart` only the cold start.
    const only = process.argv[2];
    let coldstart = null;
    if (!only || only === 'coldstart') {
      console.log(`Cold start: fresh isolates of hello world, one-route Hono + zod and the project, in rounds of three…`);
      coldstart = await measureColdStart(root, bundle.path, (i, n) => process.stdout.write(`\r  round ${i} of ${n}`));
      process.stdout.write('\n');
    }
    if (only === 'coldstart') {
      const report = { date: new Date().toISOString(), machine: machine(), bundle: bundleFigures(bundle), renderer_bundle: bundleFigures(renderer), results: [], coldstart, targets: targets([], bundle, renderer, null, null, coldstart), seconds: Math.round((Date.now() - started) / 1000) };
      writeFileSync(join(root, 'bench/results.json'), `${JSON.stringify(report, null, 2)}\n`);
      print(report);
      return;
    }
    console.log('Serving it with Miniflare; seeding 101,000 invoices…');
    stripe = await fakeStripe();
    const served = await serve({ root, bundlePath: bundle.path, rendererPath: renderer.path, persistDir: join(work, 'state'), vars: { STRIPE_API_BASE: stripe.url } });
    mf = served.mf;
    const pid = findWorkerdPid();
    const accounts = await seed(mf, root);
    // D1 reports the database's size with every result: what 101,000 invoices and their rows take.
    const seededBytes = (await (await mf.getD1Database('DB', 'app')).prepare('SELECT 1').run()).meta.size_after;
    const floor = { name: 'I/O floor (hash, KV, 25 rows)', host: 'floor.bench', path: '/', headers: auth(accounts.small) };
    console.log(`Seeded in ${Math.round((Date.now() - started) / 1000)} s. Measuring ${ROUNDS} rounds per workload, each after a run of the floor:`);
    await measure(served.url, pid, floor, WARM_UP);

    const results = [];
    const floorRuns = [];
    const all = await workloads(mf, accounts, only, stripe);
    const writeFloor = all.find((w) => w.writeFloor);
    for (const workload of all.filter((w) => selected(only, w.name))) {
      const isApp = !workload.host;
      const counted = isApp ? await countD1Calls(mf, { ...workload, host: 'app.bench' }) : null;
      const row = { name: workload.name, proposal: workload.proposal, mcp: workload.mcp, report: workload.report, from_time: workload.fromTime, einvoice: workload.einvoice, payment: workload.payment, list: Boolean(workload.list), dashboard: Boolean(workload.dashboard), size: workload.size, page: workload.page, pdf: workload.pdf, hosted: workload.hosted, write: Boolean(workload.write), keyed: Boolean(workload.keyed), write_floor: Boolean(workload.writeFloor) };
      if (counted?.status === 404) {
        results.push({ ...row, available: false });
        console.log(`  ${workload.name}: not available (404)`);
        continue;
      }
      await measure(served.url, pid, workload, workload.run ?? WARM_UP);
      const rounds = [];
      // A workload held to the write floor has it in each round as well: the ratio of two runs a
      // second apart, rather than of two sets of rounds minutes apart, each through the I/O floor.
      const sides = workload.besideWriteFloor ? ['floor', 'run', 'write'] : ['floor', 'run'];
      const bounds = { floor: FLOOR_RUN, run: workload.run ?? RUN, write: RUN };
      const measured = { floor, run: workload, write: writeFloor };
      for (let i = 0; i < ROUNDS; i++) {
        // Rotate which goes first, so none always inherits another's garbage or cache state.
        const inRound = {};
        for (let j = 0; j < sides.length; j++) {
          const side = sides[(i + j) % sides.length];
          inRound[side] = await measure(served.url, pid, measured[side], bounds[side]);
        }
        rounds.push(inRound);
        floorRuns.push(inRound.floor);
      }
      const cpuPerRequest = (run) => run.cpu / run.latencies.length;
      const writeRatios = workload.besideWriteFloor ? rounds.map((p) => cpuPerRequest(p.run) / cpuPerRequest(p.write)) : null;
      const summary = summarize(rounds.map((p) => p.run));
      const floorSummary = summarize(rounds.map((p) => p.floor));
      const ratios = rounds.map((p) => p.run.rps / p.floor.rps);
      results.push({
        ...row,
        available: true,
        ...summary,
        d1_calls_per_request: counted ? counted.calls : 0,
        d1_rows_read_per_request: counted ? counted.rowsRead : 0,
        vs_floor_rps: round(median(ratios)),
        vs_floor_rps_quartiles: [round(quantile(ratios, 0.25)), round(quantile(ratios, 0.75))],
        vs_floor_cpu: round(summary.cpu_ms_per_request / floorSummary.cpu_ms_per_request),
        ...(writeRatios && {
          vs_write_floor_cpu: round(median(writeRatios)),
          vs_write_floor_cpu_quartiles: [round(quantile(writeRatios, 0.25)), round(quantile(writeRatios, 0.75))],
        }),
        rounds: rounds.map((p) => ({ floor_rps: Math.round(p.floor.rps), rps: Math.round(p.run.rps) })),
      });
      console.log(`  ${workload.name}: ${summary.rps} req/s, ${results.at(-1).vs_floor_rps}× the floor`);
    }
    if (floorRuns.length) results.splice(1, 0, { name: floor.name, available: true, ...summarize(floorRuns), d1_calls_per_request: 1, vs_floor_rps: 1, vs_floor_cpu: 1 });
    let fanout = null;
    if (!only || only.split('|').some((part) => 'webhook fan-out'.includes(part))) {
      console.log('  webhook fan-out: one event to 10 local receivers, 20 times…');
      fanout = await measureFanout(mf, served.url, pid, accounts.writer);
    }
    let inbound = null;
    if (!only || only.split('|').some((part) => 'inbound processing'.includes(part))) {
      console.log('  inbound processing: a 100-line CII and UBL, uploaded and read on the queue, beside the floor…');
      const floorCpu = async () => {
        const run = await measure(served.url, pid, floor, FLOOR_RUN);
        return run.cpu / run.latencies.length;
      };
      inbound = await measureInbound(mf, served.url, pid, accounts.writer, floorCpu);
      // Beside the export of the same kind of 100-line invoice, when that ran too (its CPU per request through the floor).
      for (const row of inbound) {
        const exported = results.find((r) => r.available && r.einvoice === row.format);
        if (exported) row.vs_export_cpu = round(row.vs_floor_cpu / exported.vs_floor_cpu);
      }
    }
    let cron = null;
    if (!only || only.split('|').some((part) => 'recurring-invoice cron'.includes(part))) {
      console.log('  recurring-invoice cron: 500 due among 1,000 schedules, then among 10,000…');
      cron = await measureCron(mf, accounts.small);
    }

    const report = {
      date: new Date().toISOString(),
      machine: machine(),
      method: { connections: CONNECTIONS, rounds: ROUNDS, run: RUN, floor_run: FLOOR_RUN, warm_up: WARM_UP },
      bundle: bundleFigures(bundle),
      renderer_bundle: bundleFigures(renderer),
      seeded_database_bytes: seededBytes,
      results,
      fanout,
      inbound,
      cron,
      coldstart,
      targets: targets(results, bundle, renderer, fanout, cron, coldstart),
      seconds: Math.round((Date.now() - started) / 1000),
    };
    writeFileSync(join(root, 'bench/results.json'), `${JSON.stringify(report, null, 2)}\n`);
    print(report);
  } finally {
    await mf?.dispose();
    await stripe?.close();
    rmSync(work, { recursive: true, force: true });
  }
}

const machine = () => ({
  nproc: availableParallelism(),
  cpu: /model name\s*:\s*(.*)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1],
  node: process.version,
  workerd: createRequire(import.meta.url)('workerd/package.json').version,
});
const bundleFigures = (bundle) => ({ bytes: bundle.bytes, gzip_bytes: bundle.gzipBytes, gzip_kib: round(bundle.gzipBytes / 1024, 1) });

/** How each target fares; `met` is null when a workload it needs is not available. */
function targets(results, bundle, renderer, fanout, cron, coldstart) {
  const ok = (rows) => rows.length > 0 && rows.every((r) => r?.available);
  const lists = results.filter((r) => r.list);
  const reads = results.filter((r) => r.available && r.name.startsWith('GET /'));
  const find = (test) => results.find(test);
  const writes = results.filter((r) => r.available && r.write);
  const writeFloor = find((r) => r.available && r.write_floor);
  const dash = [1_000, 100_000].map((size) => find((r) => r.dashboard && r.size === size));
  const pages = ['first', 'deep'].map((page) => find((r) => r.page === page && r.size === 100_000));
  // Two workloads measured minutes apart are compared through the floor runs beside each, since
  // the machine's other load moves CPU per request as well as throughput.
  const growth = (pair, limit) => {
    if (!ok(pair)) return { value: 'not available or not measured', met: null };
    const [a, b] = pair;
    const cpu = round(b.vs_floor_cpu / a.vs_floor_cpu);
    const time = round(a.vs_floor_rps / b.vs_floor_rps);
    return { value: `${cpu}× CPU per request, ${time}× time per request`, met: cpu <= limit && time <= limit };
  };
  // The same, held to CPU alone (§7's bound on work per request).
  const cpuGrowth = (pair, limit) => {
    if (!ok(pair)) return { value: 'not available or not measured', met: null };
    const [a, b] = pair;
    const cpu = round(b.vs_floor_cpu / a.vs_floor_cpu);
    return { value: `${cpu}× CPU per request (${round(a.vs_floor_rps / b.vs_floor_rps)}× time); ${b.cpu_ms_per_request} against ${a.cpu_ms_per_request} ms`, met: cpu <= limit };
  };
  const listed = lists.filter((r) => r.available);
  const maxReadCalls = reads.length ? Math.max(...reads.map((r) => r.d1_calls_per_request)) : null;
  const missing = lists.length - listed.length ? ` (${lists.length - listed.length} not available)` : '';
  const lowest = listed.reduce((low, r) => (!low || r.vs_floor_rps < low.vs_floor_rps ? r : low), null);
  return [
    {
      target: 'authenticated lists ≥ 0.8× the I/O floor (req/s)',
      value: lowest ? `${lowest.vs_floor_rps}× at lowest, ${lowest.name} (its CPU per request: ${lowest.vs_floor_cpu}× the floor's)${missing}` : 'not available or not measured',
      met: lowest ? lowest.vs_floor_rps >= 0.8 : null,
    },
    { target: 'every read one D1 round trip once the key is cached', value: `${maxReadCalls ?? 'none'} at most`, met: maxReadCalls === null ? null : maxReadCalls <= 1 },
    // §24: a proposal is one read and one batch; an accept adds the batch of the sender's records,
    // which may live on another database than the directory that holds the proposal.
    ...[['send', 'sending a proposal', 2], ['accept', 'accepting a proposal', 3]].map(([kind, what, most]) => {
      const row = find((r) => r.available && r.proposal === kind);
      const target = `${what}: ≤ ${most} D1 round trips`;
      return row ? { target, value: `${row.d1_calls_per_request} (${row.d1_rows_read_per_request} rows read)`, met: row.d1_calls_per_request <= most } : { target, value: 'not measured', met: null };
    }),
    (() => {
      if (!writes.length) return { target: 'writes: ≤ 2 D1 round trips, ≤ 3 with an Idempotency-Key', value: 'not measured', met: null };
      const over = writes.filter((r) => r.d1_calls_per_request > (r.keyed ? 3 : 2));
      const most = (keyed) => Math.max(...writes.filter((r) => r.keyed === keyed).map((r) => r.d1_calls_per_request));
      return {
        target: 'writes: ≤ 2 D1 round trips, ≤ 3 with an Idempotency-Key',
        value: over.length ? `over: ${over.map((r) => `${r.name} ${r.d1_calls_per_request}`).join('; ')}` : `${most(false)} at most, ${most(true)} keyed`,
        met: over.length === 0,
      };
    })(),
    (() => {
      if (!writes.length) return { target: 'writes: CPU per request ≤ 1.5× the I/O floor\'s', value: 'not measured', met: null };
      const costliest = writes.reduce((a, b) => (b.vs_floor_cpu > a.vs_floor_cpu ? b : a));
      const cheapest = writes.reduce((a, b) => (b.vs_floor_cpu < a.vs_floor_cpu ? b : a));
      const floorNote = writeFloor ? `; the write floor itself ${writeFloor.vs_floor_cpu}×` : '';
      return {
        target: 'writes: CPU per request ≤ 1.5× the I/O floor\'s',
        value: `${cheapest.vs_floor_cpu}–${costliest.vs_floor_cpu}× (highest: ${costliest.name})${floorNote}`,
        met: costliest.vs_floor_cpu <= 1.5,
      };
    })(),
    ...[['create', 'POST /v1/invoices, 5 lines', 1.25], ['keyed create', 'POST /v1/invoices, 5 lines, Idempotency-Key', 1.5]].map(([what, name, limit]) => {
      const target = `${what} (${name}): CPU per request ≤ ${limit}× the write floor's`;
      const row = find((r) => r.available && r.name === name);
      if (!row || row.vs_write_floor_cpu === undefined) return { target, value: 'not measured', met: null };
      // The median of the rounds' ratios, each to the write floor's run beside it; then, for
      // comparison with earlier runs, the ratio of the two rows' ratios to the I/O floor.
      const [low, high] = row.vs_write_floor_cpu_quartiles;
      const throughFloor = writeFloor ? `; through the I/O floor, ${round(row.vs_floor_cpu / writeFloor.vs_floor_cpu)}×` : '';
      return { target, value: `${row.vs_write_floor_cpu}× (quartiles ${low}–${high})${throughFloor}`, met: row.vs_write_floor_cpu <= limit };
    }),
    { target: 'dashboard at 100,000 invoices ≤ 3× its time at 1,000', ...growth(dash, 3) },
    { target: 'a year\'s profit and loss ≤ 3× a month\'s CPU (100,000 invoices)', ...cpuGrowth([find((r) => r.report === 'pnl-month'), find((r) => r.report === 'pnl-year')], 3) },
    (() => {
      const reports = results.filter((r) => r.available && r.report);
      const most = reports.length ? Math.max(...reports.map((r) => r.d1_calls_per_request)) : null;
      return { target: 'each report one D1 round trip (100,000 invoices)', value: most === null ? 'not measured' : `${most} at most`, met: most === null ? null : most <= 1 };
    })(),
    { target: 'page 2,000 deep ≤ 1.2× the first page (100,000 invoices)', ...growth(pages, 1.2) },
    {
      target: 'each bundle ≤ 1 MiB gzipped (the API; the renderer, with the PDF font)',
      value: `API ${round(bundle.gzipBytes / 1024, 1)} KiB, renderer ${round(renderer.gzipBytes / 1024, 1)} KiB`,
      met: Math.max(bundle.gzipBytes, renderer.gzipBytes) <= 1024 * 1024,
    },
    (() => {
      const pdf = find((r) => r.pdf === 100);
      return pdf?.available
        ? { target: '100-line PDF under 50 ms of CPU', value: `${pdf.cpu_ms_per_request} ms CPU per PDF (all of workerd's, D1 and KV included)`, met: pdf.cpu_ms_per_request < 50 }
        : { target: '100-line PDF under 50 ms of CPU', value: 'not measured', met: null };
    })(),
    { target: 'PDF of 100 lines of 500-character words and 5,000-character notes ≤ 2× a normal 100-line one', ...cpuGrowth([find((r) => r.pdf === 100), find((r) => r.pdf === 'long')], 2) },
    { target: 'invoice page of the same ≤ 2× a normal 100-line one', ...cpuGrowth([find((r) => r.hosted === 100), find((r) => r.hosted === 'long')], 2) },
    (() => {
      const hook = find((r) => r.available && r.payment === 'webhook');
      return {
        target: 'provider webhook (a paid session): ≤ 2 D1 round trips, CPU against the write floor',
        value: hook ? `${hook.d1_calls_per_request} round trips; CPU ${hook.vs_floor_cpu}× the I/O floor${writeFloor ? `, ${round(hook.vs_floor_cpu / writeFloor.vs_floor_cpu)}× the write floor` : ''}` : 'not measured',
        met: hook ? hook.d1_calls_per_request <= 2 : null,
      };
    })(),
    (() => {
      const xml = results.filter((r) => r.available && (r.einvoice === 'cii' || r.einvoice === 'ubl'));
      const most = xml.length ? Math.max(...xml.map((r) => r.cpu_ms_per_request)) : null;
      return { target: 'e-invoice XML of 100 lines (CII, UBL) under 5 ms of CPU', value: most === null ? 'not measured' : `${most} ms CPU at most`, met: most === null ? null : most < 5 };
    })(),
    (() => {
      const pdf = find((r) => r.available && r.einvoice === 'facturx');
      return { target: 'Factur-X PDF of 100 lines under 60 ms of CPU', value: pdf ? `${pdf.cpu_ms_per_request} ms CPU per PDF` : 'not measured', met: pdf ? pdf.cpu_ms_per_request < 60 : null };
    })(),
    (() => {
      const fromTime = find((r) => r.available && r.from_time === 500);
      return { target: 'invoice from 500 time entries: ≤ 3 D1 round trips', value: fromTime ? `${fromTime.d1_calls_per_request}` : 'not measured', met: fromTime ? fromTime.d1_calls_per_request <= 3 : null };
    })(),
    { target: 'invoice from 500 time entries: CPU ≤ 10× one from 50 (no faster than the entries)', ...cpuGrowth([find((r) => r.from_time === 50), find((r) => r.from_time === 500)], 10) },
    { target: 'MCP: a listClients tool call ≤ 1.3× the CPU of GET /v1/clients', ...cpuGrowth([find((r) => r.mcp === 'api'), find((r) => r.mcp === 'tool')], 1.3) },
    {
      target: 'webhook fan-out: one D1 batch for a change, its event and its 10 deliveries',
      value: fanout ? `${fanout.write_d1_batches} batch (the write's ${fanout.write_d1_calls} D1 round trips include enqueueing after the answer)` : 'not measured',
      met: fanout ? fanout.write_d1_batches === 1 : null,
    },
    {
      target: 'cron with 500 due: 10,000 schedules ≤ 1.2× 1,000 (time and D1 rows read)',
      value: cron ? `${cron.ratio.ms}× time, ${cron.ratio.rows_read}× rows read` : 'not measured',
      met: cron ? cron.ratio.ms <= 1.2 && cron.ratio.rows_read <= 1.2 : null,
    },
    {
      target: 'cold start: (project − hello) ÷ (one-route Hono + zod − hello) ≤ 2.5, CPU of a fresh isolate to its first /health',
      value: coldstart
        ? `${coldstart.ratio} (quartiles ${coldstart.ratio_quartiles.join('–')}; medians of ${coldstart.rounds}: hello ${coldstart.median_ms.hello}, one-route ${coldstart.median_ms.one_route}, project ${coldstart.median_ms.project} ms)`
        : 'not measured',
      met: coldstart ? coldstart.ratio <= 2.5 : null,
    },
  ];
}

function table(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => String(row[i]).length)));
  const line = (cells) => `| ${cells.map((c, i) => String(c).padEnd(widths[i])).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

function print(report) {
  const header = ['workload', 'req/s', 'p50 ms', 'p99 ms', 'CPU ms/req', 'D1 calls', 'D1 rows read', '× floor req/s (quartiles)', '× floor CPU', 'statuses'];
  const rows = report.results.map((r) =>
    r.available
      ? [r.name, r.rps, r.p50_ms, r.p99_ms, r.cpu_ms_per_request, r.d1_calls_per_request, r.d1_rows_read_per_request ?? '',
         r.vs_floor_rps_quartiles ? `${r.vs_floor_rps} (${r.vs_floor_rps_quartiles.join('–')})` : r.vs_floor_rps, r.vs_floor_cpu,
         Object.entries(r.statuses).map(([s, n]) => `${s}×${n}`).join(' ') + (r.errors ? ` errors×${r.errors}` : '')]
      : [r.name, 'not available', '', '', '', '', '', '', '', ''],
  );
  const verdict = (met) => (met === null ? 'n/a' : met ? 'met' : 'NOT MET');
  const { machine } = report;
  console.log(`\n${report.date.slice(0, 10)} · nproc ${machine.nproc} · ${machine.cpu} · Node ${machine.node} · workerd ${machine.workerd}`);
  console.log(`\n${table(header, rows)}\n`);
  if (report.fanout) {
    const f = report.fanout;
    console.log(table(
      ['webhook fan-out', 'endpoints', 'events', 'D1 batches / round trips per write', 'write → last delivery p50 / p90 / max ms', 'CPU ms per delivery'],
      [['POST /v1/clients → client.created', f.endpoints, f.events, `${f.write_d1_batches} / ${f.write_d1_calls}`, `${f.write_to_last_delivery_ms.p50} / ${f.write_to_last_delivery_ms.p90} / ${f.write_to_last_delivery_ms.max}`, f.cpu_ms_per_delivery]],
    ));
    console.log('');
  }
  if (report.inbound) {
    console.log(table(
      ['inbound processing (upload + read on the queue)', 'documents', 'bytes', 'CPU ms per document', '× floor CPU (quartiles)', '× its export\'s CPU', 'statuses'],
      report.inbound.map((r) => [r.name, r.documents, r.bytes, r.cpu_ms_per_document, `${r.vs_floor_cpu} (${r.vs_floor_cpu_quartiles.join('–')})`, r.vs_export_cpu ?? 'not measured', Object.entries(r.statuses).map(([s, n]) => `${s}×${n}`).join(' ')]),
    ));
    console.log('');
  }
  if (report.cron) {
    const c = report.cron;
    console.log(table(
      ['recurring-invoice cron (issuing 500 invoices)', 'cron runs', 'ms (median)', 'rounds ms', 'D1 rows read', 'D1 round trips'],
      [c.small, c.large].map((r) => [r.label, r.cron_runs, r.ms, r.runs_ms.join(', '), thousands(r.rows_read), r.d1_calls]),
    ));
    console.log('');
  }
  if (report.coldstart) {
    const c = report.coldstart;
    const row = (label, f) => [label, f.median_ms.hello, f.median_ms.one_route, f.median_ms.project, `${f.added_ms.one_route} / ${f.added_ms.project}`, `${f.ratio} (${f.ratio_quartiles.join('–')})`, f.ratio_of_medians];
    console.log(table(
      [`cold start, ${c.rounds} rounds, load average ${c.load_average.join(' → ')}`, 'hello', 'one-route', 'project', 'added: one-route / project', 'ratio, median of rounds (quartiles)', 'ratio of medians'],
      [row('workerd CPU ms to the first /health (the target)', c), row('wall ms, as Miniflare sees it', c.wall)],
    ));
    console.log('');
  }
  console.log(table(['target', 'result', ''], report.targets.map((t) => [t.target, t.value, verdict(t.met)])));
  if (report.seeded_database_bytes) console.log(`\nSeeded database: ${(report.seeded_database_bytes / 1024 / 1024).toFixed(1)} MiB (101,000 invoices with their lines, payments, expenses and events)`);
  const renderer = report.renderer_bundle;
  console.log(`\nBundle ${report.bundle.gzip_kib} KiB gzipped (${thousands(report.bundle.bytes)} bytes minified), renderer ${renderer.gzip_kib} KiB (${thousands(renderer.bytes)} bytes) · ${report.seconds} s · bench/results.json`);
}

await main();
