// Documents in the client's language (§20): a client's locale (checked, canonical, null for the
// workspace's) is what its invoices, quotes and credit notes are read in, fixed when they are sent;
// everything a person reads there follows it: the page, the PDF, the emails, the Pay panel, the
// quote's forms, the lines the service writes with their dates, and the titles (Rechnungskorrektur,
// Avoir, Factura rectificativa; a quote's recipient, never "Bill to"). A locale outside the seven
// languages reads English with its own dates.
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { call, errorPaths, expectError, open } from '../helpers/api';
import { createClient, createProject, createUser } from '../helpers/factories';
import { pdfText } from '../helpers/pdf-text';
import { deliver } from '../helpers/worker';

afterEach(() => vi.restoreAllMocks());

/** What a person reads on a page: its text without tags, entities decoded, spaces collapsed. */
const textOf = (html: string) =>
  html
    .replace(/<(style|script)[^>]*>[\s\S]*?<\/\1>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
const pageText = async (url: string) => textOf(await (await open(url)).text());
const pdfOf = async (url: string) => (await pdfText(await (await open(url)).arrayBuffer())).flat().join('\n');
/** A calendar date as a from-time line writes it in `locale`. */
const day = (locale: string, date: string) => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));
/** A calendar date as the documents print it in `locale`. */
const longDay = (locale: string, date: string) => new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));

/** A German workspace that takes payments through the sandbox. */
async function germanStudio() {
  const owner = await createUser('Owner');
  const settings = await call('PATCH', '/api/workspace', { key: owner.key, body: { locale: 'de-DE', issuer: { legal_name: 'Ada Studio GmbH', email: 'billing@ada.example' } } });
  expect(settings.status).toBe(200);
  expect((await call('PUT', '/api/workspace/payment-provider', { key: owner.key, body: { provider: 'sandbox' } })).status).toBe(200);
  return owner;
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
  return emails.map((line) => JSON.parse(line) as { subject: string; text: string });
}

describe('a client\'s locale', () => {
  it('is a locale the runtime knows, kept in its canonical spelling; null is the workspace\'s; an unknown one is a 422 naming the field', async () => {
    const owner = await createUser('Owner');
    const client = await createClient(owner.key, { locale: 'fr-fr' });
    expect(client.locale).toBe('fr-FR');
    expect((await createClient(owner.key)).locale).toBeNull();
    for (const locale of ['xx-XX', 'not a locale', 'de_DE', '']) {
      const res = await call('POST', '/v1/clients', { key: owner.key, body: { name: 'Zed', locale } });
      expectError(res, 422, 'validation_failed');
      expect(errorPaths(res)).toEqual(['locale']);
    }
    expectError(await call('PATCH', `/v1/clients/${client.id}`, { key: owner.key, body: { locale: 'zz' } }), 422, 'validation_failed');
    expect((await call('PATCH', `/v1/clients/${client.id}`, { key: owner.key, body: { locale: null } })).body.locale).toBeNull();
    const bad = await call('POST', '/v1/invoices', { key: owner.key, body: { client_id: client.id, line_items: [{ description: 'x', quantity: 1, unit_amount: 100 }], locale: 'xx' } });
    expect(errorPaths(bad)).toEqual(['locale']);
  });

  it('is the default of a draft until it is sent, a draft may have its own, and sending fixes the one it reads in', async () => {
    const owner = await germanStudio();
    const client = await createClient(owner.key, { name: 'Client SARL', locale: 'fr-FR' });
    const line = [{ description: 'Conseil', quantity: 1, unit_amount: 10_000 }];
    const draft = (await call('POST', '/v1/invoices', { key: owner.key, body: { client_id: client.id, line_items: line } })).body;
    expect(draft.locale).toBeNull();
    expect(textOf((await call('GET', `/v1/invoices/${draft.id}/preview`, { key: owner.key })).body)).toContain('Sous-total');
    // Its own, while a draft; then back to following the client.
    const italian = (await call('PATCH', `/v1/invoices/${draft.id}`, { key: owner.key, body: { locale: 'it-IT' } })).body;
    expect(italian.locale).toBe('it-IT');
    expect(textOf((await call('GET', `/v1/invoices/${draft.id}/preview`, { key: owner.key })).body)).toContain('Subtotale');
    expect((await call('PATCH', `/v1/invoices/${draft.id}`, { key: owner.key, body: { locale: null } })).body.locale).toBeNull();
    const sent = (await call('POST', `/v1/invoices/${draft.id}/send`, { key: owner.key, body: { email: false } })).body;
    expect(sent.locale).toBe('fr-FR');
    // The client's later change leaves the sent invoice as it was.
    await call('PATCH', `/v1/clients/${client.id}`, { key: owner.key, body: { locale: 'nl-NL' } });
    expect(await pageText(sent.hosted_url)).toContain(`Facture ${sent.number}`);
    // A credit note speaks its invoice's language unless given its own.
    const note = (await call('POST', `/v1/invoices/${sent.id}/credit-notes`, { key: owner.key, body: { reason: 'other', email: false, lines: [{ description: 'Geste', quantity: 1, unit_amount: 1_000, tax_rate: 0 }] } })).body;
    expect(note.locale).toBe('fr-FR');
    const own = (await call('POST', `/v1/invoices/${sent.id}/credit-notes`, { key: owner.key, body: { reason: 'other', email: false, locale: 'es-ES', lines: [{ description: 'Gesto', quantity: 1, unit_amount: 1_000, tax_rate: 0 }] } })).body;
    expect(own.locale).toBe('es-ES');
    expect(await pageText(note.hosted_url)).toContain(`Avoir ${note.number}`);
    expect(await pageText(own.hosted_url)).toContain(`Factura rectificativa ${own.number}`);
    // A quote follows its client too, and is fixed when sent.
    const quote = (await call('POST', '/v1/quotes', { key: owner.key, body: { client_id: client.id, line_items: line } })).body;
    expect(quote.locale).toBeNull();
    expect((await call('POST', `/v1/quotes/${quote.id}/send`, { key: owner.key, body: { email: false } })).body.locale).toBe('nl-NL');
  });
});

describe('a document in its language', () => {
  // Per language: the title, the overdue banner, the Pay button, the credit note's title, and a
  // from-time line with its date; sv-SE reads English with Swedish dates.
  const LANGUAGES = [
    { locale: 'de-DE', title: 'Rechnung', banner: 'Überfällig', pay: 'online bezahlen', credit: 'Rechnungskorrektur', english: false },
    { locale: 'fr-FR', title: 'Facture', banner: 'En retard', pay: 'en ligne', credit: 'Avoir', english: false },
    { locale: 'es-ES', title: 'Factura', banner: 'Vencida', pay: 'en línea', credit: 'Factura rectificativa', english: false },
    { locale: 'sv-SE', title: 'Invoice', banner: 'Overdue', pay: 'online', credit: 'Credit note', english: true },
  ];

  it.each(LANGUAGES)('$locale: the page and the PDF say it all in that language', async ({ locale, title, banner, pay, credit, english }) => {
    const owner = await germanStudio();
    const client = await createClient(owner.key, { name: 'Initech', locale });
    const project = await createProject(owner.key, { name: 'Relaunch', client_id: client.id, hourly_rate: 10_000 });
    const entry = await call('POST', '/v1/time-entries', { key: owner.key, body: { project_id: project.id, spent_date: '2020-01-05', duration_seconds: 3_600 } });
    expect(entry.status).toBe(201);
    const draft = await call('POST', '/v1/invoices/from-time', { key: owner.key, body: { client_id: client.id, issue_date: '2020-01-10', due_date: '2020-02-09' } });
    expect(draft.status, JSON.stringify(draft.body)).toBe(201);
    const line = `Relaunch, ${day(locale, '2020-01-05')}`;
    expect(draft.body.line_items[0].description).toBe(line);
    const invoice = (await call('POST', `/v1/invoices/${draft.body.id}/send`, { key: owner.key, body: { email: false } })).body;

    const page = await pageText(invoice.hosted_url);
    for (const words of [`${title} ${invoice.number}`, banner, pay, line, longDay(locale, '2020-02-09')]) expect(page, words).toContain(words);
    if (english) expect(longDay(locale, '2020-02-09')).toBe('9 februari 2020');
    else expect(page).not.toMatch(/Amount due|Unit price|Pay .* online/);
    const pdf = await pdfOf(invoice.pdf_url);
    for (const words of [`${title} ${invoice.number}`, banner, line]) expect(pdf, words).toContain(words);

    const note = (await call('POST', `/v1/invoices/${invoice.id}/credit-notes`, { key: owner.key, body: { reason: 'duplicate', email: false } })).body;
    expect(await pageText(note.hosted_url)).toContain(`${credit} ${note.number}`);
    expect(await pdfOf(note.pdf_url)).toContain(`${credit} ${note.number}`);
  });

  it('a French client\'s invoice email, Pay panel and receipt are French while the workspace is German; the thank-you lasts until the payment is recorded', async () => {
    const owner = await germanStudio();
    const client = await createClient(owner.key, { name: 'Client SARL', email: 'compta@client.example', locale: 'fr-FR', currency: 'EUR' });
    const queued = capturedEmails();
    const draft = (await call('POST', '/v1/invoices', { key: owner.key, body: { client_id: client.id, line_items: [{ description: 'Conseil', quantity: 1, unit_amount: 50_000 }] } })).body;
    const invoice = (await call('POST', `/v1/invoices/${draft.id}/send`, { key: owner.key })).body;
    const [email] = await deliverLogged(queued);
    expect(email!.subject).toBe(`Facture ${invoice.number} de Ada Studio GmbH`);
    expect(email!.text).toContain('Bonjour Client SARL,');
    expect(email!.text).toContain('Montant dû');
    expect(email!.text).not.toMatch(/Rechnung|Amount due/);

    const press = await open(`${invoice.hosted_url}/pay`, { method: 'POST', redirect: 'manual' });
    expect(press.status).toBe(303);
    const checkout = press.headers.get('Location')!;
    // Back from the checkout before the payment is recorded: it is on its way.
    expect(await pageText(`${invoice.hosted_url}?payment=success`)).toContain('Merci : votre paiement a bien été reçu.');
    const paid = await open(checkout, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'outcome=pay', redirect: 'manual' });
    expect(paid.status).toBe(303);
    // Recorded: the page says the invoice is paid, not that the payment is on its way.
    const after = await pageText(`${invoice.hosted_url}?payment=success`);
    expect(after).toContain('Merci : cette facture est payée.');
    expect(after).not.toContain('votre paiement a bien été reçu');
    expect(after).toContain('PAYÉE');
    const [receipt] = await deliverLogged(queued);
    const euros = (minor: number) => new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' }).format(minor / 100);
    expect(receipt!.subject).toBe(`[MODE TEST] Reçu : ${euros(50_000)} payés sur la facture ${invoice.number} de Ada Studio GmbH`);
    expect(receipt!.text).toContain(`Reste à payer: ${euros(0)}`);
    expect(receipt!.text).toContain(`Payé le: ${longDay('fr-FR', new Date().toISOString().slice(0, 10))}`);
  });

  it('a quote names its client as recipient, and its forms, outcome and refusals speak the client\'s language', async () => {
    const owner = await germanStudio();
    const line = [{ description: 'Atelier', quantity: 1, unit_amount: 80_000 }];
    const sentQuote = async (locale: string | null) => {
      const client = await createClient(owner.key, { name: 'Initech', locale });
      const quote = (await call('POST', '/v1/quotes', { key: owner.key, body: { client_id: client.id, line_items: line } })).body;
      return (await call('POST', `/v1/quotes/${quote.id}/send`, { key: owner.key, body: { email: false } })).body;
    };
    const french = await sentQuote('fr-FR');
    const page = await pageText(french.hosted_url);
    for (const words of [`Devis ${french.number}`, 'Client Initech', 'Accepter ce devis', "J'accepte ce devis", 'Refuser ce devis', 'Motif']) expect(page, words).toContain(words);
    expect(page).not.toMatch(/Facturé à|Accept this quote/);
    expect(await pdfOf(french.pdf_url)).toContain('CLIENT');
    const forged = await open(`${french.hosted_url}/accept`, { method: 'POST', headers: { 'Sec-Fetch-Site': 'cross-site', 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'name=Eve&agree=yes' });
    expect(forged.status).toBe(403);
    expect(await forged.text()).toBe('Cette réponse doit être donnée sur la page du devis.');
    const accepted = await open(`${french.hosted_url}/accept`, { method: 'POST', headers: { 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'name=Jeanne%20Martin&agree=yes', redirect: 'manual' });
    expect(accepted.status).toBe(303);
    expect(await pageText(french.hosted_url)).toContain('Accepté par Jeanne Martin le');

    // The workspace's German, for a client with no locale of its own: Empfänger, never Rechnungsempfänger.
    const german = await sentQuote(null);
    const germanPage = await pageText(german.hosted_url);
    expect(germanPage).toContain('Empfänger Initech');
    expect(germanPage).toContain('Angebot annehmen');
    expect(germanPage).not.toContain('Rechnungsempfänger');
    const germanPdf = await pdfOf(german.pdf_url);
    expect(germanPdf).toContain('EMPFÄNGER');
    expect(germanPdf).not.toContain('RECHNUNGSEMPFÄNGER');
  });
});
