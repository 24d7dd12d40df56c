// Inbound processing (§21): what receiving and reading one e-invoice costs, through the real route, queue and
// consumer. A 100-line invoice of the writer's (its issuer made complete, to a French business, two VAT rates) is
// exported as CII and as UBL; each round uploads a few copies (POST /v1/inbound-documents: the type sniffed, the
// file hashed and put in R2, the row and its event in one batch, the message queued) and waits until the consumer
// has read them all (claimed, the XML read and judged by the EN 16931 rules, the duplicate looked up, stored with
// its event). Each round runs beside a run of the I/O floor; the figure is workerd's CPU per document over the
// floor's CPU per request, the median over the rounds. The wait polls D1 every 100 ms, a few queries a round.
import { cpuSeconds } from './cpu.mjs';
import { quantile } from './load.mjs';

const ROUNDS = 7;
const PER_ROUND = 6;

export async function measureInbound(mf, url, pid, account, floorRun) {
  const headers = { authorization: `Bearer ${account.key}`, host: 'app.bench' };
  const api = async (method, path, body) => {
    const res = await fetch(`${url}${path}`, { method, headers: { ...headers, 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
    if (!res.ok) throw new Error(`bench setup: ${method} ${path} answered ${res.status}`);
    return res;
  };
  await api('PATCH', '/api/workspace', {
    issuer: { legal_name: 'Bench Studio GmbH', email: 'billing@bench.example', address: { line1: 'Hauptstraße 1', city: 'Berlin', postal_code: '10115', country: 'DE' }, vat_id: 'DE123456789', peppol_id: '9930:DE123456789', iban: 'DE89370400440532013000' },
  });
  const buyer = await (await api('POST', '/v1/clients', {
    name: 'Client SARL', email: 'ap@client.example', currency: 'EUR', vat_id: 'FR12345678901', peppol_id: '0009:12345678901234', buyer_reference: 'PO-77',
    address: { line1: '1 rue de la Paix', city: 'Paris', postal_code: '75002', country: 'FR' },
  })).json();
  const draft = await (await api('POST', '/v1/invoices', {
    client_id: buyer.id, currency: 'EUR',
    line_items: Array.from({ length: 100 }, (_, i) => ({ description: `Design work, part ${i + 1}`, quantity: 1.5, unit: 'HUR', unit_amount: 9_999, tax_rate: i % 2 ? 19 : 7 })),
  })).json();
  await api('POST', `/v1/invoices/${draft.id}/send`, { email: false });
  const db = await mf.getD1Database('DB', 'app');
  const workspaceId = (await (await api('GET', '/api/me')).json()).workspace.id;
  const unread = async () => (await db.prepare("SELECT count(*) AS n FROM inbound_documents WHERE workspace_id = ? AND status IN ('received', 'processing')").bind(workspaceId).first()).n;

  const upload = (xml) => fetch(`${url}/v1/inbound-documents`, { method: 'POST', headers: { ...headers, 'content-type': 'application/xml' }, body: xml }).then((res) => {
    if (res.status !== 202) throw new Error(`POST /v1/inbound-documents answered ${res.status}`);
  });
  async function receiveAndRead(xml, count) {
    await Promise.all(Array.from({ length: count }, () => upload(xml)));
    const deadline = Date.now() + 60_000;
    while ((await unread()) > 0) {
      if (Date.now() > deadline) throw new Error('inbound documents were not read within a minute');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  const rows = [];
  for (const format of ['cii', 'ubl']) {
    const xml = await (await api('GET', `/v1/invoices/${draft.id}/e-invoice?format=${format}`)).text();
    const read = async () => {
      const before = cpuSeconds(pid);
      await receiveAndRead(xml, PER_ROUND);
      return (cpuSeconds(pid) - before) / PER_ROUND;
    };
    await receiveAndRead(xml, 3); // warm-up: the route, the consumer and its readers loaded
    const ratios = [];
    const perDocument = [];
    for (let i = 0; i < ROUNDS; i++) {
      // Alternate which goes first, so neither always inherits the other's garbage.
      let floor;
      let inbound;
      if (i % 2) {
        floor = await floorRun();
        inbound = await read();
      } else {
        inbound = await read();
        floor = await floorRun();
      }
      perDocument.push(inbound);
      ratios.push(inbound / floor);
    }
    const status = (await db.prepare('SELECT status, count(*) AS n FROM inbound_documents WHERE workspace_id = ? AND format = ? GROUP BY status').bind(workspaceId, format).all()).results;
    rows.push({
      name: `inbound ${format.toUpperCase()}, 100 lines: upload + read on the queue`,
      format, bytes: xml.length, documents: ROUNDS * PER_ROUND,
      cpu_ms_per_document: Number((quantile(perDocument, 0.5) * 1000).toFixed(2)),
      vs_floor_cpu: Number(quantile(ratios, 0.5).toFixed(2)),
      vs_floor_cpu_quartiles: [Number(quantile(ratios, 0.25).toFixed(2)), Number(quantile(ratios, 0.75).toFixed(2))],
      statuses: Object.fromEntries(status.map((s) => [s.status, s.n])),
    });
  }
  return rows;
}
