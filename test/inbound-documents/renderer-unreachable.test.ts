// A received email's MIME and a received e-invoice's XML are read by the renderer worker (through the RENDERER
// service binding), as a PDF is: when that worker cannot be reached, nothing is lost. The queue message is tried
// again with the document left as received, never failed (the file is not at fault); an email's handler fails,
// keeping none of it and refusing nothing, so the message is not bounced for our outage.
import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import worker from '../../src/index';
import { consumeInbound } from '../../src/modules/inbound-documents/consumer';
import { inboundMessage } from '../../src/modules/inbound-documents/message';
import { call } from '../helpers/api';
import { createUser, type TestUser } from '../helpers/factories';
import { uploadDocument } from '../helpers/inbound';
import { exportedXml, sentInvoice, supplierStudio } from './exports';

const lost = () => Promise.reject(new Error('Network connection lost.'));
const withoutRenderer = { ...env, RENDERER: { readXml: lost, readPdf: lost, parseEmail: lost, receivedDocument: lost } } as unknown as Env;

let me: TestUser;
let xml: string;

beforeAll(async () => {
  const supplier = await supplierStudio();
  xml = await exportedXml(supplier, (await sentInvoice(supplier)).id, 'cii');
  me = await createUser('Receiver');
});

beforeEach(() => {
  vi.restoreAllMocks();
  vi.spyOn(env.INBOUND_QUEUE, 'send').mockResolvedValue(undefined as never);
});

describe('without the renderer', () => {
  it('a received XML is tried again later and stays received', async () => {
    const id = (await uploadDocument(me.key, xml, { contentType: 'application/xml' })).body.id as string;
    const batch = createMessageBatch('workspace-inbound', [{ id: 'm1', timestamp: new Date(), body: inboundMessage(id), attempts: 1 }]);
    await consumeInbound(batch, withoutRenderer);
    const result = await getQueueResult(batch, createExecutionContext());
    expect(result.retryMessages.map((m: { msgId: string }) => m.msgId)).toEqual(['m1']);
    expect((await call('GET', `/v1/inbound-documents/${id}`, { key: me.key })).body).toMatchObject({ status: 'received', failure_reason: null });
  });

  it('an email\'s handler fails, keeping and refusing nothing', async () => {
    const to = (await call('GET', '/api/workspace/inbound-address', { key: me.key })).body.address as string;
    const before = (await call('GET', '/v1/inbound-documents', { key: me.key })).body.data.length;
    const raw = new TextEncoder().encode(`From: billing@ada.example\r\nTo: ${to}\r\nSubject: Invoice\r\n\r\nAttached.\r\n`);
    const message = {
      from: 'billing@ada.example', to, rawSize: raw.byteLength, headers: new Headers(), raw: new Response(raw).body!,
      setReject: vi.fn(), forward: vi.fn(), reply: vi.fn(),
    };
    await expect(worker.email(message as unknown as ForwardableEmailMessage, withoutRenderer)).rejects.toThrow(/Network connection lost/);
    expect(message.setReject).not.toHaveBeenCalled();
    expect((await call('GET', '/v1/inbound-documents', { key: me.key })).body.data).toHaveLength(before);
  });
});
