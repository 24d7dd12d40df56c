// §20 "Tax notes": the default notes of O and Z in the words their sources give (see
// src/modules/documents/tax-notes.ts): an invoice outside the scope of VAT says "Operación no sujeta" in
// Spanish (the AEAT's words) and "Niet aan btw onderworpen" in Dutch (the Directive's art. 3 (1)), printed
// and as BT-120; a zero-rated one prints "Nullsteuersatz" in German (the BMF's name of the 0 % rate),
// "Tipo del 0 %" in Spanish (Real Decreto-ley 20/2022 art. 72), "Taux de 0 %" in French (CGI art. 278 ter, the
// BOFiP), "0%-tarief" in Dutch (the Belastingdienst) and in Italian the words of D.L. 34/2020 art. 124 c. 2 for
// a zero-rated supply, and carries no reason in the XML (BR-Z-10).
import { describe, expect, it } from 'vitest';
import { call, open } from '../helpers/api';
import { createClient, createUser } from '../helpers/factories';

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&#39;/g, "'").replace(/&amp;/g, '&').replace(/\s+/g, ' ');

const CASES = [
  { locale: 'es-ES', category: 'O', phrase: 'Operación no sujeta', inXml: true, number: { tax_id: '27/123/45678', registration_id: 'HRB 123456 B' }, address: { line1: '1 Main St', city: 'Springfield', region: 'IL', postal_code: '62704', country: 'US' } },
  { locale: 'nl-NL', category: 'O', phrase: 'Niet aan btw onderworpen', inXml: true, number: { tax_id: '27/123/45678', registration_id: 'HRB 123456 B' }, address: { line1: '1 Main St', city: 'Springfield', region: 'IL', postal_code: '62704', country: 'US' } },
  { locale: 'de-DE', category: 'Z', phrase: 'Nullsteuersatz', inXml: false, number: { vat_id: 'DE123456789' }, address: { line1: 'Jungfernstieg 7', city: 'Hamburg', postal_code: '20354', country: 'DE' } },
  { locale: 'es-ES', category: 'Z', phrase: 'Tipo del 0 %', inXml: false, number: { vat_id: 'DE123456789' }, address: { line1: 'Jungfernstieg 7', city: 'Hamburg', postal_code: '20354', country: 'DE' } },
  { locale: 'fr-FR', category: 'Z', phrase: 'Taux de 0 %', inXml: false, number: { vat_id: 'DE123456789' }, address: { line1: 'Jungfernstieg 7', city: 'Hamburg', postal_code: '20354', country: 'DE' } },
  { locale: 'it-IT', category: 'Z', phrase: "Esente dall'imposta sul valore aggiunto, con diritto alla detrazione dell'imposta", inXml: false, number: { vat_id: 'DE123456789' }, address: { line1: 'Jungfernstieg 7', city: 'Hamburg', postal_code: '20354', country: 'DE' } },
  { locale: 'nl-NL', category: 'Z', phrase: '0%-tarief', inXml: false, number: { vat_id: 'DE123456789' }, address: { line1: 'Jungfernstieg 7', city: 'Hamburg', postal_code: '20354', country: 'DE' } },
] as const;

describe('the default notes of O and Z', () => {
  it('are printed in the words their sources give, and carried where the rules allow', async () => {
    const owner = await createUser('Owner');
    for (const { locale, category, phrase, inXml, address, number } of CASES) {
      // BR-O-02 keeps the VAT id off an O invoice, which then names the register's number (BR-CO-26).
      const issuer = { legal_name: 'Ada Studio GmbH', address: { line1: 'Hauptstraße 1', city: 'Berlin', postal_code: '10115', country: 'DE' }, ...number };
      expect((await call('PATCH', '/api/workspace', { key: owner.key, body: { issuer } })).status).toBe(200);
      const client = await createClient(owner.key, { name: 'Accounts', company: 'Buyer Ltd', currency: 'EUR', locale, address });
      const draft = await call('POST', '/v1/invoices', { key: owner.key, body: { client_id: client.id, line_items: [{ description: 'Design', quantity: 1, unit_amount: 100_000, tax_category: category, tax_rate: 0 }] } });
      expect(draft.status, JSON.stringify(draft.body)).toBe(201);
      const sent = (await call('POST', `/v1/invoices/${draft.body.id}/send`, { key: owner.key, body: { email: false } })).body;
      expect(sent.locale).toBe(locale);
      expect(text(await (await open(sent.hosted_url)).text()), locale).toContain(phrase);
      const xml = await (await open(`${sent.hosted_url}/invoice.xml?format=cii`)).text();
      if (inXml) expect(xml, locale).toContain(`<ram:ExemptionReason>${phrase}</ram:ExemptionReason>`);
      else expect(xml, locale).not.toContain('<ram:ExemptionReason>');
    }
  });
});
