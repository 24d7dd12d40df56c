// §20 "What is checked": for each language × tax situation, the text of the Factur-X PDF (as a
// PDF-to-text tool reads it) and of the hosted page contain every identifier, note, date, discount and
// amount the embedded XML carries, and the XML (the embedded CII and the UBL) passes the EN 16931 rules
// with no fatal line. Each case is built once (one invoice, sent) and its page, PDF and XML all read; the
// seven languages share nothing but the code, each its own workspace. The tax notes (AE, K, G, a small
// business's E) and the issuer's number labels are checked in the exact words their sources give.
import { decodePDFRawStream, PDFDict, PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { formatMoney } from '../../src/lib/money';
import { validateEInvoice } from '../../src/modules/documents/einvoice/rules';
import { countryName } from '../../src/modules/documents/render/address';
import { formatDate } from '../../src/modules/documents/render/printed';
import { call, open } from '../helpers/api';
import { createClient, createUser } from '../helpers/factories';
import { pdfText } from '../helpers/pdf-text';

const LOCALES = { de: 'de-DE', fr: 'fr-FR', en: 'en-US', es: 'es-ES', it: 'it-IT', nl: 'nl-NL', pt: 'pt-PT' } as const;
type Language = keyof typeof LOCALES;
const LANGUAGES = Object.keys(LOCALES) as Language[];

const ISSUER = {
  legal_name: 'Ada Studio GmbH', email: 'billing@ada.example',
  address: { line1: 'Hauptstraße 1', city: 'Berlin', postal_code: '10115', country: 'DE' },
  vat_id: 'DE123456789', tax_id: '27/123/45678', registration_id: 'HRB 123456 B', peppol_id: '9930:DE123456789',
  iban: 'DE89370400440532013000', bic: 'COBADEFFXXX',
  legal_notes: {
    de: 'Geschäftsführerin: Ada Lovelace, Amtsgericht Charlottenburg',
    fr: 'Pénalités de retard : trois fois le taux légal. Indemnité forfaitaire pour frais de recouvrement : 40 €',
    en: 'Registered in Berlin, Germany',
    es: 'Domicilio social: Berlín (Alemania)',
    it: 'Sede legale: Berlino (Germania)',
    nl: 'Statutaire zetel: Berlijn (Duitsland)',
    pt: 'Sede: Berlim (Alemanha)',
  } satisfies Record<Language, string>,
};
const PAYMENT: Record<Language, string> = {
  de: 'Bitte innerhalb von 14 Tagen überweisen.', fr: 'Virement sous 14 jours.', en: 'Bank transfer within 14 days.',
  es: 'Transferencia en un plazo de 14 días.', it: 'Bonifico entro 14 giorni.', nl: 'Overmaken binnen 14 dagen.', pt: 'Transferência no prazo de 14 dias.',
};
const LOYALTY: Record<Language, string> = { de: 'Treuerabatt', fr: 'Remise fidélité', en: 'Loyalty', es: 'Descuento por fidelidad', it: 'Sconto fedeltà', nl: 'Klantkorting', pt: 'Desconto de fidelização' };

// The phrases the documents print (and BT-120 carries), written out as their sources give them (see
// src/modules/documents/tax-notes.ts): AE in the VAT Directive's art. 226 (11a) words; K and G citing the
// Directive's art. 138(1) and 146; the German small business's note, § 19 UStG in German (the contract's
// words) and English, the Directive's art. 284 note in the languages § 19 has none in.
const NOTES: Record<'AE' | 'K' | 'G' | 'smallBusiness', Record<Language, string>> = {
  AE: {
    de: 'Steuerschuldnerschaft des Leistungsempfängers', fr: 'Autoliquidation', en: 'Reverse charge', es: 'Inversión del sujeto pasivo',
    it: 'Inversione contabile', nl: 'Btw verlegd', pt: 'Autoliquidação',
  },
  K: {
    de: 'Steuerfreie innergemeinschaftliche Lieferung (Art. 138 Abs. 1 der Richtlinie 2006/112/EG)',
    fr: 'Livraison intracommunautaire exonérée de TVA (article 138, paragraphe 1, de la directive 2006/112/CE)',
    en: 'Exempt intra-Community supply (Article 138(1) of Directive 2006/112/EC)',
    es: 'Entrega intracomunitaria exenta (artículo 138, apartado 1, de la Directiva 2006/112/CE)',
    it: 'Operazione non imponibile, cessione intracomunitaria (articolo 138, paragrafo 1, della direttiva 2006/112/CE)',
    nl: 'Intracommunautaire levering (artikel 138, lid 1, van Richtlijn 2006/112/EG)',
    pt: 'Transmissão intracomunitária isenta (artigo 138.º, n.º 1, da Diretiva 2006/112/CE)',
  },
  G: {
    de: 'Steuerfreie Ausfuhrlieferung (Art. 146 der Richtlinie 2006/112/EG)',
    fr: 'Exportation exonérée de TVA (article 146 de la directive 2006/112/CE)',
    en: 'Exempt export outside the EU (Article 146 of Directive 2006/112/EC)',
    es: 'Exportación exenta (artículo 146 de la Directiva 2006/112/CE)',
    it: 'Operazione non imponibile, esportazione (articolo 146 della direttiva 2006/112/CE)',
    nl: 'Uitvoer buiten de EU (artikel 146 van Richtlijn 2006/112/EG)',
    pt: 'Exportação isenta (artigo 146.º da Diretiva 2006/112/CE)',
  },
  smallBusiness: {
    de: 'Gemäß § 19 UStG wird keine Umsatzsteuer berechnet.',
    en: 'No VAT is charged under § 19 UStG (special scheme for small enterprises).',
    fr: 'Franchise de TVA : régime particulier des petites entreprises (article 284 de la directive 2006/112/CE).',
    es: 'Franquicia del IVA: régimen especial de las pequeñas empresas (artículo 284 de la Directiva 2006/112/CE).',
    it: 'Franchigia IVA: regime speciale delle piccole imprese (articolo 284 della direttiva 2006/112/CE).',
    nl: 'Vrijgesteld van btw: bijzondere regeling voor kleine ondernemingen (artikel 284 van Richtlijn 2006/112/EG).',
    pt: 'Isento de IVA: regime especial das pequenas empresas (artigo 284.º da Diretiva 2006/112/CE).',
  },
};
/** The issuer's numbers as each language labels them (§20 "Parties"). */
const NUMBER_LABELS: Record<Language, [vatId: string, taxNumber: string, registrationId: string]> = {
  de: ['USt-IdNr.', 'Steuernummer', 'Registernummer'], fr: ['N° TVA', 'N° fiscal', 'Immatriculation'], en: ['VAT No.', 'Tax ID', 'Registration No.'],
  es: ['NIF-IVA', 'NIF', 'Inscripción en el Registro Mercantil'], it: ['Partita IVA', 'Codice fiscale', 'N. registro imprese'], nl: ['Btw-id', 'Fiscaal registratienummer', 'Handelsregisternummer'],
  pt: ['N.º de identificação para efeitos de IVA', 'NIF', 'N.º de matrícula'],
};

const CLIENTS = {
  DE: { name: 'Peter Gibbons', company: 'Initech GmbH', email: 'ap@initech.example', currency: 'EUR', vat_id: 'DE987654321', peppol_id: '9930:DE987654321', buyer_reference: 'LW-04011000-1234512345-06', address: { line1: 'Jungfernstieg 7', city: 'Hamburg', postal_code: '20354', country: 'DE' } },
  FR: { name: 'Claire Dubois', company: 'Dubois SARL', email: 'compta@dubois.example', currency: 'EUR', vat_id: 'FR12345678901', peppol_id: '9957:FR12345678901', buyer_reference: 'CMD-2026', address: { line1: '1 rue de la Paix', city: 'Paris', postal_code: '75002', country: 'FR' } },
  US: { name: 'Bill Lumbergh', company: 'Initrode Inc.', email: 'ap@initrode.example', currency: 'EUR', peppol_id: '0060:123456789', buyer_reference: 'AP-2231', address: { line1: '1 Main St', city: 'Springfield', region: 'IL', postal_code: '62704', country: 'US' } },
};

type Situation = {
  client: keyof typeof CLIENTS; body: (language: Language) => Record<string, unknown>; note?: keyof typeof NOTES;
  /** Sent by the issuer as a small business (issuer.small_business), whose untaxed lines take E with its note. */
  smallBusiness?: true;
};
const SITUATIONS: Record<string, Situation> = {
  'domestic 19 %': {
    client: 'DE',
    body: (l) => ({
      line_items: [
        { description: 'Gestaltung', quantity: 1.5, unit: 'HUR', unit_amount: 12_000, tax_rate: 19, discount_percent: 10 },
        { description: 'Hosting', quantity: 1, unit: 'MON', unit_amount: 5_000, tax_rate: 19 },
      ],
      discount: { percent: 5, reason: LOYALTY[l] },
      service_date: '2026-03-02',
    }),
  },
  'reverse charge to an EU business': {
    client: 'FR',
    body: () => ({ line_items: [{ description: 'Consulting', quantity: 8, unit: 'HUR', unit_amount: 9_500, tax_category: 'AE', tax_rate: 0 }], service_period: { start: '2026-03-01', end: '2026-03-31' } }),
    note: 'AE',
  },
  'intra-community goods (K)': {
    client: 'FR',
    body: () => ({ line_items: [{ description: 'Printed books', quantity: 40, unit: 'C62', unit_amount: 1_250, tax_category: 'K', tax_rate: 0 }] }),
    note: 'K',
  },
  'export outside the EU': {
    client: 'US',
    body: () => ({ line_items: [{ description: 'Poster prints', quantity: 3, unit_amount: 4_000, tax_category: 'G', tax_rate: 0 }], purchase_order: 'PO-77' }),
    note: 'G',
  },
  'small business (E)': {
    client: 'DE',
    body: () => ({ line_items: [{ description: 'Workshop', quantity: 1, unit_amount: 60_000 }] }),
    note: 'smallBusiness',
    smallBusiness: true,
  },
  'mixed rates': {
    client: 'DE',
    body: (l) => ({
      line_items: [
        { description: 'Design', quantity: 2, unit: 'HUR', unit_amount: 10_000, tax_rate: 19 },
        { description: 'Book', quantity: 3, unit_amount: 2_999, tax_rate: 7, discount_percent: 12.5 },
      ],
      discount: { amount: 5_400, reason: LOYALTY[l] },
    }),
  },
};

/** The XML file a Factur-X PDF embeds. */
async function embeddedXml(bytes: ArrayBuffer): Promise<string> {
  const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
  for (const [, object] of pdf.context.enumerateIndirectObjects()) {
    if (object instanceof PDFRawStream && (object.dict as PDFDict).get(PDFName.of('Type')) === PDFName.of('EmbeddedFile')) {
      return new TextDecoder().decode(decodePDFRawStream(object).decode());
    }
  }
  throw new Error('no embedded file');
}

const unescape = (text: string) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
/** Spaces of every width as one, so "1 234,56 €" (narrow no-break space) reads the same everywhere. */
const flat = (text: string) => text.replace(/[\s\u00a0\u202f]+/g, ' ');

/**
 * What a person must find printed for each leaf of the CII: amounts formatted in the document's locale and
 * currency, dates as the locale writes them, quantities and rates as its numbers, country codes as names,
 * and every text (ids, names, notes, reasons, addresses) as it is. Codes the standard defines for machines
 * (type codes, category and unit codes, schemes, the guideline, line positions) are not printed. An amount
 * may print negated, as a discount does ("€ -18,00" in Dutch, where the minus follows the symbol).
 */
type Expected = { text: string; negated?: string };
function expectedTexts(xml: string, locale: string, currency: string): Expected[] {
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 3 });
  const expected = new Map<string, Expected>();
  const add = (text: string, negated?: string) => expected.set(flat(text), { text: flat(text), negated: negated === undefined ? undefined : flat(negated) });
  const MONEY = /^(ChargeAmount|ActualAmount|LineTotalAmount|BasisAmount|CalculatedAmount|TaxBasisTotalAmount|TaxTotalAmount|GrandTotalAmount|DuePayableAmount|TotalPrepaidAmount|AllowanceTotalAmount)$/;
  const TEXT = /^(Name|PersonName|ID|IBANID|BICID|URIID|Content|ExemptionReason|Reason|Description|PaymentReference|BuyerReference|IssuerAssignedID|LineOne|LineTwo|CityName|PostcodeCode|CountrySubDivisionName)$/;
  const SKIP_PARENTS = /GuidelineSpecifiedDocumentContextParameter|AssociatedDocumentLineDocument/;
  for (const match of xml.matchAll(/<(?:ram|udt):(\w+)((?: [^>]*)?)>([^<]+)<\/(?:ram|udt):\1>/g)) {
    const [whole, tag, , raw] = match as unknown as [string, string, string, string];
    const value = unescape(raw).trim();
    const before = xml.slice(Math.max(0, match.index! - 200), match.index!);
    const parent = before.slice(before.lastIndexOf('<ram:')).split(/[ >]/)[0];
    if (parent && SKIP_PARENTS.test(parent)) continue;
    if (MONEY.test(tag)) {
      const cents = Math.round(Number(value) * 100);
      add(formatMoney(cents, currency, locale), formatMoney(-cents, currency, locale));
    }
    else if (tag === 'DateTimeString') add(formatDate(`${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}`, locale));
    else if (tag === 'BilledQuantity' || tag === 'RateApplicablePercent') add(number.format(Number(value)));
    else if (tag === 'CountryID') add(countryName(value, locale));
    else if (TEXT.test(tag)) add(value);
    else if (!/^(TypeCode|CategoryCode|ReasonCode|InvoiceCurrencyCode|Indicator|ExemptionReasonCode|LineID)$/.test(tag)) throw new Error(`a leaf this check does not know: ${whole}`);
  }
  return [...expected.values()];
}

/** The workspace's issuer, as a small business or not. */
async function setIssuer(key: string, smallBusiness: boolean) {
  const patched = await call('PATCH', '/api/workspace', { key, body: { issuer: { ...ISSUER, small_business: smallBusiness } } });
  expect(patched.status, JSON.stringify(patched.body)).toBe(200);
}

async function workspaceIn(language: Language) {
  const owner = await createUser('Owner');
  const patched = await call('PATCH', '/api/workspace', { key: owner.key, body: { locale: LOCALES[language], issuer: ISSUER, payment_instructions: PAYMENT } });
  expect(patched.status).toBe(200);
  const clients = {} as Record<keyof typeof CLIENTS, string>;
  for (const [country, body] of Object.entries(CLIENTS)) clients[country as keyof typeof CLIENTS] = (await createClient(owner.key, body)).id;
  return { owner, clients };
}

describe('§20: the page and the PDF print everything the XML carries, in every language and tax situation', () => {
  for (const language of LANGUAGES) {
    it(`${language}: ${Object.keys(SITUATIONS).join(', ')}`, async () => {
      const locale = LOCALES[language];
      const { owner, clients } = await workspaceIn(language);
      for (const [name, situation] of Object.entries(SITUATIONS)) {
        if (situation.smallBusiness) await setIssuer(owner.key, true);
        const created = await call('POST', '/v1/invoices', { key: owner.key, body: { client_id: clients[situation.client], issue_date: '2026-03-15', notes: `Project ${name}`, ...situation.body(language) } });
        expect(created.status, `${name}: ${JSON.stringify(created.body)}`).toBe(201);
        const sent = (await call('POST', `/v1/invoices/${created.body.id}/send`, { key: owner.key, body: { email: false } })).body;
        if (situation.smallBusiness) await setIssuer(owner.key, false);

        const html = await (await open(sent.hosted_url)).text();
        const page = flat(unescape(html.replace(/<style[\s\S]*?<\/style>|<script[\s\S]*?<\/script>/g, ' ').replace(/<[^>]+>/g, ' ')));
        const pdfBytes = await (await open(sent.pdf_url)).arrayBuffer();
        const pdf = flat((await pdfText(pdfBytes)).flat().join(' '));
        const cii = await embeddedXml(pdfBytes);
        const ublAnswer = await open(`${sent.hosted_url}/invoice.xml?format=ubl`);
        const ubl = await ublAnswer.text();
        expect(ublAnswer.status, `${name}: ${ubl.slice(0, 400)}`).toBe(200);

        for (const [format, xml] of [['cii', cii], ['ubl', ubl]] as const) {
          const verdict = validateEInvoice(xml);
          expect([name, format, verdict.failures]).toEqual([name, format, []]);
        }
        const texts = expectedTexts(cii, locale, 'EUR');
        // The check reads the XML itself: its ids, notes, dates and amounts are all among what it looks for.
        for (const carried of [sent.number, 'DE123456789', '27/123/45678', ISSUER.iban, formatMoney(sent.total, 'EUR', locale), formatDate('2026-03-15', locale)]) expect(texts.map((e) => e.text)).toContain(flat(carried));
        for (const { text, negated } of texts) {
          const prints = (document: string) => document.includes(text) || (negated !== undefined && document.includes(negated));
          expect(prints(page), `${language} ${name}: the page prints ${text}`).toBe(true);
          expect(prints(pdf), `${language} ${name}: the PDF prints ${text}`).toBe(true);
        }
        // The numbers under their own labels, never one under the other's.
        const [vatId, taxNumber, registrationId] = NUMBER_LABELS[language];
        const labels = [`${vatId} DE123456789`, `${taxNumber} 27/123/45678`, `${registrationId} HRB 123456 B`];
        for (const text of [...labels, ISSUER.legal_notes[language], PAYMENT[language], `IBAN ${ISSUER.iban}`, `BIC ${ISSUER.bic}`]) {
          expect(page, `${language} ${name}: ${text}`).toContain(flat(text));
          expect(pdf, `${language} ${name}: ${text}`).toContain(flat(text));
        }
        // The tax note in its sources' exact words: printed on the page and in the PDF, and BT-120 in both XMLs.
        if (situation.note) {
          const note = NOTES[situation.note][language];
          expect(page, `${language} ${name}: the page's note`).toContain(note);
          expect(pdf, `${language} ${name}: the PDF's note`).toContain(note);
          expect(cii, `${language} ${name}: the CII's BT-120`).toContain(`<ram:ExemptionReason>${note}</ram:ExemptionReason>`);
          expect(ubl, `${language} ${name}: the UBL's BT-120`).toContain(`<cbc:TaxExemptionReason>${note}</cbc:TaxExemptionReason>`);
        }
      }
      // The German invoice without a date of supply says the issue date is it; the K one carries it as BT-72.
      if (language === 'de') {
        const list = (await call('GET', '/v1/invoices?limit=10', { key: owner.key })).body.data as { id: string; service_date: string | null; service_period: unknown }[];
        expect(list.some((invoice) => invoice.service_date === '2026-03-02')).toBe(true);
      }
    }, 60_000);
  }
});
