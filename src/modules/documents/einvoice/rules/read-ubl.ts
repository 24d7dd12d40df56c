// UBL 2.1 Invoice and CreditNote into the EN 16931 semantic model, along the paths the official UBL Schematron
// reads (EN16931-UBL-validation, rules BR-*): each business term from the element that rule checks.
import type { XmlElement } from '../../../../lib/xml-reader';
import type { Address, AllowanceCharge, Invoice, Line, Party, VatCategory } from './model';

type TaxTotal = NonNullable<Invoice['totals']>['taxTotals'][number];
import { all, first, textAt } from './xml-path';

const attribute = (node: XmlElement | null, name: string) => node?.attributes[name] ?? null;
const schemeIsVat = (node: XmlElement) => (textAt(node, 'TaxScheme', 'ID') ?? '').trim().toUpperCase() === 'VAT';

/** A TaxCategory / ClassifiedTaxCategory of the VAT scheme; null when there is none. */
function vatCategory(categories: XmlElement[]): VatCategory | null {
  const category = categories.find((node) => schemeIsVat(node) && first(node, 'ID'));
  return category ? { code: textAt(category, 'ID'), rate: textAt(category, 'Percent') } : null;
}

function address(postal: XmlElement | null): Address | null {
  if (!postal) return null;
  return {
    country: textAt(postal, 'Country', 'IdentificationCode'),
    lines: [textAt(postal, 'StreetName'), textAt(postal, 'AdditionalStreetName'), ...all(postal, 'AddressLine', 'Line').map((line) => line.text)],
    city: textAt(postal, 'CityName'),
    postcode: textAt(postal, 'PostalZone'),
    region: textAt(postal, 'CountrySubentity'),
  };
}

function party(node: XmlElement | null, nameFrom: 'legal' | 'trading'): Party | null {
  if (!node) return null;
  const schemes = all(node, 'PartyTaxScheme');
  const endpoint = first(node, 'EndpointID');
  return {
    name: nameFrom === 'legal' ? textAt(node, 'PartyLegalEntity', 'RegistrationName') : textAt(node, 'PartyName', 'Name'),
    ids: all(node, 'PartyIdentification', 'ID').filter((id) => id.attributes.schemeID !== 'SEPA').map((id) => id.text),
    legalId: textAt(node, 'PartyLegalEntity', 'CompanyID'),
    vatId: schemes.filter(schemeIsVat).map((scheme) => textAt(scheme, 'CompanyID')).find((id) => id != null) ?? null,
    taxRegistrationId: schemes.filter((scheme) => !schemeIsVat(scheme)).map((scheme) => textAt(scheme, 'CompanyID')).find((id) => id != null) ?? null,
    address: address(first(node, 'PostalAddress')),
    electronicAddress: endpoint ? { value: endpoint.text, scheme: attribute(endpoint, 'schemeID') } : null,
  };
}

const EMPTY_PARTY: Party = { name: null, ids: [], legalId: null, vatId: null, taxRegistrationId: null, address: null, electronicAddress: null };

function allowanceCharge(node: XmlElement, withVat: boolean): AllowanceCharge {
  return {
    charge: (textAt(node, 'ChargeIndicator') ?? '').trim() === 'true',
    amount: textAt(node, 'Amount'),
    baseAmount: textAt(node, 'BaseAmount'),
    vat: withVat ? vatCategory(all(node, 'TaxCategory')) : null,
    reason: textAt(node, 'AllowanceChargeReason'),
    reasonCode: textAt(node, 'AllowanceChargeReasonCode'),
  };
}

function line(node: XmlElement): Line {
  const quantity = first(node, 'InvoicedQuantity') ?? first(node, 'CreditedQuantity');
  const period = first(node, 'InvoicePeriod');
  const item = first(node, 'Item');
  return {
    id: textAt(node, 'ID'),
    quantity: quantity?.text ?? null,
    unitCode: attribute(quantity, 'unitCode'),
    netAmount: textAt(node, 'LineExtensionAmount'),
    itemName: textAt(item, 'Name'),
    netPrice: textAt(node, 'Price', 'PriceAmount'),
    grossPrice: textAt(node, 'Price', 'AllowanceCharge', 'BaseAmount'),
    priceBaseQuantity: textAt(node, 'Price', 'BaseQuantity'),
    vat: vatCategory(all(item, 'ClassifiedTaxCategory')),
    taxCategoryCount: all(item, 'ClassifiedTaxCategory').length,
    allowancesCharges: all(node, 'AllowanceCharge').map((ac) => allowanceCharge(ac, false)),
    period: period ? { start: textAt(period, 'StartDate'), end: textAt(period, 'EndDate') } : null,
    standardIdSchemes: all(item, 'StandardItemIdentification', 'ID').map((id) => attribute(id, 'schemeID')),
    classificationLists: all(item, 'CommodityClassification', 'ItemClassificationCode').map((code) => attribute(code, 'listID')),
    attributes: all(item, 'AdditionalItemProperty').map((p) => ({ name: textAt(p, 'Name'), value: textAt(p, 'Value') })),
  };
}

export function readUbl(root: XmlElement): Invoice {
  const totals = first(root, 'LegalMonetaryTotal');
  const period = first(root, 'InvoicePeriod');
  const taxTotals = all(root, 'TaxTotal');
  const amountOf = (name: string) => textAt(totals, name);
  return {
    syntax: 'ubl',
    specification: textAt(root, 'CustomizationID'),
    number: textAt(root, 'ID'),
    issueDate: textAt(root, 'IssueDate'),
    typeCode: textAt(root, 'InvoiceTypeCode') ?? textAt(root, 'CreditNoteTypeCode'),
    typeCodeCount: null,
    currency: textAt(root, 'DocumentCurrencyCode'),
    taxCurrency: textAt(root, 'TaxCurrencyCode'),
    taxPointDate: textAt(root, 'TaxPointDate'),
    taxPointDateCode: textAt(period, 'DescriptionCode'),
    // An Invoice states BT-9 at its root; a CreditNote has no DueDate there, so on its payment means.
    dueDate: textAt(root, 'DueDate') ?? all(root, 'PaymentMeans', 'PaymentDueDate').map((d) => d.text).find((d) => d != null) ?? null,
    buyerReference: textAt(root, 'BuyerReference'),
    purchaseOrder: textAt(root, 'OrderReference', 'ID'),
    seller: party(first(root, 'AccountingSupplierParty', 'Party'), 'legal') ?? EMPTY_PARTY,
    buyer: party(first(root, 'AccountingCustomerParty', 'Party'), 'legal') ?? EMPTY_PARTY,
    taxRepresentative: party(first(root, 'TaxRepresentativeParty'), 'trading'),
    payee: party(first(root, 'PayeeParty'), 'trading'),
    actualDeliveryDate: textAt(root, 'Delivery', 'ActualDeliveryDate'),
    deliverTo: address(first(root, 'Delivery', 'DeliveryLocation', 'Address')),
    invoicingPeriod: period ? { start: textAt(period, 'StartDate'), end: textAt(period, 'EndDate'), descriptionCode: textAt(period, 'DescriptionCode') } : null,
    paymentMeans: all(root, 'PaymentMeans').map((means) => {
      const accounts = all(means, 'PayeeFinancialAccount');
      return { code: textAt(means, 'PaymentMeansCode'), accountIds: accounts.map((account) => textAt(account, 'ID')), hasCreditTransfer: accounts.length > 0 };
    }),
    cardNumbers: all(root, 'PaymentMeans', 'CardAccount', 'PrimaryAccountNumberID').map((id) => id.text),
    precedingInvoices: all(root, 'BillingReference').map((ref) => textAt(ref, 'InvoiceDocumentReference', 'ID')),
    supportingDocuments: all(root, 'AdditionalDocumentReference').map((ref) => textAt(ref, 'ID')),
    allowancesCharges: all(root, 'AllowanceCharge').map((ac) => allowanceCharge(ac, true)),
    totals: totals
      ? {
        lineTotal: amountOf('LineExtensionAmount'),
        allowanceTotal: amountOf('AllowanceTotalAmount'),
        chargeTotal: amountOf('ChargeTotalAmount'),
        taxBasisTotal: amountOf('TaxExclusiveAmount'),
        taxTotals: taxTotals.flatMap((total): TaxTotal[] => {
          const subtotalTaxes = all(total, 'TaxSubtotal').map((subtotal) => textAt(subtotal, 'TaxAmount'));
          const withBreakdown = subtotalTaxes.length > 0;
          const amounts = all(total, 'TaxAmount');
          if (amounts.length === 0) return withBreakdown ? [{ amount: null, currency: null, withBreakdown, subtotalTaxes }] : [];
          return amounts.map((tax) => ({ amount: tax.text, currency: attribute(tax, 'currencyID'), withBreakdown, subtotalTaxes }));
        }),
        grandTotal: amountOf('TaxInclusiveAmount'),
        prepaid: amountOf('PrepaidAmount'),
        rounding: amountOf('PayableRoundingAmount'),
        duePayable: amountOf('PayableAmount'),
      }
      : null,
    vatBreakdown: all(taxTotals, 'TaxSubtotal').map((subtotal) => {
      const category = first(subtotal, 'TaxCategory');
      return {
        taxableAmount: textAt(subtotal, 'TaxableAmount'),
        taxAmount: textAt(subtotal, 'TaxAmount'),
        vat: vatCategory(all(subtotal, 'TaxCategory')),
        exemptionReason: textAt(category, 'TaxExemptionReason'),
        exemptionReasonCode: textAt(category, 'TaxExemptionReasonCode'),
      };
    }),
    lines: [...all(root, 'InvoiceLine'), ...all(root, 'CreditNoteLine')].map(line),
    amountElements: amountElements(root),
  };
}

/**
 * UBL-DT-01's context: every element named …Amount but …PriceAmount, outside a price's allowance, in document
 * order. Gathered into one array in a single walk: a received document may have a thousand lines, and arrays
 * spread into their parents' at every level cost the document's size times its depth.
 */
function amountElements(root: XmlElement): string[] {
  const found: string[] = [];
  const walk = (node: XmlElement, inPriceAllowance: boolean): void => {
    for (const child of node.children) {
      if (!inPriceAllowance && child.local.endsWith('Amount') && !child.local.endsWith('PriceAmount')) found.push(child.text);
      walk(child, inPriceAllowance || (node.local === 'Price' && child.local === 'AllowanceCharge'));
    }
  };
  walk(root, false);
  return found;
}
