// Rejecting a received document (§21 "Review"): `{reason}` turns away a document not booked (in review, still
// unread, or one that could not be read), keeps the reason and writes inbound_document.rejected; an accepted one
// is its expense's (409 until that is deleted), a rejected one stays so, and a reason is required.
import { env } from 'cloudflare:workers';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { call, errorPaths, expectError } from '../helpers/api';
import { createUser, type TestUser } from '../helpers/factories';
import { uploadDocument } from '../helpers/inbound';
import { type Supplier, supplierStudio } from './exports';
import { accept, correct, documentOf, eventsOf, invoiceInReview, readDocument, reject } from './in-review';

let supplier: Supplier;
let me: TestUser;

beforeAll(async () => {
  supplier = await supplierStudio();
  me = await createUser('Receiver');
});

beforeEach(() => {
  vi.restoreAllMocks();
  vi.spyOn(env.INBOUND_QUEUE, 'send').mockResolvedValue(undefined as never);
});

describe('POST /v1/inbound-documents/{id}/reject', () => {
  it('turns a document in review away with its reason and its event, and nothing is booked', async () => {
    const { document } = await invoiceInReview(me.key, supplier);
    const res = await reject(me.key, document.id, 'Addressed to another company');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: document.id, status: 'rejected', rejected_reason: 'Addressed to another company', expense_id: null, extracted: document.extracted });
    expect(await documentOf(me.key, document.id)).toEqual(res.body);
    const [event] = await eventsOf(me.key, 'inbound_document.rejected');
    expect(event!.data.object).toEqual(res.body);
    expect(event!.data.previous_attributes).toBeUndefined();
    // Final: no correction, no booking, no second rejection.
    expectError(await correct(me.key, document.id, { number: 'X' }), 409, 'invalid_state');
    expectError(await accept(me.key, document.id), 409, 'invalid_state');
    expect(expectError(await reject(me.key, document.id), 409, 'invalid_state').message).toContain('already rejected');
    expect((await call('GET', '/api/workflow/expenses', { key: me.key })).body.data).toEqual([]);
  });

  it('turns away a document that could not be read, and one not read yet', async () => {
    const failed = await readDocument(me.key, '<?xml version="1.0"?><note><to>Ada</to></note>');
    expect(failed.status).toBe('failed');
    expect((await reject(me.key, failed.id, 'Not an invoice')).body).toMatchObject({ status: 'rejected', failure_reason: failed.failure_reason });
    const unread = (await uploadDocument(me.key, '<?xml version="1.0"?><note/>', { contentType: 'application/xml' })).body;
    expect((await reject(me.key, unread.id, 'Sent by mistake')).body.status).toBe('rejected');
  });

  it('is a 409 for an accepted document, naming its expense', async () => {
    const { document } = await invoiceInReview(me.key, supplier);
    const expenseId = (await accept(me.key, document.id)).body.expense_id;
    expect(expectError(await reject(me.key, document.id), 409, 'invalid_state').message).toContain(expenseId);
    expect((await documentOf(me.key, document.id)).status).toBe('accepted');
  });

  it('needs a reason of one line', async () => {
    const { document } = await invoiceInReview(me.key, supplier);
    for (const body of [{}, { reason: '' }, { reason: '   ' }, { reason: 'x'.repeat(501) }, { reason: 'two\nlines' }, { reason: 'Spam', note: 'more' }]) {
      const res = await call('POST', `/v1/inbound-documents/${document.id}/reject`, { key: me.key, body });
      expectError(res, 422, 'validation_failed');
      expect(errorPaths(res).length, JSON.stringify(body)).toBeGreaterThan(0);
    }
    expect((await documentOf(me.key, document.id)).status).toBe('needs_review');
  });
});
