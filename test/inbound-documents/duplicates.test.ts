// Duplicates (§21): a document whose bytes, or whose supplier and number, match one received before it in the
// workspace names that one in `duplicate_of`: every copy the first, whatever order they are read in; another
// invoice of the same supplier is none, and neither is the same invoice in another workspace.
import { env } from 'cloudflare:workers';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { call } from '../helpers/api';
import { createUser } from '../helpers/factories';
import { readOnQueue, uploadDocument } from '../helpers/inbound';
import { exportedXml, sentInvoice, type Supplier, supplierStudio } from './exports';

let supplier: Supplier;
let first: { id: string; number: string };
let cii: string;
let ubl: string;
let other: string;

beforeAll(async () => {
  supplier = await supplierStudio();
  first = await sentInvoice(supplier);
  const second = await sentInvoice(supplier);
  [cii, ubl, other] = await Promise.all([exportedXml(supplier, first.id, 'cii'), exportedXml(supplier, first.id, 'ubl'), exportedXml(supplier, second.id, 'cii')]);
});

beforeEach(() => {
  vi.restoreAllMocks();
  vi.spyOn(env.INBOUND_QUEUE, 'send').mockResolvedValue(undefined as never);
});

async function receive(key: string, xml: string) {
  const res = await uploadDocument(key, xml, { contentType: 'application/xml' });
  expect(res.status).toBe(202);
  return res.body.id as string;
}
const read = async (key: string, id: string) => {
  await readOnQueue(id);
  return (await call('GET', `/v1/inbound-documents/${id}`, { key })).body;
};

describe('duplicate_of', () => {
  it('names the first document with the same bytes, and the first with the same supplier and number (CII, then its UBL)', async () => {
    const user = await createUser();
    const original = await receive(user.key, cii);
    const sameFile = await receive(user.key, cii);
    const sameInvoice = await receive(user.key, ubl);
    const another = await receive(user.key, other);
    expect((await read(user.key, original)).duplicate_of).toBeNull();
    expect((await read(user.key, sameFile)).duplicate_of).toBe(original);
    const ublCopy = await read(user.key, sameInvoice);
    expect(ublCopy.duplicate_of).toBe(original);
    expect(ublCopy.status).toBe('needs_review');
    expect((await read(user.key, another)).duplicate_of).toBeNull();
  });

  it('names the first received whatever order they are read in, and a copy of a copy names the first too', async () => {
    const user = await createUser();
    const a = await receive(user.key, cii);
    const b = await receive(user.key, cii);
    const c = await receive(user.key, cii);
    expect((await read(user.key, c)).duplicate_of).toBe(a);
    expect((await read(user.key, b)).duplicate_of).toBe(a);
    expect((await read(user.key, a)).duplicate_of).toBeNull();
  });

  it('finds a copy of a document that failed to be read by its bytes alone', async () => {
    const user = await createUser();
    const broken = '<?xml version="1.0"?><note>not an invoice</note>';
    const a = await receive(user.key, broken);
    const b = await receive(user.key, broken);
    expect((await read(user.key, a)).status).toBe('failed');
    expect(await read(user.key, b)).toMatchObject({ status: 'failed', duplicate_of: a });
  });

  it('matches the supplier by VAT id whatever its spacing and case, and leaves a rejected original out', async () => {
    const user = await createUser();
    const a = await receive(user.key, cii);
    await read(user.key, a);
    const spaced = await receive(user.key, ubl.replaceAll('DE123456789', 'de 123 456 789'));
    expect((await read(user.key, spaced)).duplicate_of).toBe(a);
    // A rejected document was never booked: a later copy is no duplicate of it.
    await env.DB.prepare("UPDATE inbound_documents SET status = 'rejected', rejected_reason = 'spam' WHERE id = ?").bind(a).run();
    const later = await receive(user.key, ubl);
    expect((await read(user.key, later)).duplicate_of).toBe(spaced);
  });

  it('never names another workspace\'s document', async () => {
    const [one, two] = [await createUser(), await createUser()];
    const mine = await receive(one.key, cii);
    await read(one.key, mine);
    const theirs = await receive(two.key, cii);
    expect((await read(two.key, theirs)).duplicate_of).toBeNull();
  });
});
