// UN/CEFACT Cross Industry Invoice D16B, EN 16931 profile (guideline urn:cen.eu:en16931:2017): the syntax
// Factur-X and ZUGFeRD embed in the PDF. Element order follows the D16B XSD; the BT numbers name the EN 16931
// business terms. Call checkEInvoice(doc, 'cii') first: this writer assumes a document that passed it.
import {
  buyerName,
  compact,
  decimalAmount,
  decimalNumber,
  discountParts,
  type EInvoiceAddress,
  type EInvoiceDocument,
  type EInvoiceTaxGroup,
  paymentMeansCode,
  peppolEndpoint,
  type TaxCategory,
} from '../value';
import { all, el, type Markup, required, xmlDocument } from './xml';

const NAMESPACES = {
  'xmlns:rsm': 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  'xmlns:ram': 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  'xmlns:qdt': 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
  'xmlns:udt': 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
};

export const CII_GUIDELINE = 'urn:cen.eu:en16931:2017';

/** YYYY-MM-DD → the format-102 date CII writes (YYYYMMDD). */
const date102 = (date: string) => date.replaceAll('-', '');
const udtDate = (name: string, date: string | null | undefined) =>
  date ? el(name, null, el('udt:DateTimeString', { format: '102' }, date102(date))) : null;

const hasRate = (category: TaxCategory) => category !== 'O';

export function renderCii(doc: EInvoiceDocument): string {
  const money = (minor: number) => decimalAmount(minor, doc.currency_exponent);
  const parts = discountParts(doc);

  const address = (a: EInvoiceAddress) =>
    el('ram:PostalTradeAddress', null,
      el('ram:PostcodeCode', null, a.postal_code),
      el('ram:LineOne', null, a.line1),
      el('ram:LineTwo', null, a.line2),
      el('ram:CityName', null, a.city),
      el('ram:CountryID', null, a.country),
      el('ram:CountrySubDivisionName', null, a.region));
  const endpoint = (peppolId: string | null, email: string | null) => {
    const peppol = peppolEndpoint(peppolId);
    if (peppol) return el('ram:URIUniversalCommunication', null, el('ram:URIID', { schemeID: peppol.scheme }, peppol.id));
    return email ? el('ram:URIUniversalCommunication', null, el('ram:URIID', { schemeID: 'EM' }, email)) : null;
  };
  const taxRegistration = (id: string | null, scheme: 'VA' | 'FC') =>
    id ? el('ram:SpecifiedTaxRegistration', null, el('ram:ID', { schemeID: scheme }, id)) : null;

  const { issuer, bill_to: billTo } = doc;
  const seller = el('ram:SellerTradeParty', null,
    el('ram:Name', null, issuer.legal_name),
    issuer.registration_id ? el('ram:SpecifiedLegalOrganization', null, el('ram:ID', null, issuer.registration_id)) : null,
    issuer.email ? el('ram:DefinedTradeContact', null, el('ram:EmailURIUniversalCommunication', null, el('ram:URIID', null, issuer.email))) : null,
    address(issuer.address),
    endpoint(issuer.peppol_id, issuer.email),
    taxRegistration(issuer.vat_id, 'VA'),
    issuer.tax_id && issuer.tax_id !== issuer.vat_id ? taxRegistration(issuer.tax_id, 'FC') : null);
  const buyer = el('ram:BuyerTradeParty', null,
    el('ram:Name', null, buyerName(doc)),
    billTo.company || billTo.email
      ? el('ram:DefinedTradeContact', null,
        billTo.company ? el('ram:PersonName', null, billTo.name) : null,
        billTo.email ? el('ram:EmailURIUniversalCommunication', null, el('ram:URIID', null, billTo.email)) : null)
      : null,
    address(billTo.address),
    endpoint(billTo.peppol_id, billTo.email),
    taxRegistration(billTo.vat_id, 'VA'));

  const lines = doc.lines.map((line) =>
    el('ram:IncludedSupplyChainTradeLineItem', null,
      el('ram:AssociatedDocumentLineDocument', null, el('ram:LineID', null, line.id)),
      el('ram:SpecifiedTradeProduct', null, el('ram:Name', null, line.description)),
      el('ram:SpecifiedLineTradeAgreement', null,
        el('ram:NetPriceProductTradePrice', null, el('ram:ChargeAmount', null, money(line.unit_amount)))),
      el('ram:SpecifiedLineTradeDelivery', null, el('ram:BilledQuantity', { unitCode: line.unit }, decimalNumber(line.quantity))),
      el('ram:SpecifiedLineTradeSettlement', null,
        el('ram:ApplicableTradeTax', null,
          el('ram:TypeCode', null, 'VAT'),
          el('ram:CategoryCode', null, line.tax_category),
          hasRate(line.tax_category) ? el('ram:RateApplicablePercent', null, decimalNumber(line.tax_rate)) : null),
        line.discount_amount !== 0
          ? el('ram:SpecifiedTradeAllowanceCharge', null,
            el('ram:ChargeIndicator', null, el('udt:Indicator', null, 'false')),
            el('ram:ActualAmount', null, money(line.discount_amount)),
            el('ram:ReasonCode', null, '95'),
            el('ram:Reason', null, doc.allowance_reason ?? 'Discount'))
          : null,
        el('ram:SpecifiedTradeSettlementLineMonetarySummation', null, el('ram:LineTotalAmount', null, money(line.amount))))));

  const tradeTax = (group: EInvoiceTaxGroup) =>
    el('ram:ApplicableTradeTax', null,
      el('ram:CalculatedAmount', null, money(group.tax_amount)),
      el('ram:TypeCode', null, 'VAT'),
      el('ram:ExemptionReason', null, group.exemption_reason),
      el('ram:BasisAmount', null, money(group.taxable_amount)),
      el('ram:CategoryCode', null, group.category),
      el('ram:ExemptionReasonCode', null, group.exemption_code),
      hasRate(group.category) ? el('ram:RateApplicablePercent', null, decimalNumber(group.rate)) : null);
  const allowances = doc.tax_breakdown.map((group, i) =>
    !parts[i]
      ? null
      : el('ram:SpecifiedTradeAllowanceCharge', null,
        el('ram:ChargeIndicator', null, el('udt:Indicator', null, 'false')),
        el('ram:ActualAmount', null, money(parts[i])),
        el('ram:ReasonCode', null, '95'),
        el('ram:Reason', null, doc.discount?.reason || (doc.allowance_reason ?? 'Discount')),
        el('ram:CategoryTradeTax', null,
          el('ram:TypeCode', null, 'VAT'),
          el('ram:CategoryCode', null, group.category),
          hasRate(group.category) ? el('ram:RateApplicablePercent', null, decimalNumber(group.rate)) : null)));

  const means = paymentMeansCode(doc);
  // EN 16931 asks for the delivery only for intra-community supplies (BR-IC-11, BR-IC-12).
  const intraCommunity = doc.tax_breakdown.some((group) => group.category === 'K');
  const settlement = el('ram:ApplicableHeaderTradeSettlement', null,
    el('ram:PaymentReference', null, doc.number),
    el('ram:InvoiceCurrencyCode', null, doc.currency),
    means
      ? el('ram:SpecifiedTradeSettlementPaymentMeans', null,
        el('ram:TypeCode', null, means),
        el('ram:PayeePartyCreditorFinancialAccount', null, el('ram:IBANID', null, compact(issuer.iban))),
        issuer.bic ? el('ram:PayeeSpecifiedCreditorFinancialInstitution', null, el('ram:BICID', null, compact(issuer.bic))) : null)
      : null,
    all(doc.tax_breakdown.map(tradeTax)),
    // BG-14: the period of supply, when the document states one.
    doc.service_period
      ? el('ram:BillingSpecifiedPeriod', null,
        udtDate('ram:StartDateTime', doc.service_period.start),
        udtDate('ram:EndDateTime', doc.service_period.end))
      : null,
    all(allowances),
    doc.due_date || doc.payment_instructions
      ? el('ram:SpecifiedTradePaymentTerms', null,
        el('ram:Description', null, doc.payment_instructions),
        udtDate('ram:DueDateDateTime', doc.due_date))
      : null,
    el('ram:SpecifiedTradeSettlementHeaderMonetarySummation', null,
      el('ram:LineTotalAmount', null, money(doc.subtotal)),
      doc.discount_total !== 0 ? el('ram:AllowanceTotalAmount', null, money(doc.discount_total)) : null,
      el('ram:TaxBasisTotalAmount', null, money(doc.subtotal - doc.discount_total)),
      el('ram:TaxTotalAmount', { currencyID: doc.currency }, money(doc.tax)),
      el('ram:GrandTotalAmount', null, money(doc.total)),
      doc.amount_paid !== 0 ? el('ram:TotalPrepaidAmount', null, money(doc.amount_paid)) : null,
      el('ram:DuePayableAmount', null, money(doc.amount_due))),
    doc.preceding_invoice
      ? el('ram:InvoiceReferencedDocument', null,
        el('ram:IssuerAssignedID', null, doc.preceding_invoice.number),
        doc.preceding_invoice.issue_date
          ? el('ram:FormattedIssueDateTime', null, el('qdt:DateTimeString', { format: '102' }, date102(doc.preceding_invoice.issue_date)))
          : null)
      : null);

  const root = el('rsm:CrossIndustryInvoice', NAMESPACES,
    el('rsm:ExchangedDocumentContext', null,
      el('ram:GuidelineSpecifiedDocumentContextParameter', null, el('ram:ID', null, CII_GUIDELINE))),
    el('rsm:ExchangedDocument', null,
      el('ram:ID', null, doc.number),
      el('ram:TypeCode', null, String(doc.type_code)),
      udtDate('ram:IssueDateTime', doc.issue_date),
      doc.notes ? el('ram:IncludedNote', null, el('ram:Content', null, doc.notes)) : null,
      // The issuer's legal notes, printed at the foot of the document (§20), as a note of their own.
      doc.legal_notes ? el('ram:IncludedNote', null, el('ram:Content', null, doc.legal_notes)) : null),
    el('rsm:SupplyChainTradeTransaction', null,
      all(lines),
      el('ram:ApplicableHeaderTradeAgreement', null,
        el('ram:BuyerReference', null, doc.buyer_reference),
        seller,
        buyer,
        doc.purchase_order ? el('ram:BuyerOrderReferencedDocument', null, el('ram:IssuerAssignedID', null, doc.purchase_order)) : null),
      // Always present (the XSD requires it), even when there is nothing to say about the delivery.
      // BT-72: the date of supply when the document states one, and for K the issue date otherwise (BR-IC-11).
      deliveryElement(intraCommunity ? billTo.address.country : null, doc.delivery_date ?? null),
      settlement));
  return xmlDocument(root);
}

function deliveryElement(country: string | null, date: string | null): Markup {
  return required('ram:ApplicableHeaderTradeDelivery', null,
    country ? el('ram:ShipToTradeParty', null, el('ram:PostalTradeAddress', null, el('ram:CountryID', null, country))) : null,
    date ? el('ram:ActualDeliverySupplyChainEvent', null, udtDate('ram:OccurrenceDateTime', date)) : null);
}
