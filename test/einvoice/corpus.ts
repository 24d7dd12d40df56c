// The e-invoice corpus our own EN 16931 rules are held to: every fixture in both syntaxes (each must be valid), and
// small mutations of them, each a mistake a real invoice makes (a total off by a cent, a missing VAT id, tax on a
// reverse-charge line, …). For each mutated file the official validator's verdict is recorded in
// official-verdicts.json (`npm run test:einvoice -- --record` where the validator is installed) and the engine must
// fail exactly the same rules. Pure: used by the Workers tests and the Node check (validate.mjs).
import { renderCii } from '../../src/modules/documents/einvoice/cii';
import { renderUbl } from '../../src/modules/documents/einvoice/ubl';
import { FIXTURES } from './fixtures';

export type CorpusFile = { file: string; xml: string };
type Syntax = 'cii' | 'ubl';

/** Every fixture, rendered in CII and UBL, as `<fixture>.<syntax>.xml`. */
export function fixtureFiles(): CorpusFile[] {
  return Object.entries(FIXTURES).flatMap(([name, doc]) => [
    { file: `${name}.cii.xml`, xml: renderCii(doc) },
    { file: `${name}.ubl.xml`, xml: renderUbl(doc) },
  ]);
}

/** The first match of `pattern` replaced; throws when there is none, so a mutation can never silently not apply. */
function edit(xml: string, pattern: string | RegExp, replacement: string | ((match: string, ...groups: string[]) => string)): string {
  const found = typeof pattern === 'string' ? xml.includes(pattern) : pattern.test(xml);
  if (!found) throw new Error(`mutation: ${pattern} not found`);
  return typeof replacement === 'string' ? xml.replace(pattern, replacement) : xml.replace(pattern, replacement as (m: string, ...g: string[]) => string);
}

/** A decimal amount moved by `cents` hundredths, written with two decimals. */
const moved = (value: string, cents: number) => ((Math.round(Number(value) * 100) + cents) / 100).toFixed(2);
const shift = (element: string, cents: number) => (xml: string) =>
  edit(xml, new RegExp(`(<${element}(?: [^>]*)?>)([^<]+)<`), (_, open, value) => `${open}${moved(value, cents)}<`);

type Mutation = { fixture: keyof typeof FIXTURES & string; what: string } & Partial<Record<Syntax, (xml: string) => string>>;

export const MUTATIONS: Record<string, Mutation> = {
  'total-off-by-one-cent': {
    fixture: 'two-rates', what: 'the invoice total with VAT (BT-112) one cent too high',
    cii: shift('ram:GrandTotalAmount', 1), ubl: shift('cbc:TaxInclusiveAmount', 1),
  },
  'amount-due-off': {
    fixture: 'standard-discounts', what: 'the amount due (BT-115) a unit short of total less paid',
    cii: shift('ram:DuePayableAmount', -100), ubl: shift('cbc:PayableAmount', -100),
  },
  'line-sum-wrong': {
    fixture: 'two-rates', what: 'the first line\'s net amount (BT-131) a euro more, totals unchanged',
    cii: shift('ram:LineTotalAmount', 100), ubl: (xml) => edit(xml, /(<cac:InvoiceLine>.*?<cbc:LineExtensionAmount currencyID="EUR">)([^<]+)</s, (_, open, value) => `${open}${moved(value, 100)}<`),
  },
  'allowance-total-wrong': {
    fixture: 'standard-discounts', what: 'the sum of document allowances (BT-107) a cent off',
    cii: shift('ram:AllowanceTotalAmount', 1), ubl: shift('cbc:AllowanceTotalAmount', 1),
  },
  'tax-total-wrong': {
    fixture: 'two-rates', what: 'the invoice VAT total (BT-110) a cent more than its breakdown',
    cii: shift('ram:TaxTotalAmount', 1), ubl: shift('cbc:TaxAmount', 1),
  },
  'breakdown-taxable-wrong': {
    fixture: 'two-rates', what: 'the first VAT group\'s taxable amount (BT-116) two euros more',
    cii: shift('ram:BasisAmount', 200), ubl: shift('cbc:TaxableAmount', 200),
  },
  'seller-vat-id-missing': {
    fixture: 'standard-discounts', what: 'standard-rated lines without the seller\'s VAT identifier (BT-31)',
    cii: (xml) => edit(xml, /<ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">DE123456789<\/ram:ID><\/ram:SpecifiedTaxRegistration>/, ''),
    ubl: (xml) => edit(xml, /<cac:PartyTaxScheme><cbc:CompanyID>DE123456789<\/cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT<\/cbc:ID><\/cac:TaxScheme><\/cac:PartyTaxScheme>/, ''),
  },
  'buyer-name-blank': {
    fixture: 'two-rates', what: 'the buyer\'s name (BT-44) blank',
    cii: (xml) => edit(xml, /(<ram:BuyerTradeParty><ram:Name>)[^<]*</, '$1 <'),
    ubl: (xml) => edit(xml, /(<cac:AccountingCustomerParty>.*?<cbc:RegistrationName>)[^<]*</s, '$1 <'),
  },
  'invoice-number-blank': {
    fixture: 'credit-note', what: 'the document number (BT-1) blank',
    cii: (xml) => edit(xml, /(<rsm:ExchangedDocument><ram:ID>)[^<]*</, '$1 <'),
    ubl: (xml) => edit(xml, /(<\/cbc:ProfileID><cbc:ID>)[^<]*</, '$1 <'),
  },
  'reverse-charge-line-taxed': {
    fixture: 'reverse-charge', what: 'the reverse-charge line (AE) at a rate of 19 %',
    cii: (xml) => edit(xml, /(<ram:CategoryCode>AE<\/ram:CategoryCode><ram:RateApplicablePercent>)0</, '$119<'),
    ubl: (xml) => edit(xml, /(<cac:ClassifiedTaxCategory><cbc:ID>AE<\/cbc:ID><cbc:Percent>)0</, '$119<'),
  },
  'reverse-charge-group-taxed': {
    fixture: 'reverse-charge', what: 'VAT charged in the reverse-charge group (BT-117), and in the totals',
    cii: (xml) => ['ram:CalculatedAmount', 'ram:TaxTotalAmount', 'ram:GrandTotalAmount', 'ram:DuePayableAmount'].reduce((x, e) => shift(e, 72_200)(x), xml),
    ubl: (xml) => ['cbc:TaxAmount', 'cbc:TaxAmount', 'cbc:TaxInclusiveAmount', 'cbc:PayableAmount'].reduce((x, e, i) =>
      i === 1 ? edit(x, /(<cac:TaxSubtotal>.*?<cbc:TaxAmount currencyID="EUR">)([^<]+)</s, (_, open, value) => `${open}${moved(value, 72_200)}<`) : shift(e, 72_200)(x), xml),
  },
  'reverse-charge-buyer-vat-missing': {
    fixture: 'reverse-charge', what: 'a reverse-charge invoice without the buyer\'s VAT identifier (BT-48)',
    cii: (xml) => edit(xml, /<ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">BE0123456749<\/ram:ID><\/ram:SpecifiedTaxRegistration>/, ''),
    ubl: (xml) => edit(xml, /<cac:PartyTaxScheme><cbc:CompanyID>BE0123456749<\/cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT<\/cbc:ID><\/cac:TaxScheme><\/cac:PartyTaxScheme>/, ''),
  },
  'exempt-without-reason': {
    fixture: 'exempt', what: 'an exempt group (E) with neither exemption reason (BT-120) nor code (BT-121)',
    cii: (xml) => edit(edit(xml, /<ram:ExemptionReason>[^<]*<\/ram:ExemptionReason>/, ''), /<ram:ExemptionReasonCode>[^<]*<\/ram:ExemptionReasonCode>/, ''),
    ubl: (xml) => edit(edit(xml, /<cbc:TaxExemptionReasonCode>[^<]*<\/cbc:TaxExemptionReasonCode>/, ''), /<cbc:TaxExemptionReason>[^<]*<\/cbc:TaxExemptionReason>/, ''),
  },
  'not-subject-with-seller-vat-id': {
    fixture: 'not-subject', what: 'a not-subject-to-VAT invoice (O) whose seller states a VAT identifier',
    cii: (xml) => edit(xml, /<\/ram:SellerTradeParty>/, '<ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">DE123456789</ram:ID></ram:SpecifiedTaxRegistration></ram:SellerTradeParty>'),
    ubl: (xml) => edit(xml, /<cac:PartyLegalEntity>/, '<cac:PartyTaxScheme><cbc:CompanyID>DE123456789</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme><cac:PartyLegalEntity>'),
  },
  'standard-rate-zero': {
    fixture: 'credit-note', what: 'a standard-rated line (S) at 0 %',
    cii: (xml) => edit(xml, /(<ram:CategoryCode>S<\/ram:CategoryCode><ram:RateApplicablePercent>)19</, '$10<'),
    ubl: (xml) => edit(xml, /(<cac:ClassifiedTaxCategory><cbc:ID>S<\/cbc:ID><cbc:Percent>)19</, '$10<'),
  },
  'line-allowance-without-reason': {
    fixture: 'standard-discounts', what: 'a line discount (BG-27) with neither reason nor reason code',
    cii: (xml) => edit(xml, /<ram:ReasonCode>95<\/ram:ReasonCode><ram:Reason>Discount<\/ram:Reason>/, ''),
    ubl: (xml) => edit(xml, /(<cac:InvoiceLine>.*?)<cbc:AllowanceChargeReasonCode>95<\/cbc:AllowanceChargeReasonCode><cbc:AllowanceChargeReason>Discount<\/cbc:AllowanceChargeReason>/s, '$1'),
  },
  'line-amount-three-decimals': {
    fixture: 'two-rates', what: 'a line net amount (BT-131) written with three decimals, same value',
    cii: (xml) => edit(xml, /(<ram:LineTotalAmount>[^<]+)</, '$10<'),
    ubl: (xml) => edit(xml, /(<cac:InvoiceLine>.*?<cbc:LineExtensionAmount currencyID="EUR">[^<]+)</s, '$10<'),
  },
  'totals-three-decimals': {
    fixture: 'standard-discounts', what: 'the document totals written with three decimals, same values',
    cii: (xml) => ['LineTotalAmount', 'AllowanceTotalAmount', 'TaxBasisTotalAmount', 'TaxTotalAmount', 'GrandTotalAmount', 'TotalPrepaidAmount', 'DuePayableAmount']
      .reduce((x, e) => edit(x, new RegExp(`(<ram:SpecifiedTradeSettlementHeaderMonetarySummation>(?:(?!</ram:SpecifiedTradeSettlementHeaderMonetarySummation>).)*?<ram:${e}(?: [^>]*)?>[^<]+)<`, 's'), '$10<'), xml),
    ubl: (xml) => ['LineExtensionAmount', 'TaxExclusiveAmount', 'TaxInclusiveAmount', 'AllowanceTotalAmount', 'PrepaidAmount', 'PayableAmount', 'TaxAmount']
      .reduce((x, e) => edit(x, new RegExp(`(<cac:(?:LegalMonetaryTotal|TaxTotal)>(?:(?!</cac:(?:LegalMonetaryTotal|TaxTotal)>).)*?<cbc:${e} currencyID="EUR">[^<]+)<`, 's'), '$10<'), xml),
  },
  'breakdown-tax-three-decimals': {
    fixture: 'two-rates', what: 'a VAT group\'s tax (BT-117) with three decimals, a tenth of a cent more',
    cii: (xml) => edit(xml, /(<ram:CalculatedAmount>[^<]+)</, '$11<'),
    ubl: (xml) => edit(xml, /(<cac:TaxSubtotal>.*?<cbc:TaxAmount currencyID="EUR">[^<]+)</s, '$11<'),
  },
  'document-allowance-without-category': {
    fixture: 'standard-discounts', what: 'a document allowance (BG-20) without its VAT category',
    cii: (xml) => edit(xml, /<ram:CategoryTradeTax>.*?<\/ram:CategoryTradeTax>/s, ''),
    ubl: (xml) => edit(xml, /(<cac:AllowanceCharge><cbc:ChargeIndicator>false<\/cbc:ChargeIndicator><cbc:AllowanceChargeReasonCode>95<\/cbc:AllowanceChargeReasonCode><cbc:AllowanceChargeReason>Loyal customer<\/cbc:AllowanceChargeReason><cbc:Amount currencyID="EUR">[^<]+<\/cbc:Amount>)<cac:TaxCategory>.*?<\/cac:TaxCategory>/s, '$1'),
  },
  'credit-note-total-off': {
    fixture: 'credit-note-usd-no-iban', what: 'a credit note\'s total with VAT (BT-112) a cent low',
    cii: shift('ram:GrandTotalAmount', -1), ubl: shift('cbc:TaxInclusiveAmount', -1),
  },
};

/** Every mutation in each syntax it has, as `mutated-<mutation>.<syntax>.xml`. */
export function mutatedFiles(): CorpusFile[] {
  const byFixture = new Map(fixtureFiles().map((f) => [f.file, f.xml]));
  return Object.entries(MUTATIONS).flatMap(([name, mutation]) =>
    (['cii', 'ubl'] as const).flatMap((syntax) => {
      const mutate = mutation[syntax];
      if (!mutate) return [];
      return [{ file: `mutated-${name}.${syntax}.xml`, xml: mutate(byFixture.get(`${mutation.fixture}.${syntax}.xml`)!) }];
    }));
}
