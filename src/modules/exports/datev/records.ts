// What the DATEV export reads of each record (read.ts) and the bookings it makes of them (bookings.ts).

export type TaxCategory = 'S' | 'Z' | 'E' | 'AE' | 'K' | 'G' | 'O';

/** One tax group of a document: what it is charged on and the tax, in minor units. */
export type TaxGroup = { category: TaxCategory; rate: number; taxable_amount: number; tax_amount: number };

/** The parties as the document was sent: who bills (its country, whether it is a small business) and who pays. */
export type Parties = {
  clientName: string;
  buyerCountry: string | null;
  buyerVatId: string | null;
  issuerCountry: string | null;
  smallBusiness: boolean;
};

/** A sent invoice (or, with `date` its void's, the reversal of one), or a credit note. */
export type DocumentRecord = Parties & {
  id: string;
  number: string;
  /** The number of the invoice a credit note corrects. */
  invoiceNumber: string | null;
  date: string;
  currency: string;
  taxableAmount: number;
  tax: number;
  breakdown: TaxGroup[] | null;
};

/** Money received for an invoice (a payment), or given back (a refund). */
export type MoneyRecord = { id: string; date: string; amount: number; currency: string; invoiceNumber: string; clientName: string };

export type ExpenseRecord = {
  id: string;
  date: string;
  amount: number;
  currency: string;
  category: string;
  vendor: string | null;
  description: string | null;
  reference: string | null;
  breakdown: TaxGroup[] | null;
};

/** One line of the Buchungsstapel. */
export type Booking = {
  /** Minor units of `currency`, more than zero. */
  amount: number;
  currency: string;
  exponent: number;
  /** The amount in the header's currency when `currency` is another: DATEV's Kurs, Basis-Umsatz and its WKZ. */
  base: { amount: number; currency: string; exponent: number; rate: string } | null;
  /** Soll or Haben, of `account`. */
  side: 'S' | 'H';
  account: string;
  contra: string;
  taxKey: string | null;
  /** `YYYY-MM-DD` */
  date: string;
  /** Belegfeld 1: the document's number. */
  document: string;
  /** Belegfeld 2: the invoice a credit note corrects. */
  document2: string | null;
  text: string;
  /** The buyer's VAT id, for a supply to another EU country (the EC sales list). */
  euVatId: string | null;
};
