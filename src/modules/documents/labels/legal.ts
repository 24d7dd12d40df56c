// The labels of a document's legal mentions (contract §20), over the ones every document shares: the
// parties' numbers under their own names (a VAT number is never printed as a tax number, nor the
// reverse), the date or period of supply, the payment account and reference, the tax breakdown.
import { type Language, languageOf } from './language';

// This table still keeps every language beside each label, as the labels did before they moved into
// one file per language (en.ts, de.ts, …); it is the next to move there.
type Label = string | ((...parts: any[]) => string);
type Shape<L extends Label> = L extends string ? string : L;
type LabelTable<T extends Record<string, Label>> = { [K in keyof T]: Record<Language, T[K]> };
const defineLabels = <T extends Record<string, Label>>(
  table: { [K in keyof T]: { en: T[K] } & Record<Exclude<Language, 'en'>, NoInfer<Shape<T[K]>>> },
): LabelTable<{ [K in keyof T]: Shape<T[K]> }> => table as LabelTable<{ [K in keyof T]: Shape<T[K]> }>;
function labelsIn<T extends Record<string, Label>>(table: LabelTable<T>, language: Language): T {
  const labels = {} as T;
  for (const name of Object.keys(table) as (keyof T)[]) labels[name] = table[name][language];
  return labels;
}

export const legalLabels = defineLabels({
  vatId: { en: 'VAT No.', de: 'USt-IdNr.', fr: 'N° TVA', es: 'NIF-IVA', it: 'P. IVA', nl: 'Btw-id', pt: 'N.º IVA' },
  taxNumber: { en: 'Tax ID', de: 'Steuernummer', fr: 'N° fiscal', es: 'NIF', it: 'Codice fiscale', nl: 'Fiscaal nummer', pt: 'NIF' },
  registrationId: { en: 'Registration No.', de: 'Registernummer', fr: 'Immatriculation', es: 'N.º de registro', it: 'N. registro imprese', nl: 'Registratienummer', pt: 'N.º de registo' },
  peppolId: { en: 'Peppol ID', de: 'Peppol-ID', fr: 'ID Peppol', es: 'ID Peppol', it: 'ID Peppol', nl: 'Peppol-ID', pt: 'ID Peppol' },
  buyerReference: { en: 'Buyer reference', de: 'Käuferreferenz', fr: 'Référence acheteur', es: 'Referencia del comprador', it: 'Riferimento acquirente', nl: 'Referentie koper', pt: 'Referência do comprador' },
  purchaseOrder: { en: 'Purchase order', de: 'Bestellnummer', fr: 'Bon de commande', es: 'Pedido', it: 'Ordine', nl: 'Inkooporder', pt: 'Nota de encomenda' },
  serviceDate: { en: 'Date of supply', de: 'Leistungsdatum', fr: 'Date de la prestation', es: 'Fecha de la prestación', it: 'Data della prestazione', nl: 'Leveringsdatum', pt: 'Data da prestação' },
  servicePeriod: { en: 'Period of supply', de: 'Leistungszeitraum', fr: 'Période de la prestation', es: 'Período de la prestación', it: 'Periodo della prestazione', nl: 'Leveringsperiode', pt: 'Período da prestação' },
  serviceDateIsIssueDate: {
    en: 'Date of supply: the invoice date', de: 'Leistungsdatum entspricht Rechnungsdatum', fr: 'Date de la prestation : date de la facture',
    es: 'Fecha de la prestación: la fecha de la factura', it: 'Data della prestazione: data della fattura', nl: 'Leveringsdatum is gelijk aan de factuurdatum',
    pt: 'Data da prestação: a data da fatura',
  },
  payment: { en: 'Payment', de: 'Zahlung', fr: 'Paiement', es: 'Pago', it: 'Pagamento', nl: 'Betaling', pt: 'Pagamento' },
  iban: { en: 'IBAN', de: 'IBAN', fr: 'IBAN', es: 'IBAN', it: 'IBAN', nl: 'IBAN', pt: 'IBAN' },
  bic: { en: 'BIC', de: 'BIC', fr: 'BIC', es: 'BIC', it: 'BIC', nl: 'BIC', pt: 'BIC' },
  paymentReference: { en: 'Payment reference', de: 'Verwendungszweck', fr: 'Référence de paiement', es: 'Referencia de pago', it: 'Causale', nl: 'Betalingskenmerk', pt: 'Referência de pagamento' },
  payBy: {
    en: (amount: string, date: string) => `Please pay ${amount} by ${date}.`,
    de: (amount: string, date: string) => `Bitte zahlen Sie ${amount} bis zum ${date}.`,
    fr: (amount: string, date: string) => `Merci de régler ${amount} avant le ${date}.`,
    es: (amount: string, date: string) => `Por favor, pague ${amount} antes del ${date}.`,
    it: (amount: string, date: string) => `Si prega di pagare ${amount} entro il ${date}.`,
    nl: (amount: string, date: string) => `Gelieve ${amount} te betalen vóór ${date}.`,
    pt: (amount: string, date: string) => `Por favor, pague ${amount} até ${date}.`,
  },
  beforeDiscount: { en: 'before discount', de: 'vor Rabatt', fr: 'avant remise', es: 'antes del descuento', it: 'prima dello sconto', nl: 'voor korting', pt: 'antes do desconto' },
  taxableAmount: { en: 'on', de: 'auf', fr: 'sur', es: 'sobre', it: 'su', nl: 'over', pt: 'sobre' },
  netAfterDiscount: { en: 'Net after discount', de: 'Netto nach Rabatt', fr: 'Net après remise', es: 'Neto tras descuento', it: 'Netto dopo lo sconto', nl: 'Netto na korting', pt: 'Líquido após desconto' },
});

export type LegalLabels = ReturnType<typeof legalLabelsIn>;

/** The legal mentions' labels in the language of `locale`. */
export const legalLabelsIn = (locale: string) => labelsIn(legalLabels, languageOf(locale));
