// §21 "Email": mail to a workspace's inbound address turns each PDF, XML and image attachment into an inbound
// document (`source: "email"`, `from` the sender); a message with none is dropped; more than 20 attachments, more
// than 25 MB or an address that is no workspace's (a made-up or rotated one) is refused with a reason. The worker's
// own email handler is called with a message as Cloudflare Email Routing hands it over.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import worker from '../../src/index';
import { call } from '../helpers/api';
import { createUser } from '../helpers/factories';
import { exportedPdf, exportedXml, sentInvoice, supplierStudio } from './exports';

type Part = { filename: string; type: string; bytes: Uint8Array; inlineId?: string };

const base64 = (bytes: Uint8Array) => {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/.{76}/g, '$&\r\n');
};

/** An RFC 5322 message with a text and HTML body (showing any inline part by its cid) and the parts attached. */
function mimeMessage(from: string, to: string, parts: Part[]): string {
  const boundary = `b-${crypto.randomUUID()}`;
  const html = `<p>Invoice attached.</p>${parts.filter((p) => p.inlineId).map((p) => `<img src="cid:${p.inlineId}">`).join('')}`;
  return [
    `From: Supplier Billing <${from}>`, `To: ${to}`, 'Subject: Your invoice', 'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${boundary}"`, '',
    `--${boundary}`, 'Content-Type: text/html; charset=utf-8', '', html,
    ...parts.flatMap((p) => [
      `--${boundary}`, `Content-Type: ${p.type}; name="${p.filename}"`, 'Content-Transfer-Encoding: base64',
      p.inlineId ? `Content-Disposition: inline; filename="${p.filename}"` : `Content-Disposition: attachment; filename="${p.filename}"`,
      ...(p.inlineId ? [`Content-ID: <${p.inlineId}>`] : []), '', base64(p.bytes),
    ]),
    `--${boundary}--`, '',
  ].join('\r\n');
}

/** The message as the email handler gets it; `rejected` is the reason given, if any. */
function routed(from: string, to: string, raw: string, rawSize = raw.length) {
  const bytes = new TextEncoder().encode(raw);
  const message = {
    from, to, rawSize, headers: new Headers(), rejected: null as string | null,
    raw: new Response(bytes).body!,
    setReject(reason: string) { message.rejected = reason; },
    forward: async () => ({}), reply: async () => ({}),
  };
  return message;
}

const deliver = async (message: ReturnType<typeof routed>) => {
  await worker.email(message as unknown as ForwardableEmailMessage, env);
  return message;
};

const documentsOf = async (key: string) => (await call('GET', '/v1/inbound-documents', { key })).body.data as any[];
const addressOf = async (key: string) => (await call('GET', '/api/workspace/inbound-address', { key })).body.address as string;
const png = (size: number) => new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Uint8Array(size)]);

describe('mail to the inbound address', () => {
  it('turns each PDF, XML and image attachment into a document from the sender, and leaves the signature logo', async () => {
    const supplier = await supplierStudio();
    const invoice = await sentInvoice(supplier);
    const [pdf, xml] = [await exportedPdf(supplier, invoice.id), await exportedXml(supplier, invoice.id, 'ubl')];
    const me = await createUser('Buyer');
    const to = await addressOf(me.key);
    const message = await deliver(routed('billing@ada.example', to, mimeMessage('billing@ada.example', to, [
      { filename: `${invoice.number}.pdf`, type: 'application/pdf', bytes: pdf },
      { filename: `${invoice.number}.ubl.xml`, type: 'application/xml', bytes: new TextEncoder().encode(xml) },
      { filename: 'receipt.png', type: 'image/png', bytes: png(64) },
      { filename: 'logo.png', type: 'image/png', bytes: png(32), inlineId: 'logo@ada' },
    ])));
    expect(message.rejected).toBeNull();
    const documents = await documentsOf(me.key);
    expect(documents.map((d) => d.filename).sort()).toEqual([`${invoice.number}.pdf`, `${invoice.number}.ubl.xml`, 'receipt.png'].sort());
    for (const d of documents) {
      expect(d.source).toBe('email');
      expect(d.from).toBe('billing@ada.example');
    }
    expect(documents.find((d) => d.filename.endsWith('.pdf')).size).toBe(pdf.byteLength);
  });

  it('drops a message without documents, and nothing is received', async () => {
    const me = await createUser('Buyer');
    const to = await addressOf(me.key);
    const message = await deliver(routed('friend@example.com', to, mimeMessage('friend@example.com', to, [])));
    expect(message.rejected).toBeNull();
    expect(await documentsOf(me.key)).toEqual([]);
  });

  it('refuses mail to an address that is no workspace\'s, or no longer one after a rotation', async () => {
    const me = await createUser('Buyer');
    const old = await addressOf(me.key);
    await call('POST', '/api/workspace/inbound-address/rotate', { key: me.key });
    const receipt: Part = { filename: 'receipt.png', type: 'image/png', bytes: png(64) };
    for (const to of [old, `${'a'.repeat(26)}@inbound.workspace.example`, 'someone@elsewhere.example']) {
      const message = await deliver(routed('x@example.com', to, mimeMessage('x@example.com', to, [receipt])));
      expect(message.rejected).toBe('Unknown address');
    }
    expect(await documentsOf(me.key)).toEqual([]);
  });

  it('refuses more than 20 attachments and more than 25 MB, keeping none of it', async () => {
    const me = await createUser('Buyer');
    const to = await addressOf(me.key);
    const many = Array.from({ length: 21 }, (_, i) => ({ filename: `r${i}.png`, type: 'image/png', bytes: png(16) }));
    const tooMany = await deliver(routed('x@example.com', to, mimeMessage('x@example.com', to, many)));
    expect(tooMany.rejected).toMatch(/at most 20/);
    const raw = mimeMessage('x@example.com', to, many.slice(0, 1));
    const tooLarge = await deliver(routed('x@example.com', to, raw, 25 * 1024 * 1024 + 1));
    expect(tooLarge.rejected).toMatch(/25 MB/);
    expect(await documentsOf(me.key)).toEqual([]);
    // Twenty is still taken.
    const twenty = await deliver(routed('x@example.com', to, mimeMessage('x@example.com', to, many.slice(0, 20))));
    expect(twenty.rejected).toBeNull();
    expect(await documentsOf(me.key)).toHaveLength(20);
  });
});
