// A received e-invoice (§21 "Reading") as the e-invoice document the one document value is made from (value.ts), so
// the page that prints our own invoices (render/page.tsx) prints it too, in the reader's language: the seller and the buyer with their
// addresses and numbers, dates, references, lines, allowances, each tax group with its exemption reason, totals,
// notes, payment terms and account. The XML is read with the safe reader and our rule engine's readers (CII and
// UBL Invoice and CreditNote), and the few terms no rule reads (addresses, notes, due date, references, payment
// terms) from the same tree. Amounts are shown in the currency's minor unit: one written with more decimals shows
// rounded (half away from zero), and the document's validation warns of it. Run by the renderer worker
// (src/renderer/index.ts `receivedDocument`), which answers plain data: the rule engine's readers stay out of the
// API's bundle; the API makes the value in the reader's language (inbound-documents/view.tsx).
import { CURRENCY_EXPONENTS } from '../../lib/currencies';
import { divRoundHalfAwayFromZero } from '../../lib/money';
import { isCalendarDate } from '../../lib/time';
import { DEFAULT_XML_LIMITS, readXml, type XmlElement, XmlReadError } from '../../lib/xml-reader';
import { parseDecimal } from './einvoice/rules/decimal';
import type { EN16931Invoice } from './einvoice/rules';
import { readCii } from './einvoice/rules/read-cii';
import { readUbl } from './einvoice/rules/read-ubl';
import { all, first, textAt } from './einvoice/rules/xml-path';
import type { EInvoiceAddress, EInvoiceDocument, TaxCategory } from './value';

const CII_NS = 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100';
const UBL_NS: Record<string, string> = { Invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2', CreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2' };
/** UNTDID 1001 document types that credit (BT-3). */
const CREDIT_TYPE_CODES = new Set(['81', '83', '261', '262', '296', '308', '381', '396', '420', '458', '532']);
const CATEGORIES = new Set<string>(['S', 'Z', 'E', 'AE', 'K', 'G', 'O']);
type Written = string | null;

/** What a received document lacks to be shown, in a sentence. */
export type NotShown = { error: string };

/** The received e-invoice to show; `issueDate` is the one it states: without a readable one `document` carries a stand-in the page must not print. */
export type ReceivedDocument = { document: EInvoiceDocument; issueDate: string | null };

/** The received e-invoice `xml` as the document to show, or why it cannot be read. */
export function receivedDocument(xml: string): ReceivedDocument | NotShown {
  let root: XmlElement;
  try {
    root = readXml(xml, DEFAULT_XML_LIMITS);
  } catch (error) {
    if (error instanceof XmlReadError) return { error: `not readable as XML: ${error.message}` };
    throw error;
  }
  const cii = root.local === 'CrossIndustryInvoice' && root.ns === CII_NS;
  if (!cii && UBL_NS[root.local] !== root.ns) return { error: `<${root.local}> is neither a CII CrossIndustryInvoice nor a UBL Invoice or CreditNote` };
  const invoice = cii ? readCii(root) : readUbl(root);
  const extra = cii ? ciiExtras(root) : ublExtras(root);
  return { document: documentOf(invoice, extra, root.local === 'CreditNote'), issueDate: dateOf(invoice.issueDate) };
}

/** The terms a person reads that the rules do not: each party's address, notes, due date, references, payment terms. */
type Extras = {
  seller: EInvoiceAddress | null; buyer: EInvoiceAddress | null; sellerEmail: Written; buyerEmail: Written;
  notes: Written[]; dueDate: Written; buyerReference: Written; purchaseOrder: Written; paymentTerms: Written; bic: Written;
};

const addressOf = (node: XmlElement | null, paths: { line1: string[]; line2: string[]; city: string[]; postal: string[]; region: string[]; country: string[] }): EInvoiceAddress | null =>
  node
    ? {
      line1: textAt(node, ...paths.line1), line2: textAt(node, ...paths.line2), city: textAt(node, ...paths.city),
      postal_code: textAt(node, ...paths.postal), region: textAt(node, ...paths.region), country: textAt(node, ...paths.country),
    }
    : null;

function ciiExtras(root: XmlElement): Extras {
  const transaction = first(root, 'SupplyChainTradeTransaction');
  const agreement = first(transaction, 'ApplicableHeaderTradeAgreement');
  const settlement = first(transaction, 'ApplicableHeaderTradeSettlement');
  const terms = first(settlement, 'SpecifiedTradePaymentTerms');
  const paths = { line1: ['LineOne'], line2: ['LineTwo'], city: ['CityName'], postal: ['PostcodeCode'], region: ['CountrySubDivisionName'], country: ['CountryID'] };
  const party = (name: string) => first(agreement, name);
  return {
    seller: addressOf(first(party('SellerTradeParty'), 'PostalTradeAddress'), paths),
    buyer: addressOf(first(party('BuyerTradeParty'), 'PostalTradeAddress'), paths),
    sellerEmail: textAt(party('SellerTradeParty'), 'DefinedTradeContact', 'EmailURIUniversalCommunication', 'URIID'),
    buyerEmail: textAt(party('BuyerTradeParty'), 'DefinedTradeContact', 'EmailURIUniversalCommunication', 'URIID'),
    notes: all(root, 'ExchangedDocument', 'IncludedNote', 'Content').map((note) => note.text),
    dueDate: textAt(terms, 'DueDateDateTime', 'DateTimeString'),
    buyerReference: textAt(agreement, 'BuyerReference'),
    purchaseOrder: textAt(agreement, 'BuyerOrderReferencedDocument', 'IssuerAssignedID'),
    paymentTerms: textAt(terms, 'Description'),
    bic: textAt(settlement, 'SpecifiedTradeSettlementPaymentMeans', 'PayeeSpecifiedCreditorFinancialInstitution', 'BICID'),
  };
}

function ublExtras(root: XmlElement): Extras {
  const paths = {
    line1: ['StreetName'], line2: ['AdditionalStreetName'], city: ['CityName'], postal: ['PostalZone'], region: ['CountrySubentity'],
    country: ['Country', 'IdentificationCode'],
  };
  const party = (name: string) => first(root, name, 'Party');
  return {
    seller: addressOf(first(party('AccountingSupplierParty'), 'PostalAddress'), paths),
    buyer: addressOf(first(party('AccountingCustomerParty'), 'PostalAddress'), paths),
    sellerEmail: textAt(party('AccountingSupplierParty'), 'Contact', 'ElectronicMail'),
    buyerEmail: textAt(party('AccountingCustomerParty'), 'Contact', 'ElectronicMail'),
    notes: all(root, 'Note').map((note) => note.text),
    // A credit note states its due date on its payment means (UBL has no DueDate there).
    dueDate: textAt(root, 'DueDate') ?? textAt(root, 'PaymentMeans', 'PaymentDueDate'),
    buyerReference: textAt(root, 'BuyerReference'),
    purchaseOrder: textAt(root, 'OrderReference', 'ID'),
    paymentTerms: textAt(root, 'PaymentTerms', 'Note'),
    bic: textAt(root, 'PaymentMeans', 'PayeeFinancialAccount', 'FinancialInstitutionBranch', 'ID'),
  };
}

const EMPTY_ADDRESS: EInvoiceAddress = { line1: null, line2: null, city: null, region: null, postal_code: null, country: null };

/** YYYY-MM-DD from the ISO form or CII's 102 (YYYYMMDD); null when it is neither. */
function dateOf(written: Written): string | null {
  const value = written?.trim() ?? '';
  const iso = /^\d{8}$/.test(value) ? `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6)}` : value;
  return isCalendarDate(iso) ? iso : null;
}

function documentOf(invoice: EN16931Invoice, extra: Extras, creditNote: boolean): EInvoiceDocument {
  const code = (invoice.currency ?? '').trim().toUpperCase();
  const exponent = CURRENCY_EXPONENTS.get(code);
  // A code Intl cannot format as a currency is shown as XXX ("no currency"); the verdict names the error.
  const currency = /^[A-Z]{3}$/.test(code) ? code : 'XXX';
  const minor = (written: Written): number => {
    const value = parseDecimal(written);
    if (!value) return 0;
    const scaled = value.units * 10n ** BigInt(exponent ?? 2);
    const rounded = Number(divRoundHalfAwayFromZero(scaled, 10n ** BigInt(value.scale)));
    return Number.isSafeInteger(rounded) ? rounded : 0;
  };
  const number = (written: Written) => {
    const value = Number(written?.trim());
    return written != null && Number.isFinite(value) ? value : 0;
  };
  const category = (written: Written | undefined): TaxCategory => (CATEGORIES.has(written?.trim() ?? '') ? (written!.trim() as TaxCategory) : 'S');
  const peppol = (party: EN16931Invoice['seller']) =>
    party.electronicAddress?.value ? [party.electronicAddress.scheme, party.electronicAddress.value].filter(Boolean).join(':') : null;
  const totals = invoice.totals;
  const taxInCurrency = totals?.taxTotals.find((tax) => (tax.currency ?? '').trim().toUpperCase() === code) ?? totals?.taxTotals[0];
  const allowances = invoice.allowancesCharges.filter((ac) => !ac.charge);
  const total = minor(totals?.grandTotal ?? null);
  const paid = minor(totals?.prepaid ?? null);
  const issueDate = dateOf(invoice.issueDate);
  const period = invoice.invoicingPeriod && dateOf(invoice.invoicingPeriod.start) && dateOf(invoice.invoicingPeriod.end)
    ? { start: dateOf(invoice.invoicingPeriod.start)!, end: dateOf(invoice.invoicingPeriod.end)! }
    : null;
  return {
    type_code: creditNote || CREDIT_TYPE_CODES.has((invoice.typeCode ?? '').trim()) ? 381 : 380,
    number: invoice.number?.trim() || '—',
    // A document without a readable issue date still shows (the verdict says why): a stand-in, never printed.
    issue_date: issueDate ?? '1970-01-01',
    due_date: dateOf(extra.dueDate),
    delivery_date: dateOf(invoice.actualDeliveryDate),
    service_period: period,
    preceding_invoice: invoice.precedingInvoices[0] ? { number: invoice.precedingInvoices[0], issue_date: null } : null,
    currency,
    currency_exponent: exponent ?? 2,
    buyer_reference: extra.buyerReference,
    purchase_order: extra.purchaseOrder,
    notes: extra.notes.map((note) => note?.trim()).filter(Boolean).join('\n\n') || null,
    issuer: {
      legal_name: invoice.seller.name?.trim() ?? '',
      vat_id: invoice.seller.vatId,
      registration_id: invoice.seller.legalId,
      peppol_id: peppol(invoice.seller),
      tax_id: invoice.seller.taxRegistrationId,
      email: extra.sellerEmail,
      address: extra.seller ?? { ...EMPTY_ADDRESS, country: invoice.seller.address?.country ?? null },
      iban: invoice.paymentMeans.flatMap((means) => means.accountIds).find((id) => id) ?? null,
      bic: extra.bic,
    },
    bill_to: {
      name: invoice.buyer.name?.trim() ?? '',
      company: null,
      email: extra.buyerEmail,
      vat_id: invoice.buyer.vatId,
      peppol_id: peppol(invoice.buyer),
      address: extra.buyer ?? { ...EMPTY_ADDRESS, country: invoice.buyer.address?.country ?? null },
    },
    payment_instructions: extra.paymentTerms,
    lines: invoice.lines.map((line, i) => ({
      id: line.id ?? String(i + 1),
      description: line.itemName ?? '',
      quantity: number(line.quantity),
      unit: line.unitCode ?? 'C62',
      unit_amount: minor(line.netPrice),
      // The line's net as the document states it (BT-131), its allowances already taken off.
      discount_percent: 0,
      discount_amount: 0,
      amount: minor(line.netAmount),
      tax_category: category(line.vat?.code),
      tax_rate: number(line.vat?.rate ?? null),
      tax: null,
    })),
    discount: allowances.length ? { amount: minor(totals?.allowanceTotal ?? null), reason: allowances.find((ac) => ac.reason)?.reason ?? null } : null,
    subtotal: minor(totals?.lineTotal ?? null),
    discount_total: minor(totals?.allowanceTotal ?? null) - minor(totals?.chargeTotal ?? null),
    tax: minor(taxInCurrency?.amount ?? null),
    total,
    amount_paid: paid,
    amount_due: totals?.duePayable != null ? minor(totals.duePayable) : total - paid,
    tax_breakdown: invoice.vatBreakdown.map((group) => ({
      category: category(group.vat?.code),
      rate: number(group.vat?.rate ?? null),
      taxable_amount: minor(group.taxableAmount),
      tax_amount: minor(group.taxAmount),
      exemption_reason: group.exemptionReason,
      exemption_code: group.exemptionReasonCode,
      note: group.exemptionReason,
    })),
  };
}
