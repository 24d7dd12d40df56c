// Reading a received e-invoice (§21 "Reading"): GET …/view answers it as a page printed by our own documents'
// renderer (§20), in the workspace's language, with its EN 16931 verdict (valid, or each rule it breaks), under
// the hosted pages' security headers. Read here as a person reads it: the page's text. A document that is no
// e-invoice, or not read yet, is a 409.
import { env } from 'cloudflare:workers';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { call, expectError } from '../helpers/api';
import { createUser, type TestUser } from '../helpers/factories';
import { readOnQueue, TINY_PNG, uploadDocument } from '../helpers/inbound';
import { exportedXml, sentInvoice, SUPPLIER_ISSUER, type Supplier, supplierStudio } from './exports';
import { readDocument } from './in-review';

let supplier: Supplier;
let invoice: Awaited<ReturnType<typeof sentInvoice>>;
let cii: string;
let ubl: string;

beforeAll(async () => {
  supplier = await supplierStudio();
  invoice = await sentInvoice(supplier, 2);
  [cii, ubl] = await Promise.all([exportedXml(supplier, invoice.id, 'cii'), exportedXml(supplier, invoice.id, 'ubl')]);
});

beforeEach(() => {
  vi.restoreAllMocks();
  vi.spyOn(env.INBOUND_QUEUE, 'send').mockResolvedValue(undefined as never);
});

/** What a person reads on a page: its text without tags, entities decoded, spaces collapsed. */
const textOf = (html: string) =>
  html
    .replace(/<(style|script)[^>]*>[\s\S]*?<\/\1>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
const money = (locale: string, minor: number) => new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR' }).format(minor / 100).replace(/\s+/g, ' ');
const view = (key: string, id: string) => call('GET', `/v1/inbound-documents/${id}/view`, { key });

async function workspaceIn(locale: string): Promise<TestUser> {
  const user = await createUser();
  expect((await call('PATCH', '/api/workspace', { key: user.key, body: { locale } })).status).toBe(200);
  return user;
}

describe('GET /v1/inbound-documents/{id}/view', () => {
  it('prints a received XRechnung-style CII in the workspace\'s language, every party, line, tax group and amount, with its verdict', async () => {
    const reader = await workspaceIn('de-DE');
    const document = await readDocument(reader.key, cii, `${invoice.number}.cii.xml`);
    const res = await view(reader.key, document.id);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toContain('text/html');
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    expect(res.headers.get('X-Robots-Tag')).toBe('noindex');
    expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(res.headers.get('Referrer-Policy')).toBe('no-referrer');
    const csp = res.headers.get('Content-Security-Policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.body).not.toContain('<script');

    const text = textOf(res.body);
    for (const expected of [
      `Rechnung ${invoice.number}`, 'Ada Studio GmbH', 'Hauptstraße 1', '10115 Berlin', 'Deutschland', `USt-IdNr. ${SUPPLIER_ISSUER.vat_id}`,
      'Client SARL', '1 rue de la Paix', '75002 Paris', 'Frankreich', 'USt-IdNr. FR12345678901', 'PO-77',
      'Design work, part 1', 'Design work, part 2', `Zwischensumme ${money('de-DE', 29_998)}`, money('de-DE', 2_850), money('de-DE', 1_050),
      `Gesamt ${money('de-DE', 33_898)}`, `Zu zahlen ${money('de-DE', 33_898)}`, 'IBAN DE89370400440532013000',
      'Prüfung der E-Rechnung', `Empfangen am`, `${invoice.number}.cii.xml`, 'Spezifikation: EN 16931', 'Gültig: erfüllt die Regeln der EN 16931.',
    ]) expect(text, expected).toContain(expected);
  });

  it('lists each rule a broken e-invoice breaks, in English for an English workspace', async () => {
    const reader = await workspaceIn('en-GB');
    const broken = cii.replace(/<ram:GrandTotalAmount>[^<]*<\/ram:GrandTotalAmount>/, '<ram:GrandTotalAmount>1.00</ram:GrandTotalAmount>');
    const document = await readDocument(reader.key, broken);
    expect(document.validation.valid).toBe(false);
    const text = textOf((await view(reader.key, document.id)).body);
    expect(text).toContain(`Invoice ${invoice.number}`);
    expect(text).toContain('E-invoice check');
    expect(text).toMatch(/Not valid: \d+ rules? not met\./);
    expect(text).toContain('Errors');
    for (const error of document.validation.errors) expect(text).toContain(`${error.rule} ${error.message}`.replace(/\s+/g, ' '));
    expect(text).toContain('BR-CO-15');
  });

  it('prints a UBL alike, in French', async () => {
    const reader = await workspaceIn('fr-FR');
    const document = await readDocument(reader.key, ubl);
    const text = textOf((await view(reader.key, document.id)).body);
    for (const expected of [`Facture ${invoice.number}`, 'Ada Studio GmbH', 'Allemagne', 'Contrôle de la facture électronique', 'Valide : conforme aux règles de la norme EN 16931.', money('fr-FR', 33_898)]) {
      expect(text, expected).toContain(expected);
    }
  });

  it('is a 409 for a document that is no e-invoice, or not read yet', async () => {
    const reader = await createUser();
    const image = (await uploadDocument(reader.key, TINY_PNG)).body;
    expect(expectError(await view(reader.key, image.id), 409, 'invalid_state').message).toContain('not read yet');
    await readOnQueue(image.id);
    expect(expectError(await view(reader.key, image.id), 409, 'invalid_state').message).toContain('not an e-invoice');
    const failed = await readDocument(reader.key, '<?xml version="1.0"?><note/>');
    expectError(await view(reader.key, failed.id), 409, 'invalid_state');
  });
});
