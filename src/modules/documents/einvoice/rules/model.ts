// The EN 16931 semantic model as read from a CII or UBL document, just far enough for the business rules: each
// business term (BT-…) as the text the document wrote (null when absent), so the decimal rules can count digits as
// written and the presence rules can tell an empty element from a missing one. The two readers (read-cii.ts,
// read-ubl.ts) fill it; the rules (mandatory.ts, calculations.ts, vat-categories.ts, decimals.ts) judge it alone.
// A few terms no rule reads are here for receiving (src/modules/inbound-documents/read-xml.ts): the address lines,
// the due date, the buyer and order references, a price's base quantity.

/** A value as written in the document, or null when the element (or attribute) is absent. */
export type Written = string | null;

export type Address = {
  /** BT-40 / BT-55 / BT-69 / BT-80. */
  country: Written;
  /** Read for receiving only: BT-35, BT-36, BT-162 (and the buyer's), BT-37, BT-38, BT-39. */
  lines: Written[];
  city: Written;
  postcode: Written;
  region: Written;
};

export type Party = {
  /** BT-27 / BT-44 / BT-59 / BT-62. */
  name: Written;
  /** BT-29 / BT-46 / BT-60: party identifiers (a UBL PartyIdentification with scheme SEPA is not one). */
  ids: Written[];
  /** BT-30 / BT-47 / BT-61: legal registration identifier. */
  legalId: Written;
  /** BT-31 / BT-48 / BT-63: VAT identifier. */
  vatId: Written;
  /** BT-32: tax registration identifier other than VAT. */
  taxRegistrationId: Written;
  /** BG-5 / BG-8 / BG-12; null when absent. */
  address: Address | null;
  /** BT-34 / BT-49 with its scheme (BT-34-1 / BT-49-1); null when absent. */
  electronicAddress: { value: Written; scheme: Written } | null;
};

/** A VAT category as a line, allowance, charge or breakdown states it (BT-151/152, BT-95/96, BT-102/103, BT-118/119). */
export type VatCategory = { code: Written; rate: Written };

export type AllowanceCharge = {
  charge: boolean;
  /** BT-92 / BT-99 / BT-136 / BT-141. */
  amount: Written;
  /** BT-93 / BT-100 / BT-137 / BT-142. */
  baseAmount: Written;
  /** Document level only (BT-95 / BT-102); null when there is no VAT category. */
  vat: VatCategory | null;
  reason: Written;
  reasonCode: Written;
};

export type Line = {
  /** BT-126. */
  id: Written;
  /** BT-129 and its unit (BT-130). */
  quantity: Written;
  unitCode: Written;
  /** BT-131. */
  netAmount: Written;
  /** BT-153. */
  itemName: Written;
  /** BT-146, BT-148. */
  netPrice: Written;
  grossPrice: Written;
  /** BT-149, the quantity the net price is for (read for receiving only). */
  priceBaseQuantity: Written;
  /** BT-151 / BT-152; null when the line has no VAT category. */
  vat: VatCategory | null;
  /** UBL only: how many tax categories the line's item has (UBL-SR-48); null in CII. */
  taxCategoryCount: number | null;
  allowancesCharges: AllowanceCharge[];
  /** BG-26. */
  period: { start: Written; end: Written } | null;
  /** BT-157's scheme per identifier, BT-158's list per classification, BG-32's name and value. */
  standardIdSchemes: Written[];
  classificationLists: Written[];
  attributes: { name: Written; value: Written }[];
};

export type VatBreakdown = {
  /** BT-116, BT-117. */
  taxableAmount: Written;
  taxAmount: Written;
  /** BT-118, BT-119 (null category when there is no VAT category). */
  vat: VatCategory | null;
  /** BT-120, BT-121. */
  exemptionReason: Written;
  exemptionReasonCode: Written;
};

export type Invoice = {
  syntax: 'cii' | 'ubl';
  /** BT-24, BT-1, BT-2, BT-3, BT-5, BT-6. */
  specification: Written;
  number: Written;
  issueDate: Written;
  typeCode: Written;
  currency: Written;
  taxCurrency: Written;
  /** CII only: how many type codes its ExchangedDocument has (CII-SR-014); null without one, and in UBL. */
  typeCodeCount: number | null;
  /** BT-7 and BT-8: the rules only ask whether both are given. */
  taxPointDate: Written;
  taxPointDateCode: Written;
  seller: Party;
  buyer: Party;
  /** BG-11, BG-10 (null when absent). */
  taxRepresentative: Party | null;
  payee: Party | null;
  /** BT-9, BT-10, BT-13 (read for receiving only). */
  dueDate: Written;
  buyerReference: Written;
  purchaseOrder: Written;
  /** BT-72, BG-15. */
  actualDeliveryDate: Written;
  deliverTo: Address | null;
  /** BG-14 (null when absent). */
  invoicingPeriod: { start: Written; end: Written; descriptionCode: Written } | null;
  /** BG-16: BT-81 with the payment account identifiers (BT-84) given. */
  paymentMeans: { code: Written; accountIds: Written[]; hasCreditTransfer: boolean }[];
  /** BT-87 per card. */
  cardNumbers: Written[];
  /** BT-25 per preceding invoice reference (BG-3). */
  precedingInvoices: Written[];
  /** BT-122 per supporting document (BG-24). */
  supportingDocuments: Written[];
  allowancesCharges: AllowanceCharge[];
  totals: {
    /** BT-106 … BT-115. */
    lineTotal: Written;
    allowanceTotal: Written;
    chargeTotal: Written;
    taxBasisTotal: Written;
    /**
     * Every BT-110 / BT-111 with its currency, whether it sums a VAT breakdown (a UBL TaxTotal may not), and the
     * tax amounts (BT-117) it sums: its own TaxSubtotals in UBL, the whole breakdown in CII. A UBL TaxTotal that
     * breaks the tax down without stating its amount is here too, with amount and currency null.
     */
    taxTotals: { amount: Written; currency: Written; withBreakdown: boolean; subtotalTaxes: Written[] }[];
    grandTotal: Written;
    prepaid: Written;
    rounding: Written;
    duePayable: Written;
  } | null;
  vatBreakdown: VatBreakdown[];
  lines: Line[];
  /** UBL only: every amount element UBL-DT-01 reads (names ending in Amount, but prices), as written. */
  amountElements: Written[];
};
