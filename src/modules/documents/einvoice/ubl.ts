// UBL 2.1 Invoice and CreditNote following Peppol BIS Billing 3.0. Element order follows the UBL 2.1 schemas
// (which differ between Invoice and CreditNote: a credit note has no cbc:DueDate, so its due date rides on the
// payment means or the payment terms); the BT numbers name the EN 16931 business terms. Call
// checkEInvoice(doc, 'ubl') first: this writer assumes a document that passed it.
import {
  buyerName,
  decimalAmount,
  decimalNumber,
  discountParts,
  type EInvoiceAddress,
  type EInvoiceDocument,
  type EInvoiceTaxGroup,
  compact,
  paymentMeansCode,
  peppolEndpoint,
  type TaxCategory,
} from '../value';
import { all, el, xmlDocument } from './xml';

export const PEPPOL_CUSTOMIZATION_ID = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';
export const PEPPOL_PROFILE_ID = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';

const CAC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2';
const CBC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';

const hasRate = (category: TaxCategory) => category !== 'O';

export function renderUbl(doc: EInvoiceDocument): string {
  const credit = doc.type_code === 381;
  const root = credit ? 'CreditNote' : 'Invoice';
  const currencyID = doc.currency;
  const amount = (name: string, minor: number) => el(name, { currencyID }, decimalAmount(minor, doc.currency_exponent));
  const parts = discountParts(doc);
  const { issuer, bill_to: billTo } = doc;

  const address = (a: EInvoiceAddress) =>
    el('cac:PostalAddress', null,
      el('cbc:StreetName', null, a.line1),
      el('cbc:AdditionalStreetName', null, a.line2),
      el('cbc:CityName', null, a.city),
      el('cbc:PostalZone', null, a.postal_code),
      el('cbc:CountrySubentity', null, a.region),
      el('cac:Country', null, el('cbc:IdentificationCode', null, a.country)));
  const endpoint = (peppolId: string | null) => {
    const peppol = peppolEndpoint(peppolId);
    return peppol ? el('cbc:EndpointID', { schemeID: peppol.scheme }, peppol.id) : null;
  };
  const partyTaxScheme = (companyId: string | null, scheme: 'VAT' | 'TAX') =>
    companyId ? el('cac:PartyTaxScheme', null, el('cbc:CompanyID', null, companyId), el('cac:TaxScheme', null, el('cbc:ID', null, scheme))) : null;
  const taxCategory = (name: string, category: TaxCategory, rate: number, exemption?: Pick<EInvoiceTaxGroup, 'exemption_code' | 'exemption_reason'>) =>
    el(name, null,
      el('cbc:ID', null, category),
      hasRate(category) ? el('cbc:Percent', null, decimalNumber(rate)) : null,
      exemption ? el('cbc:TaxExemptionReasonCode', null, exemption.exemption_code) : null,
      exemption ? el('cbc:TaxExemptionReason', null, exemption.exemption_reason) : null,
      el('cac:TaxScheme', null, el('cbc:ID', null, 'VAT')));

  const supplier = el('cac:AccountingSupplierParty', null,
    el('cac:Party', null,
      endpoint(issuer.peppol_id),
      address(issuer.address),
      partyTaxScheme(issuer.vat_id, 'VAT'),
      issuer.tax_id && issuer.tax_id !== issuer.vat_id ? partyTaxScheme(issuer.tax_id, 'TAX') : null,
      el('cac:PartyLegalEntity', null,
        el('cbc:RegistrationName', null, issuer.legal_name),
        el('cbc:CompanyID', null, issuer.registration_id)),
      issuer.email ? el('cac:Contact', null, el('cbc:ElectronicMail', null, issuer.email)) : null));
  const customer = el('cac:AccountingCustomerParty', null,
    el('cac:Party', null,
      endpoint(billTo.peppol_id),
      address(billTo.address),
      partyTaxScheme(billTo.vat_id, 'VAT'),
      el('cac:PartyLegalEntity', null, el('cbc:RegistrationName', null, buyerName(doc))),
      billTo.company || billTo.email
        ? el('cac:Contact', null,
          billTo.company ? el('cbc:Name', null, billTo.name) : null,
          el('cbc:ElectronicMail', null, billTo.email))
        : null));

  const hasK = doc.tax_breakdown.some((group) => group.category === 'K');
  // BT-72: the date of supply when the document states one, and for K the issue date otherwise (BR-IC-11).
  const delivery = hasK || doc.delivery_date
    ? el('cac:Delivery', null,
      el('cbc:ActualDeliveryDate', null, doc.delivery_date),
      hasK ? el('cac:DeliveryLocation', null, el('cac:Address', null, el('cac:Country', null, el('cbc:IdentificationCode', null, billTo.address.country)))) : null)
    : null;

  const means = paymentMeansCode(doc);
  const paymentMeans = means
    ? el('cac:PaymentMeans', null,
      el('cbc:PaymentMeansCode', null, means),
      credit ? el('cbc:PaymentDueDate', null, doc.due_date) : null,
      el('cbc:PaymentID', null, doc.number),
      el('cac:PayeeFinancialAccount', null,
        el('cbc:ID', null, compact(issuer.iban)),
        issuer.bic ? el('cac:FinancialInstitutionBranch', null, el('cbc:ID', null, compact(issuer.bic))) : null))
    : null;
  // A credit note states its due date (BR-CO-25) on the payment means; without one, in the payment terms.
  const termsNote = credit && !means && doc.due_date
    ? [doc.payment_instructions, `Due ${doc.due_date}`].filter(Boolean).join('\n')
    : doc.payment_instructions;
  const paymentTerms = el('cac:PaymentTerms', null, el('cbc:Note', null, termsNote));

  const allowances = all(doc.tax_breakdown.map((group, i) =>
    !parts[i]
      ? null
      : el('cac:AllowanceCharge', null,
        el('cbc:ChargeIndicator', null, 'false'),
        el('cbc:AllowanceChargeReasonCode', null, '95'),
        el('cbc:AllowanceChargeReason', null, doc.discount?.reason || (doc.allowance_reason ?? 'Discount')),
        amount('cbc:Amount', parts[i]),
        taxCategory('cac:TaxCategory', group.category, group.rate))));

  const taxTotal = el('cac:TaxTotal', null,
    amount('cbc:TaxAmount', doc.tax),
    all(doc.tax_breakdown.map((group) =>
      el('cac:TaxSubtotal', null,
        amount('cbc:TaxableAmount', group.taxable_amount),
        amount('cbc:TaxAmount', group.tax_amount),
        taxCategory('cac:TaxCategory', group.category, group.rate, group)))));

  const monetaryTotal = el('cac:LegalMonetaryTotal', null,
    amount('cbc:LineExtensionAmount', doc.subtotal),
    amount('cbc:TaxExclusiveAmount', doc.subtotal - doc.discount_total),
    amount('cbc:TaxInclusiveAmount', doc.total),
    doc.discount_total !== 0 ? amount('cbc:AllowanceTotalAmount', doc.discount_total) : null,
    doc.amount_paid !== 0 ? amount('cbc:PrepaidAmount', doc.amount_paid) : null,
    amount('cbc:PayableAmount', doc.amount_due));

  const lineName = credit ? 'cac:CreditNoteLine' : 'cac:InvoiceLine';
  const quantityName = credit ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity';
  const lines = all(doc.lines.map((line) =>
    el(lineName, null,
      el('cbc:ID', null, line.id),
      el(quantityName, { unitCode: line.unit }, decimalNumber(line.quantity)),
      amount('cbc:LineExtensionAmount', line.amount),
      line.discount_amount !== 0
        ? el('cac:AllowanceCharge', null,
          el('cbc:ChargeIndicator', null, 'false'),
          el('cbc:AllowanceChargeReasonCode', null, '95'),
          el('cbc:AllowanceChargeReason', null, doc.allowance_reason ?? 'Discount'),
          amount('cbc:Amount', line.discount_amount))
        : null,
      el('cac:Item', null,
        el('cbc:Name', null, line.description),
        taxCategory('cac:ClassifiedTaxCategory', line.tax_category, line.tax_rate)),
      el('cac:Price', null, amount('cbc:PriceAmount', line.unit_amount)))));

  const xml = el(root, { xmlns: `urn:oasis:names:specification:ubl:schema:xsd:${root}-2`, 'xmlns:cac': CAC, 'xmlns:cbc': CBC },
    el('cbc:CustomizationID', null, PEPPOL_CUSTOMIZATION_ID),
    el('cbc:ProfileID', null, PEPPOL_PROFILE_ID),
    el('cbc:ID', null, doc.number),
    el('cbc:IssueDate', null, doc.issue_date),
    credit ? null : el('cbc:DueDate', null, doc.due_date),
    el(credit ? 'cbc:CreditNoteTypeCode' : 'cbc:InvoiceTypeCode', null, String(doc.type_code)),
    // Peppol allows one note (BT-22): the document's notes, then the issuer's legal notes.
    el('cbc:Note', null, [doc.notes, doc.legal_notes].filter(Boolean).join('\n\n') || null),
    el('cbc:DocumentCurrencyCode', null, doc.currency),
    el('cbc:BuyerReference', null, doc.buyer_reference),
    doc.service_period
      ? el('cac:InvoicePeriod', null, el('cbc:StartDate', null, doc.service_period.start), el('cbc:EndDate', null, doc.service_period.end))
      : null,
    doc.purchase_order ? el('cac:OrderReference', null, el('cbc:ID', null, doc.purchase_order)) : null,
    doc.preceding_invoice
      ? el('cac:BillingReference', null,
        el('cac:InvoiceDocumentReference', null,
          el('cbc:ID', null, doc.preceding_invoice.number),
          el('cbc:IssueDate', null, doc.preceding_invoice.issue_date)))
      : null,
    supplier,
    customer,
    delivery,
    paymentMeans,
    paymentTerms,
    allowances,
    taxTotal,
    monetaryTotal,
    lines);
  return xmlDocument(xml);
}
