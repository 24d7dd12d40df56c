// The invoice's documents as the client reads them (§10): the page, the PDF and the emails speak the
// language of the locale the invoice was sent with, format its amounts in that locale, keep the
// payment instructions it was sent with whatever the workspace says later, and answer to the issuer.
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { call, open } from '../helpers/api';
import { createClient, createInvoice, createUser } from '../helpers/factories';
import { pdfText } from '../helpers/pdf-text';
import { deliver } from '../helpers/worker';

afterEach(() => vi.restoreAllMocks());

/** A workspace in `locale` with an issuer and payment instructions, and a client with an email. */
async function studio(locale: string) {
  const owner = await createUser('Owner');
  const settings = await call('PATCH', '/api/workspace', {
    key: owner.key,
    body: { locale, issuer: { legal_name: 'Ada Studio GmbH', email: 'billing@ada.example' }, payment_instructions: 'IBAN DE89 3704 0044 0532 0130 00' },
  });
  expect(settings.status).toBe(200);
  const client = await createClient(owner.key, { name: 'Initech', email: 'ap@initech.example', currency: 'USD' });
  return { owner, client };
}

/** The emails queue's messages, captured so the test delivers them when it chooses. */
function capturedEmails() {
  const queued: unknown[] = [];
  vi.spyOn(env.EMAILS_QUEUE, 'sendBatch').mockImplementation(async (batch) => {
    for (const m of batch) queued.push(m.body);
    return { metadata: { metrics: { backlogCount: 0, backlogBytes: 0 } } } as unknown as QueueSendBatchResponse;
  });
  return queued;
}

/** Delivers the queued emails through the `log` provider; answers what it recorded. */
async function deliverLogged(queued: unknown[]) {
  const logged = vi.spyOn(console, 'log').mockImplementation(() => {});
  await deliver('workspace-emails', queued.splice(0).map((body, i) => ({ id: `e${i}`, body })));
  const emails = logged.mock.calls.map((c) => String(c[0])).filter((line) => line.includes('email (log provider'));
  logged.mockRestore();
  return emails.map((line) => JSON.parse(line) as { subject: string; text: string; reply_to: string | null });
}

/** Money as Intl writes it in `locale`, for comparing with what the documents print. */
const money = (locale: string, minor: number) => new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' }).format(minor / 100);
const withoutNonces = (html: string) => html.replace(/nonce(="|-)[A-Za-z0-9+/=]+/g, 'nonce');

const pdfOf = async (url: string, init?: RequestInit) => (await pdfText(await (await open(url, init)).arrayBuffer())).flat().join('\n');

describe('documents in the workspace\'s language', () => {
  it('a de-DE invoice says Rechnung, Fällig, Zwischensumme, USt. and Zu zahlen on its page, in its PDF and in its email', async () => {
    const { owner, client } = await studio('de-DE');
    const queued = capturedEmails();
    const invoice = await createInvoice(owner.key, { client_id: client.id, line_items: [{ description: 'Gestaltung', quantity: 1, unit_amount: 123_456, tax_rate: 19 }] });
    const sent = (await call('POST', `/v1/invoices/${invoice.id}/send`, { key: owner.key })).body;

    const page = await (await open(sent.hosted_url)).text();
    expect(page).toContain('<html lang="de-DE">');
    for (const label of [`Rechnung ${invoice.number}`, 'Fällig', 'Zwischensumme', 'USt.', 'Zu zahlen', 'Einzelpreis', 'Zahlungshinweise', money('de-DE', 146_913)]) expect(page, label).toContain(label);
    for (const english of ['Subtotal', 'Amount due', 'Unit price', 'How to pay']) expect(page, english).not.toContain(english);

    const pdf = await pdfOf(sent.pdf_url);
    for (const label of [`Rechnung ${invoice.number}`, 'Fällig', 'Zwischensumme', 'USt.', 'Zu zahlen', 'ZAHLUNGSHINWEISE', 'Seite 1 von 1', money('de-DE', 146_913)]) expect(pdf, label).toContain(label);
    expect(pdf).not.toContain('Subtotal');

    const [email] = await deliverLogged(queued);
    expect(email!.subject).toBe(`Rechnung ${invoice.number} von Ada Studio GmbH`);
    expect(email!.text).toContain('Guten Tag Initech,');
    expect(email!.text).toContain(`Zu zahlen: ${money('de-DE', 146_913)}`);
    expect(email!.text).toContain('Fälligkeitsdatum:');
  });

  it('speaks French, Spanish, Italian, Dutch and Portuguese too, and English for any other language', async () => {
    const expected: Record<string, string[]> = {
      'fr-FR': ['Facture', 'Sous-total', 'Montant dû', 'TVA'],
      'es-ES': ['Factura', 'Subtotal', 'Importe pendiente', 'IVA'],
      'it-IT': ['Fattura', 'Subtotale', 'Importo dovuto', 'IVA'],
      'nl-NL': ['Factuur', 'Subtotaal', 'Te betalen', 'Btw'],
      'pt-BR': ['Fatura', 'Subtotal', 'Valor a pagar', 'IVA'],
      'ja-JP': ['Invoice', 'Subtotal', 'Amount due', 'Tax'],
    };
    const owner = await createUser('Owner');
    const client = await createClient(owner.key, { name: 'Initech', currency: 'USD' });
    for (const [locale, [invoiceWord, ...labels]] of Object.entries(expected)) {
      await call('PATCH', '/api/workspace', { key: owner.key, body: { locale } });
      const invoice = await createInvoice(owner.key, { client_id: client.id });
      const sent = (await call('POST', `/v1/invoices/${invoice.id}/send`, { key: owner.key, body: { email: false } })).body;
      const page = await (await open(sent.hosted_url)).text();
      expect(page, locale).toContain(`>${invoiceWord} ${invoice.number}<`);
      for (const label of labels) expect(page, `${locale}: ${label}`).toContain(`>${label}<`);
    }
  });

  it('shows a draft in the workspace\'s current language, in its preview and its PDF', async () => {
    const { owner, client } = await studio('de-DE');
    const draft = await createInvoice(owner.key, { client_id: client.id });
    expect((await call('GET', `/v1/invoices/${draft.id}/preview`, { key: owner.key })).body).toContain('Zwischensumme');
    await call('PATCH', '/api/workspace', { key: owner.key, body: { locale: 'fr-FR' } });
    expect((await call('GET', `/v1/invoices/${draft.id}/preview`, { key: owner.key })).body).toContain('Sous-total');
    const pdf = await pdfOf(`https://workspace.test/v1/invoices/${draft.id}/pdf`, { headers: { Authorization: `Bearer ${owner.key}` } });
    expect(pdf).toContain('BROUILLON');
    expect(pdf).toContain(`Facture ${draft.number}`);
  });
});

describe('a sent invoice reads the same forever', () => {
  it('keeps the locale and payment instructions it was sent with on its page, PDF and emails, whatever the workspace says later', async () => {
    const { owner, client } = await studio('de-DE');
    const queued = capturedEmails();
    const invoice = await createInvoice(owner.key, { client_id: client.id });
    const sent = (await call('POST', `/v1/invoices/${invoice.id}/send`, { key: owner.key })).body;
    const pageBefore = await (await open(sent.hosted_url)).text();

    const changed = await call('PATCH', '/api/workspace', { key: owner.key, body: { locale: 'en-US', payment_instructions: 'Pay by card at example.com' } });
    expect(changed.status).toBe(200);
    // The email queued at send goes out after the change, as it was written.
    const [email] = await deliverLogged(queued);
    expect(email!.subject).toBe(`Rechnung ${invoice.number} von Ada Studio GmbH`);
    expect(email!.text).toContain(money('de-DE', 100_000));

    const page = await (await open(sent.hosted_url)).text();
    expect(withoutNonces(page)).toBe(withoutNonces(pageBefore));
    for (const text of ['Zwischensumme', 'IBAN DE89 3704 0044 0532 0130 00', money('de-DE', 100_000)]) expect(page, text).toContain(text);
    for (const text of ['Subtotal', 'Pay by card', '$1,000.00']) expect(page, text).not.toContain(text);
    const pdf = await pdfOf(sent.pdf_url);
    expect(pdf).toContain('IBAN DE89 3704 0044 0532 0130 00');
    expect(pdf).toContain('Zwischensumme');
    expect(pdf).not.toContain('Pay by card');

    // A reminder the cron sends later speaks the same language.
    await call('PATCH', '/api/workspace', { key: owner.key, body: { reminders: { enabled: true, days_after_due: [1] } } });
    await env.DB.prepare('UPDATE invoices SET due_date = ?, issue_date = ? WHERE id = ?').bind('2026-01-10', '2026-01-01', invoice.id).run();
    const { queueReminders } = await import('../../src/modules/invoices/reminders');
    expect(await queueReminders(env)).toBe(1);
    const [reminder] = await deliverLogged(queued);
    expect(reminder!.subject).toBe(`Erinnerung: Rechnung ${invoice.number} von Ada Studio GmbH war am 10. Januar 2026 fällig`);
    expect(reminder!.text).toContain(`Zu zahlen: ${money('de-DE', 100_000)}`);

    // A draft made now shows the workspace as it is now.
    const draft = await createInvoice(owner.key, { client_id: client.id });
    const preview = (await call('GET', `/v1/invoices/${draft.id}/preview`, { key: owner.key })).body;
    expect(preview).toContain('Pay by card at example.com');
    expect(preview).toContain('Subtotal');
  });
});

describe('emails answer to the issuer', () => {
  it('carries reply_to: the issuer\'s email, in the http provider\'s body and in what the log provider records', async () => {
    const { owner, client } = await studio('fr-FR');
    const queued = capturedEmails();
    const invoice = await createInvoice(owner.key, { client_id: client.id });
    await call('POST', `/v1/invoices/${invoice.id}/send`, { key: owner.key });
    const body = queued[0];
    const [logged] = await deliverLogged(queued);
    expect(logged!.reply_to).toBe('billing@ada.example');
    expect(logged!.subject).toBe(`Facture ${invoice.number} de Ada Studio GmbH`);

    // Once more through the http provider (the same delivery, made due again).
    await env.DB.prepare(`UPDATE email_deliveries SET status = 'queued', next_attempt_at = ? WHERE invoice_id = ?`).bind(new Date(Date.now() - 1000).toISOString(), invoice.id).run();
    const posted: any[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      posted.push(await new Request(input as RequestInfo, init).json());
      return Response.json({ id: 'msg_1' });
    });
    const { consumeEmails } = await import('../../src/modules/emails/consumer');
    const httpEnv = { ...env, EMAIL_PROVIDER: 'http', EMAIL_API_URL: 'https://mail.example.com/send', EMAIL_API_KEY: 'mk_test', EMAIL_FROM: 'Ada <billing@ada.example>' };
    const messages = [{ id: 'm1', body, attempts: 1, timestamp: new Date(), ack() {}, retry() {} }];
    await consumeEmails({ queue: 'workspace-emails', messages, ackAll() {}, retryAll() {} } as unknown as MessageBatch<unknown>, httpEnv as Env);
    expect(posted).toHaveLength(1);
    expect(posted[0]).toMatchObject({ reply_to: 'billing@ada.example', to: ['ap@initech.example'], subject: `Facture ${invoice.number} de Ada Studio GmbH` });
    expect(posted[0].text).toContain(`Montant dû: ${money('fr-FR', 100_000)}`);
  });
});

describe('bounded work for long text', () => {
  it('wraps a line in one pass over its text: over-long words are cut as their width grows, never measured again from the start', async () => {
    const { wrap } = await import('../../src/renderer/pdf');
    // Every character 6 units wide at size 10; the line holds 50 of them.
    let measured = 0;
    const measure = (text: string, size: number) => {
      measured += text.length;
      return (text.length * 6 * size) / 10;
    };
    for (const text of ['x'.repeat(5_000), `short words then ${'y'.repeat(5_000)} and ${'z'.repeat(777)} more`, 'ab '.repeat(2_000)]) {
      measured = 0;
      const lines = wrap(text, measure, 10, 300);
      expect(measured, text.slice(0, 20)).toBeLessThanOrEqual(3 * text.length);
      expect(lines.every((line) => line.length <= 50)).toBe(true);
      expect(lines.join(' ').replace(/ /g, '')).toBe(text.replace(/ /g, ''));
    }
    expect(wrap('x'.repeat(120), measure, 10, 300)).toEqual(['x'.repeat(50), 'x'.repeat(50), 'x'.repeat(20)]);
    expect(wrap('ab cd', measure, 10, 300)).toEqual(['ab cd']);
    expect(wrap('', measure, 10, 300)).toEqual(['']);
  });

  it('prints every character of 100 lines of 500-character unbroken words and 5,000 characters of notes', async () => {
    const owner = await createUser('Owner');
    const client = await createClient(owner.key, { name: 'Initech', currency: 'USD' });
    const word = (i: number) => 'abcdefghij'.slice(i % 10) + 'abcdefghij'.repeat(49) + 'abcdefghij'.slice(0, i % 10);
    const notes = 'klmnopqrst'.repeat(500);
    const invoice = await createInvoice(owner.key, {
      client_id: client.id, notes, line_items: Array.from({ length: 100 }, (_, i) => ({ description: word(i), quantity: 1, unit_amount: 100 })),
    });
    const sent = (await call('POST', `/v1/invoices/${invoice.id}/send`, { key: owner.key, body: { email: false } })).body;
    const strings = (await pdfText(await (await open(sent.pdf_url)).arrayBuffer())).flat();
    // Each line's word, cut over several lines of the table, and the notes over several more.
    expect(strings.filter((s) => /^[a-j]+$/.test(s)).join('\n').split('\n').join('')).toBe(Array.from({ length: 100 }, (_, i) => word(i)).join(''));
    expect(strings.filter((s) => /^[k-t]+$/.test(s)).join('\n').split('\n').join('')).toBe(notes);
    const page = await (await open(sent.hosted_url)).text();
    expect(page).toContain(notes);
    expect(page).toContain(word(99));
  }, 60_000);
});
