// §20 "Tax notes": a reverse-charge invoice says so in its client's language, in the very words the
// contract quotes, on the page a person reads and as BT-120 in the XML, for each of the seven languages.
import { describe, expect, it } from 'vitest';
import { call, open } from '../helpers/api';
import { createClient, createUser } from '../helpers/factories';

const REVERSE_CHARGE: Record<string, string> = {
  'en-GB': 'Reverse charge', 'de-DE': 'Steuerschuldnerschaft des Leistungsempfängers', 'fr-FR': 'Autoliquidation',
  'es-ES': 'Inversión del sujeto pasivo', 'it-IT': 'Inversione contabile', 'nl-NL': 'Btw verlegd', 'pt-PT': 'Autoliquidação',
};

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&amp;/g, '&').replace(/\s+/g, ' ');

describe('the reverse-charge note', () => {
  it('is printed and carried in the client\'s language, in the contract\'s words', async () => {
    const owner = await createUser('Owner');
    const issuer = { legal_name: 'Ada Studio GmbH', address: { line1: 'Hauptstraße 1', city: 'Berlin', postal_code: '10115', country: 'DE' }, vat_id: 'DE123456789' };
    expect((await call('PATCH', '/api/workspace', { key: owner.key, body: { issuer } })).status).toBe(200);
    for (const [locale, phrase] of Object.entries(REVERSE_CHARGE)) {
      const client = await createClient(owner.key, {
        name: 'Accounts', company: 'Buyer SA', currency: 'EUR', vat_id: 'FR12345678901', locale,
        address: { line1: '1 rue de la Paix', city: 'Paris', postal_code: '75002', country: 'FR' },
      });
      const draft = await call('POST', '/v1/invoices', { key: owner.key, body: { client_id: client.id, line_items: [{ description: 'Design', quantity: 1, unit_amount: 100_000, tax_category: 'AE', tax_rate: 0 }] } });
      expect(draft.status, JSON.stringify(draft.body)).toBe(201);
      const sent = (await call('POST', `/v1/invoices/${draft.body.id}/send`, { key: owner.key, body: { email: false } })).body;
      expect(sent.locale).toBe(locale);
      expect(text(await (await open(sent.hosted_url)).text()), locale).toContain(phrase);
      const xml = await (await open(`${sent.hosted_url}/invoice.xml?format=cii`)).text();
      expect(xml, locale).toContain(`<ram:ExemptionReason>${phrase}</ram:ExemptionReason>`);
    }
  });
});
