// Documents waiting for review (§21), made the way they arrive: a second workspace's invoice exported through the
// API, uploaded into the receiver's workspace and read on the queue, as the runtime would.
import { expect } from 'vitest';
import { call } from '../helpers/api';
import { readOnQueue, uploadDocument } from '../helpers/inbound';
import { exportedXml, sentInvoice, type Supplier } from './exports';

export type SentInvoice = Awaited<ReturnType<typeof sentInvoice>>;

/** A received document, read: `needs_review` unless its reading failed. */
export async function readDocument(key: string, xml: string, filename = 'invoice.xml') {
  const upload = await uploadDocument(key, xml, { contentType: 'application/xml', filename });
  expect(upload.status, JSON.stringify(upload.body)).toBe(202);
  await readOnQueue(upload.body.id);
  return (await call('GET', `/v1/inbound-documents/${upload.body.id}`, { key })).body;
}

/** A new invoice of `supplier` (two VAT rates with more than one line), received by `key` and waiting for review. */
export async function invoiceInReview(key: string, supplier: Supplier, options: { lines?: number; format?: 'cii' | 'ubl' } = {}) {
  const invoice = await sentInvoice(supplier, options.lines ?? 2);
  const xml = await exportedXml(supplier, invoice.id, options.format ?? 'cii');
  const document = await readDocument(key, xml, `${invoice.number}.${options.format ?? 'cii'}.xml`);
  expect(document.status, JSON.stringify(document)).toBe('needs_review');
  return { invoice, xml, document };
}

export const accept = (key: string, id: string, body: Record<string, unknown> = {}) => call('POST', `/v1/inbound-documents/${id}/accept`, { key, body });
export const reject = (key: string, id: string, reason = 'Not ours') => call('POST', `/v1/inbound-documents/${id}/reject`, { key, body: { reason } });
export const correct = (key: string, id: string, extracted: Record<string, unknown>) => call('PATCH', `/v1/inbound-documents/${id}`, { key, body: { extracted } });
export const documentOf = async (key: string, id: string) => (await call('GET', `/v1/inbound-documents/${id}`, { key })).body;
export const eventsOf = async (key: string, type: string) => (await call('GET', `/api/events?type=${type}&limit=100`, { key })).body.data as { data: { object: Record<string, unknown>; previous_attributes?: Record<string, unknown> }; actor: unknown }[];
