// UN/CEFACT CII D16B (CrossIndustryInvoice) into the EN 16931 semantic model, along the paths the official
// CII Schematron reads (EN16931-CII-validation, rules BR-*): each business term from the element that rule checks.
import type { XmlElement } from '../../../../lib/xml-reader';
import type { Address, AllowanceCharge, Invoice, Line, Party, VatCategory } from './model';
import { all, first, textAt } from './xml-path';

const attribute = (node: XmlElement | null, name: string) => node?.attributes[name] ?? null;
const isVat = (tax: XmlElement) => (textAt(tax, 'TypeCode') ?? '').toUpperCase() === 'VAT';

/** A CategoryCode / RateApplicablePercent pair under a trade tax of type VAT; null when there is none. */
function vatCategory(taxes: XmlElement[]): VatCategory | null {
  const tax = taxes.find((node) => isVat(node) && first(node, 'CategoryCode'));
  return tax ? { code: textAt(tax, 'CategoryCode'), rate: textAt(tax, 'RateApplicablePercent') } : null;
}

function address(party: XmlElement | null): Address | null {
  const postal = first(party, 'PostalTradeAddress');
  if (!postal) return null;
  return {
    country: textAt(postal, 'CountryID'),
    lines: ['LineOne', 'LineTwo', 'LineThree'].map((name) => textAt(postal, name)),
    city: textAt(postal, 'CityName'),
    postcode: textAt(postal, 'PostcodeCode'),
    region: textAt(postal, 'CountrySubDivisionName'),
  };
}

function party(node: XmlElement | null): Party | null {
  if (!node) return null;
  const registrations = all(node, 'SpecifiedTaxRegistration', 'ID');
  const registration = (scheme: string) => registrations.find((id) => id.attributes.schemeID === scheme)?.text ?? null;
  const uri = first(node, 'URIUniversalCommunication', 'URIID');
  return {
    name: textAt(node, 'Name'),
    ids: [...all(node, 'ID'), ...all(node, 'GlobalID')].map((id) => id.text),
    legalId: textAt(node, 'SpecifiedLegalOrganization', 'ID'),
    vatId: registration('VA'),
    taxRegistrationId: registration('FC'),
    address: address(node),
    electronicAddress: first(node, 'URIUniversalCommunication') ? { value: uri?.text ?? null, scheme: attribute(uri, 'schemeID') } : null,
  };
}

const EMPTY_PARTY: Party = { name: null, ids: [], legalId: null, vatId: null, taxRegistrationId: null, address: null, electronicAddress: null };

function allowanceCharge(node: XmlElement, withVat: boolean): AllowanceCharge {
  return {
    charge: (textAt(node, 'ChargeIndicator', 'Indicator') ?? '').trim() === 'true',
    amount: textAt(node, 'ActualAmount'),
    baseAmount: textAt(node, 'BasisAmount'),
    vat: withVat ? vatCategory(all(node, 'CategoryTradeTax')) : null,
    reason: textAt(node, 'Reason'),
    reasonCode: textAt(node, 'ReasonCode'),
  };
}

const date = (node: XmlElement | null, ...steps: string[]) => textAt(node, ...steps, 'DateTimeString');

function line(node: XmlElement): Line {
  const settlement = first(node, 'SpecifiedLineTradeSettlement');
  const agreement = first(node, 'SpecifiedLineTradeAgreement');
  const quantity = first(node, 'SpecifiedLineTradeDelivery', 'BilledQuantity');
  const period = first(settlement, 'BillingSpecifiedPeriod');
  const product = first(node, 'SpecifiedTradeProduct');
  return {
    id: textAt(node, 'AssociatedDocumentLineDocument', 'LineID'),
    quantity: quantity?.text ?? null,
    unitCode: attribute(quantity, 'unitCode'),
    netAmount: textAt(settlement, 'SpecifiedTradeSettlementLineMonetarySummation', 'LineTotalAmount'),
    itemName: textAt(product, 'Name'),
    netPrice: textAt(agreement, 'NetPriceProductTradePrice', 'ChargeAmount'),
    grossPrice: textAt(agreement, 'GrossPriceProductTradePrice', 'ChargeAmount'),
    priceBaseQuantity: textAt(agreement, 'NetPriceProductTradePrice', 'BasisQuantity'),
    vat: vatCategory(all(settlement, 'ApplicableTradeTax')),
    taxCategoryCount: null,
    allowancesCharges: all(settlement, 'SpecifiedTradeAllowanceCharge').map((ac) => allowanceCharge(ac, false)),
    period: period ? { start: date(period, 'StartDateTime'), end: date(period, 'EndDateTime') } : null,
    standardIdSchemes: all(product, 'GlobalID').map((id) => attribute(id, 'schemeID')),
    classificationLists: all(product, 'DesignatedProductClassification', 'ClassCode').map((code) => attribute(code, 'listID')),
    attributes: all(product, 'ApplicableProductCharacteristic').map((c) => ({ name: textAt(c, 'Description'), value: textAt(c, 'Value') })),
  };
}

export function readCii(root: XmlElement): Invoice {
  const document = first(root, 'ExchangedDocument');
  const transaction = first(root, 'SupplyChainTradeTransaction');
  const agreement = first(transaction, 'ApplicableHeaderTradeAgreement');
  const delivery = first(transaction, 'ApplicableHeaderTradeDelivery');
  const settlement = first(transaction, 'ApplicableHeaderTradeSettlement');
  const summation = first(settlement, 'SpecifiedTradeSettlementHeaderMonetarySummation');
  const period = first(settlement, 'BillingSpecifiedPeriod');
  const breakdown = all(settlement, 'ApplicableTradeTax');
  const issueDate = all(document, 'IssueDateTime', 'DateTimeString').find((d) => d.attributes.format === '102');
  const amountOf = (name: string) => textAt(summation, name);
  return {
    syntax: 'cii',
    specification: textAt(root, 'ExchangedDocumentContext', 'GuidelineSpecifiedDocumentContextParameter', 'ID'),
    number: textAt(document, 'ID'),
    issueDate: issueDate?.text ?? null,
    typeCode: textAt(document, 'TypeCode'),
    typeCodeCount: document ? all(document, 'TypeCode').length : null,
    currency: textAt(settlement, 'InvoiceCurrencyCode'),
    taxCurrency: textAt(settlement, 'TaxCurrencyCode'),
    taxPointDate: breakdown.map((tax) => textAt(tax, 'TaxPointDate')).find((d) => d != null) ?? null,
    dueDate: date(settlement, 'SpecifiedTradePaymentTerms', 'DueDateDateTime'),
    buyerReference: textAt(agreement, 'BuyerReference'),
    purchaseOrder: textAt(agreement, 'BuyerOrderReferencedDocument', 'IssuerAssignedID'),
    taxPointDateCode: breakdown.map((tax) => textAt(tax, 'DueDateTypeCode')).find((d) => d != null) ?? null,
    seller: party(first(agreement, 'SellerTradeParty')) ?? EMPTY_PARTY,
    buyer: party(first(agreement, 'BuyerTradeParty')) ?? EMPTY_PARTY,
    taxRepresentative: party(first(agreement, 'SellerTaxRepresentativeTradeParty')),
    payee: party(first(settlement, 'PayeeTradeParty')),
    actualDeliveryDate: date(delivery, 'ActualDeliverySupplyChainEvent', 'OccurrenceDateTime'),
    deliverTo: address(first(delivery, 'ShipToTradeParty')),
    invoicingPeriod: period ? { start: date(period, 'StartDateTime'), end: date(period, 'EndDateTime'), descriptionCode: null } : null,
    paymentMeans: all(settlement, 'SpecifiedTradeSettlementPaymentMeans').map((means) => {
      const accounts = all(means, 'PayeePartyCreditorFinancialAccount');
      return {
        code: textAt(means, 'TypeCode'),
        accountIds: accounts.map((account) => textAt(account, 'IBANID') ?? textAt(account, 'ProprietaryID')),
        hasCreditTransfer: accounts.length > 0,
      };
    }),
    cardNumbers: all(settlement, 'SpecifiedTradeSettlementPaymentMeans', 'ApplicableTradeSettlementFinancialCard').map((card) => textAt(card, 'ID')),
    precedingInvoices: all(settlement, 'InvoiceReferencedDocument').map((ref) => textAt(ref, 'IssuerAssignedID')),
    supportingDocuments: all(agreement, 'AdditionalReferencedDocument').map((ref) => textAt(ref, 'IssuerAssignedID')),
    allowancesCharges: all(settlement, 'SpecifiedTradeAllowanceCharge').map((ac) => allowanceCharge(ac, true)),
    totals: summation
      ? {
        lineTotal: amountOf('LineTotalAmount'),
        allowanceTotal: amountOf('AllowanceTotalAmount'),
        chargeTotal: amountOf('ChargeTotalAmount'),
        taxBasisTotal: amountOf('TaxBasisTotalAmount'),
        taxTotals: all(summation, 'TaxTotalAmount').map((tax) => ({
          amount: tax.text,
          currency: attribute(tax, 'currencyID'),
          withBreakdown: true,
          subtotalTaxes: breakdown.map((group) => textAt(group, 'CalculatedAmount')),
        })),
        grandTotal: amountOf('GrandTotalAmount'),
        prepaid: amountOf('TotalPrepaidAmount'),
        rounding: amountOf('RoundingAmount'),
        duePayable: amountOf('DuePayableAmount'),
      }
      : null,
    vatBreakdown: breakdown.map((tax) => ({
      taxableAmount: textAt(tax, 'BasisAmount'),
      taxAmount: textAt(tax, 'CalculatedAmount'),
      vat: vatCategory([tax]),
      exemptionReason: textAt(tax, 'ExemptionReason'),
      exemptionReasonCode: textAt(tax, 'ExemptionReasonCode'),
    })),
    lines: all(transaction, 'IncludedSupplyChainTradeLineItem').map(line),
    amountElements: [],
  };
}
