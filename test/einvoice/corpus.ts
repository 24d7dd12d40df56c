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

/** The first match of `pattern` removed. */
const remove = (pattern: string | RegExp) => (xml: string) => edit(xml, pattern, '');
/** Every amount the document writes (CII: elements named …Amount; UBL: those with a currencyID) passed through `write`. */
const everyAmount = (write: (value: string) => string) => (xml: string) =>
  edit(xml, /(<(?:ram:\w+Amount|cbc:\w+ currencyID="[A-Z]{3}")(?: [^>]*)?>)(-?[0-9.]+)</g, (_, open, value) => `${open}${write(value)}<`);

/**
 * One mistake in one fixture, as it applies to each syntax. `accepted` says, per syntax, why the official
 * artefacts find no fatal rule in it (a rule they do not check, or check in the other syntax only): our rules
 * must then find none either.
 */
type Mutation = { fixture: keyof typeof FIXTURES & string; what: string; accepted?: Partial<Record<Syntax, string>> } & Partial<Record<Syntax, (xml: string) => string>>;
const inBoth = (why: string) => ({ cii: why, ubl: why });

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
  'intra-community-no-delivery-date': {
    fixture: 'intra-community', what: 'an intra-community supply (K) without the actual delivery date (BT-72) or an invoicing period',
    cii: remove(/<ram:ActualDeliverySupplyChainEvent>.*?<\/ram:ActualDeliverySupplyChainEvent>/s),
    ubl: remove(/<cbc:ActualDeliveryDate>[^<]*<\/cbc:ActualDeliveryDate>/),
  },
  'intra-community-buyer-vat-missing': {
    fixture: 'intra-community', what: 'an intra-community supply (K) without the buyer\'s VAT identifier (BT-48)',
    cii: remove('<ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">FR12345678901</ram:ID></ram:SpecifiedTaxRegistration>'),
    ubl: remove('<cac:PartyTaxScheme><cbc:CompanyID>FR12345678901</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>'),
  },
  'intra-community-no-delivery-country': {
    fixture: 'intra-community', what: 'an intra-community supply (K) without the deliver-to country (BT-80)',
    cii: remove(/<ram:ShipToTradeParty>.*?<\/ram:ShipToTradeParty>/s),
    ubl: remove(/<cac:DeliveryLocation>.*?<\/cac:DeliveryLocation>/s),
  },
  'intra-community-line-taxed': {
    fixture: 'intra-community', what: 'an intra-community line (K) at a rate of 19 %',
    cii: (xml) => edit(xml, /(<ram:CategoryCode>K<\/ram:CategoryCode><ram:RateApplicablePercent>)0</, '$119<'),
    ubl: (xml) => edit(xml, /(<cac:ClassifiedTaxCategory><cbc:ID>K<\/cbc:ID><cbc:Percent>)0</, '$119<'),
  },
  'intra-community-credit-note-seller-vat-missing': {
    fixture: 'credit-note-intra-community', what: 'an intra-community credit note whose seller states no VAT identifier (BT-31)',
    cii: remove('<ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">DE123456789</ram:ID></ram:SpecifiedTaxRegistration>'),
    ubl: remove('<cac:PartyTaxScheme><cbc:CompanyID>DE123456789</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>'),
  },
  'export-line-taxed': {
    fixture: 'export-outside-eu', what: 'an export line (G) at a rate of 19 %',
    cii: (xml) => edit(xml, /(<ram:CategoryCode>G<\/ram:CategoryCode><ram:RateApplicablePercent>)0</, '$119<'),
    ubl: (xml) => edit(xml, /(<cac:ClassifiedTaxCategory><cbc:ID>G<\/cbc:ID><cbc:Percent>)0</, '$119<'),
  },
  'export-seller-vat-missing': {
    fixture: 'export-outside-eu', what: 'an export (G) whose seller states no VAT identifier (BT-31)',
    cii: remove('<ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">DE123456789</ram:ID></ram:SpecifiedTaxRegistration>'),
    ubl: remove('<cac:PartyTaxScheme><cbc:CompanyID>DE123456789</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>'),
  },
  'export-without-exemption-reason': {
    fixture: 'export-outside-eu', what: 'an export group (G) with neither exemption reason (BT-120) nor code (BT-121)',
    cii: (xml) => remove(/<ram:ExemptionReasonCode>[^<]*<\/ram:ExemptionReasonCode>/)(remove(/<ram:ExemptionReason>[^<]*<\/ram:ExemptionReason>/)(xml)),
    ubl: (xml) => remove(/<cbc:TaxExemptionReason>[^<]*<\/cbc:TaxExemptionReason>/)(remove(/<cbc:TaxExemptionReasonCode>[^<]*<\/cbc:TaxExemptionReasonCode>/)(xml)),
  },
  'zero-rated-line-with-rate': {
    fixture: 'zero-rated-and-standard', what: 'a zero-rated line (Z) at 7 %',
    cii: (xml) => edit(xml, /(<ram:CategoryCode>Z<\/ram:CategoryCode><ram:RateApplicablePercent>)0</, '$17<'),
    ubl: (xml) => edit(xml, /(<cac:ClassifiedTaxCategory><cbc:ID>Z<\/cbc:ID><cbc:Percent>)0</, '$17<'),
  },
  'zero-rated-with-exemption-reason': {
    fixture: 'zero-rated-and-standard', what: 'a zero-rated group (Z) stating an exemption reason (BT-120)',
    cii: (xml) => edit(xml, /(<ram:TypeCode>VAT<\/ram:TypeCode>)(<ram:BasisAmount>[^<]*<\/ram:BasisAmount><ram:CategoryCode>Z<)/, '$1<ram:ExemptionReason>Zero rated</ram:ExemptionReason>$2'),
    ubl: (xml) => edit(xml, /(<cac:TaxSubtotal>(?:(?!<\/cac:TaxSubtotal>).)*?<cac:TaxCategory><cbc:ID>Z<\/cbc:ID><cbc:Percent>0<\/cbc:Percent>)/s, '$1<cbc:TaxExemptionReason>Zero rated</cbc:TaxExemptionReason>'),
  },
  'standard-with-exemption-reason': {
    fixture: 'two-rates', what: 'a standard-rated group (S) stating an exemption reason (BT-120)',
    cii: (xml) => edit(xml, /(<ram:TypeCode>VAT<\/ram:TypeCode>)(<ram:BasisAmount>)/, '$1<ram:ExemptionReason>Exempt</ram:ExemptionReason>$2'),
    ubl: (xml) => edit(xml, /(<cac:TaxSubtotal>(?:(?!<\/cac:TaxSubtotal>).)*?<cac:TaxCategory><cbc:ID>S<\/cbc:ID><cbc:Percent>19<\/cbc:Percent>)/s, '$1<cbc:TaxExemptionReason>Exempt</cbc:TaxExemptionReason>'),
  },
  'standard-group-tax-wrong': {
    fixture: 'two-rates', what: 'the 19 % group\'s VAT (BT-117) five euros high, carried into the totals',
    cii: (xml) => ['ram:CalculatedAmount', 'ram:TaxTotalAmount', 'ram:GrandTotalAmount', 'ram:DuePayableAmount'].reduce((x, e) => shift(e, 500)(x), xml),
    ubl: (xml) => ['cbc:TaxAmount', 'subtotal', 'cbc:TaxInclusiveAmount', 'cbc:PayableAmount'].reduce((x, e) =>
      e === 'subtotal' ? edit(x, /(<cac:TaxSubtotal>.*?<cbc:TaxAmount currencyID="EUR">)([^<]+)</s, (_, open, value) => `${open}${moved(value, 500)}<`) : shift(e, 500)(x), xml),
  },
  'breakdown-group-missing': {
    fixture: 'two-rates', what: 'the 7 % group left out of the VAT breakdown, its lines and totals unchanged',
    cii: remove(/<ram:ApplicableTradeTax><ram:CalculatedAmount>(?:(?!<\/ram:ApplicableTradeTax>).)*?<ram:RateApplicablePercent>7<\/ram:RateApplicablePercent><\/ram:ApplicableTradeTax>/s),
    ubl: remove(/<cac:TaxSubtotal>(?:(?!<\/cac:TaxSubtotal>).)*?<cbc:Percent>7<\/cbc:Percent>.*?<\/cac:TaxSubtotal>/s),
  },
  'due-date-and-terms-missing': {
    fixture: 'two-rates', what: 'an amount due with neither a due date (BT-9) nor payment terms (BT-20)',
    accepted: inBoth('BR-CO-25 is not among the rules of the CEN artefacts 1.3.16 (XRechnung and Peppol check it)'),
    cii: remove(/<ram:SpecifiedTradePaymentTerms>.*?<\/ram:SpecifiedTradePaymentTerms>/s),
    ubl: (xml) => remove(/<cac:PaymentTerms>.*?<\/cac:PaymentTerms>/s)(remove(/<cbc:DueDate>[^<]*<\/cbc:DueDate>/)(xml)),
  },
  'duplicate-line-ids': {
    fixture: 'two-rates', what: 'the second line with the first one\'s identifier (BT-126)',
    accepted: inBoth('EN 16931 asks for a line identifier, not a unique one; the CEN artefacts do not compare them'),
    cii: (xml) => edit(xml, '<ram:LineID>2</ram:LineID>', '<ram:LineID>1</ram:LineID>'),
    ubl: (xml) => edit(xml, '<cac:InvoiceLine><cbc:ID>2</cbc:ID>', '<cac:InvoiceLine><cbc:ID>1</cbc:ID>'),
  },
  'yen-written-with-cents': {
    fixture: 'jpy', what: 'a yen invoice writing every amount with two decimals (".00"), the values unchanged',
    accepted: inBoth('EN 16931 limits amounts to two decimals, whatever the currency; the values are the same'),
    cii: everyAmount((value) => `${value}.00`), ubl: everyAmount((value) => `${value}.00`),
  },
  'dinar-three-decimals': {
    fixture: 'credit-note-usd-no-iban', what: 'a credit note in Kuwaiti dinar writing every amount with the currency\'s three decimals',
    cii: (xml) => everyAmount((value) => `${value}0`)(edit(xml, /<ram:InvoiceCurrencyCode>USD</, '<ram:InvoiceCurrencyCode>KWD<').replace(/currencyID="USD"/g, 'currencyID="KWD"')),
    ubl: (xml) => everyAmount((value) => `${value}0`)(edit(xml, /<cbc:DocumentCurrencyCode>USD</, '<cbc:DocumentCurrencyCode>KWD<').replace(/currencyID="USD"/g, 'currencyID="KWD"')),
  },
  'vat-total-missing': {
    fixture: 'not-subject', what: 'an invoice not subject to VAT (O) that states no VAT total (BT-110)',
    accepted: { cii: 'the CII Schematron\'s BR-CO-15 also takes a total with VAT equal to the total without it' },
    cii: remove(/<ram:TaxTotalAmount [^>]*>[^<]*<\/ram:TaxTotalAmount>/),
    ubl: remove(/(?<=<cac:TaxTotal>)<cbc:TaxAmount [^>]*>[^<]*<\/cbc:TaxAmount>/),
  },
  'currency-code-missing': {
    fixture: 'two-rates', what: 'no invoice currency code (BT-5)',
    cii: remove(/<ram:InvoiceCurrencyCode>[^<]*<\/ram:InvoiceCurrencyCode>/),
    ubl: remove(/<cbc:DocumentCurrencyCode>[^<]*<\/cbc:DocumentCurrencyCode>/),
  },
  'buyer-country-missing': {
    fixture: 'standard-discounts', what: 'the buyer\'s postal address (BG-8) without its country (BT-55)',
    cii: (xml) => edit(xml, /(<ram:BuyerTradeParty>(?:(?!<\/ram:BuyerTradeParty>).)*?)<ram:CountryID>BE<\/ram:CountryID>/s, '$1'),
    ubl: (xml) => edit(xml, /(<cac:AccountingCustomerParty>.*?)<cac:Country><cbc:IdentificationCode>BE<\/cbc:IdentificationCode><\/cac:Country>/s, '$1'),
  },
  'seller-address-missing': {
    fixture: 'two-rates', what: 'no seller postal address (BG-5)',
    cii: remove(/<ram:PostalTradeAddress>.*?<\/ram:PostalTradeAddress>/s),
    ubl: remove(/<cac:PostalAddress>.*?<\/cac:PostalAddress>/s),
  },
  'seller-name-missing': {
    fixture: 'reverse-charge', what: 'no seller name (BT-27)',
    cii: remove(/(?<=<ram:SellerTradeParty>)<ram:Name>[^<]*<\/ram:Name>/),
    ubl: remove(/<cbc:RegistrationName>[^<]*<\/cbc:RegistrationName>/),
  },
  'issue-date-missing': {
    fixture: 'credit-note', what: 'no issue date (BT-2): in CII, written without its format code (102), which the XSD requires a date element to have',
    cii: (xml) => edit(xml, '<ram:IssueDateTime><udt:DateTimeString format="102">', '<ram:IssueDateTime><udt:DateTimeString>'),
    ubl: remove(/(?<=<\/cbc:ID>)<cbc:IssueDate>[^<]*<\/cbc:IssueDate>/),
  },
  'type-code-missing': {
    fixture: 'two-rates', what: 'no invoice type code (BT-3)',
    cii: remove('<ram:TypeCode>380</ram:TypeCode>'),
    ubl: remove('<cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>'),
  },
  'item-name-missing': {
    fixture: 'standard-discounts', what: 'the first line without its item name (BT-153)',
    cii: remove(/<ram:SpecifiedTradeProduct><ram:Name>[^<]*<\/ram:Name><\/ram:SpecifiedTradeProduct>/),
    ubl: remove(/(?<=<cac:Item>)<cbc:Name>[^<]*<\/cbc:Name>/),
  },
  'negative-price': {
    fixture: 'two-rates', what: 'the first line\'s net price (BT-146) negative',
    cii: (xml) => edit(xml, /(<ram:NetPriceProductTradePrice><ram:ChargeAmount>)/, '$1-'),
    ubl: (xml) => edit(xml, /(<cbc:PriceAmount currencyID="EUR">)/, '$1-'),
  },
  'buyer-vat-id-unknown-prefix': {
    fixture: 'two-rates', what: 'the buyer\'s VAT identifier (BT-48) with a prefix that is no country',
    cii: (xml) => edit(xml, '<ram:ID schemeID="VA">BE0123456749</ram:ID>', '<ram:ID schemeID="VA">XY0123456749</ram:ID>'),
    ubl: (xml) => edit(xml, '<cbc:CompanyID>BE0123456749</cbc:CompanyID>', '<cbc:CompanyID>XY0123456749</cbc:CompanyID>'),
  },
  'not-subject-with-standard-line': {
    fixture: 'not-subject', what: 'a not-subject-to-VAT invoice (O) whose line is standard rated at 19 %',
    cii: (xml) => edit(xml, /(<ram:SpecifiedLineTradeSettlement><ram:ApplicableTradeTax><ram:TypeCode>VAT<\/ram:TypeCode>)<ram:CategoryCode>O<\/ram:CategoryCode>/, '$1<ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>19</ram:RateApplicablePercent>'),
    ubl: (xml) => edit(xml, '<cac:ClassifiedTaxCategory><cbc:ID>O</cbc:ID>', '<cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>19</cbc:Percent>'),
  },
  'exempt-seller-without-tax-ids': {
    fixture: 'exempt', what: 'an exempt invoice (E) whose seller states neither VAT identifier (BT-31) nor tax number (BT-32)',
    cii: (xml) => remove('<ram:SpecifiedTaxRegistration><ram:ID schemeID="FC">27/123/45678</ram:ID></ram:SpecifiedTaxRegistration>')(remove('<ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">DE123456789</ram:ID></ram:SpecifiedTaxRegistration>')(xml)),
    ubl: (xml) => remove('<cac:PartyTaxScheme><cbc:CompanyID>27/123/45678</cbc:CompanyID><cac:TaxScheme><cbc:ID>TAX</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>')(remove('<cac:PartyTaxScheme><cbc:CompanyID>DE123456789</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>')(xml)),
  },
  'invoicing-period-reversed': {
    fixture: 'service-period', what: 'an invoicing period (BG-14) that ends before it starts',
    cii: (xml) => edit(xml, /(<ram:EndDateTime><udt:DateTimeString format="102">)20261130</, '$120261031<'),
    ubl: (xml) => edit(xml, '<cbc:EndDate>2026-11-30</cbc:EndDate>', '<cbc:EndDate>2026-10-31</cbc:EndDate>'),
  },
  'prepaid-amount-wrong': {
    fixture: 'standard-discounts', what: 'the paid amount (BT-113) ten euros higher than the amount due allows',
    cii: shift('ram:TotalPrepaidAmount', 1000), ubl: shift('cbc:PrepaidAmount', 1000),
  },
  'preceding-invoice-blank': {
    fixture: 'credit-note', what: 'a credit note whose preceding invoice reference (BT-25) is blank',
    accepted: { ubl: 'the UBL Schematron\'s BR-55 asks only that the reference be there; the CII one that it not be blank' },
    cii: (xml) => edit(xml, '<ram:IssuerAssignedID>INV-2026-0042</ram:IssuerAssignedID>', '<ram:IssuerAssignedID> </ram:IssuerAssignedID>'),
    ubl: (xml) => edit(xml, /(<cac:InvoiceDocumentReference><cbc:ID>)INV-2026-0042</, '$1 <'),
  },
  'seller-endpoint-without-scheme': {
    fixture: 'two-rates', what: 'the seller\'s electronic address (BT-34) without its scheme',
    cii: (xml) => edit(xml, '<ram:URIID schemeID="9930">', '<ram:URIID>'),
    ubl: (xml) => edit(xml, '<cbc:EndpointID schemeID="9930">', '<cbc:EndpointID>'),
  },
  'exempt-line-with-rate': {
    fixture: 'exempt', what: 'an exempt line (E) at a rate of 7 %',
    cii: (xml) => edit(xml, /(<ram:CategoryCode>E<\/ram:CategoryCode><ram:RateApplicablePercent>)0</, '$17<'),
    ubl: (xml) => edit(xml, /(<cac:ClassifiedTaxCategory><cbc:ID>E<\/cbc:ID><cbc:Percent>)0</, '$17<'),
  },
  'not-subject-line-with-rate': {
    fixture: 'not-subject', what: 'a line not subject to VAT (O) stating a rate of 0 %',
    cii: (xml) => edit(xml, /(<ram:SpecifiedLineTradeSettlement><ram:ApplicableTradeTax><ram:TypeCode>VAT<\/ram:TypeCode><ram:CategoryCode>O<\/ram:CategoryCode>)/, '$1<ram:RateApplicablePercent>0</ram:RateApplicablePercent>'),
    ubl: (xml) => edit(xml, '<cac:ClassifiedTaxCategory><cbc:ID>O</cbc:ID>', '<cac:ClassifiedTaxCategory><cbc:ID>O</cbc:ID><cbc:Percent>0</cbc:Percent>'),
  },
  'seller-without-identifier': {
    fixture: 'not-subject', what: 'a seller with no VAT identifier, registration or other identifier (BG-4)',
    cii: remove(/<ram:SpecifiedLegalOrganization>.*?<\/ram:SpecifiedLegalOrganization>/s),
    ubl: remove('<cbc:CompanyID>HRB 98765</cbc:CompanyID>'),
  },
  'reverse-charge-without-exemption-reason': {
    fixture: 'reverse-charge', what: 'a reverse-charge group (AE) with neither exemption reason (BT-120) nor code (BT-121)',
    cii: (xml) => remove(/<ram:ExemptionReasonCode>[^<]*<\/ram:ExemptionReasonCode>/)(remove(/<ram:ExemptionReason>[^<]*<\/ram:ExemptionReason>/)(xml)),
    ubl: (xml) => remove(/<cbc:TaxExemptionReason>[^<]*<\/cbc:TaxExemptionReason>/)(remove(/<cbc:TaxExemptionReasonCode>[^<]*<\/cbc:TaxExemptionReasonCode>/)(xml)),
  },
  'intra-community-without-exemption-reason': {
    fixture: 'intra-community', what: 'an intra-community group (K) with neither exemption reason (BT-120) nor code (BT-121)',
    cii: (xml) => remove(/<ram:ExemptionReasonCode>[^<]*<\/ram:ExemptionReasonCode>/)(remove(/<ram:ExemptionReason>[^<]*<\/ram:ExemptionReason>/)(xml)),
    ubl: (xml) => remove(/<cbc:TaxExemptionReason>[^<]*<\/cbc:TaxExemptionReason>/)(remove(/<cbc:TaxExemptionReasonCode>[^<]*<\/cbc:TaxExemptionReasonCode>/)(xml)),
  },
  'document-allowance-without-reason': {
    fixture: 'standard-discounts', what: 'a document discount (BG-20) with neither reason (BT-97) nor reason code (BT-98)',
    cii: remove('<ram:ReasonCode>95</ram:ReasonCode><ram:Reason>Loyal customer</ram:Reason>'),
    ubl: remove('<cbc:AllowanceChargeReasonCode>95</cbc:AllowanceChargeReasonCode><cbc:AllowanceChargeReason>Loyal customer</cbc:AllowanceChargeReason>'),
  },
  'document-allowance-three-decimals': {
    fixture: 'standard-discounts', what: 'a document discount\'s amount (BT-92) written with three decimals, same value',
    cii: (xml) => edit(xml, /(<ram:ActualAmount>[^<]+)(<\/ram:ActualAmount><ram:ReasonCode>95<\/ram:ReasonCode><ram:Reason>Loyal)/, '$10$2'),
    ubl: (xml) => edit(xml, /(<cbc:AllowanceChargeReason>Loyal customer<\/cbc:AllowanceChargeReason><cbc:Amount currencyID="EUR">[^<]+)</, '$10<'),
  },
  'line-vat-category-missing': {
    fixture: 'two-rates', what: 'the second line without its VAT category (BT-151)',
    cii: (xml) => edit(xml, /(<ram:LineID>2<\/ram:LineID>.*?)<ram:ApplicableTradeTax>.*?<\/ram:ApplicableTradeTax>/s, '$1'),
    ubl: (xml) => edit(xml, /(<cbc:ID>2<\/cbc:ID>.*?)<cac:ClassifiedTaxCategory>.*?<\/cac:ClassifiedTaxCategory>/s, '$1'),
  },
  'breakdown-rate-missing': {
    fixture: 'two-rates', what: 'the 7 % group of the VAT breakdown without its rate (BT-119)',
    cii: (xml) => edit(xml, /(<ram:ApplicableTradeTax><ram:CalculatedAmount>(?:(?!<\/ram:ApplicableTradeTax>).)*?)<ram:RateApplicablePercent>7<\/ram:RateApplicablePercent>/s, '$1'),
    ubl: (xml) => edit(xml, /(<cac:TaxSubtotal>(?:(?!<\/cac:TaxSubtotal>).)*?<cbc:ID>S<\/cbc:ID>)<cbc:Percent>7<\/cbc:Percent>/s, '$1'),
  },
  'line-unit-missing': {
    fixture: 'service-period', what: 'the second line\'s quantity (BT-129) without its unit of measure (BT-130)',
    cii: (xml) => edit(xml, '<ram:BilledQuantity unitCode="HUR">', '<ram:BilledQuantity>'),
    ubl: (xml) => edit(xml, '<cbc:InvoicedQuantity unitCode="HUR">', '<cbc:InvoicedQuantity>'),
  },
  'credit-transfer-without-account': {
    fixture: 'standard-discounts', what: 'a SEPA credit transfer (58) without the account to pay into (BT-84)',
    cii: remove(/<ram:PayeePartyCreditorFinancialAccount>.*?<\/ram:PayeePartyCreditorFinancialAccount>/s),
    ubl: (xml) => edit(xml, /<cac:PayeeFinancialAccount><cbc:ID>[^<]*<\/cbc:ID>/, '<cac:PayeeFinancialAccount>'),
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
