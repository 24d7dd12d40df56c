// What a document prints under its totals for each tax group that is not standard-rated (contract §20
// "Tax notes"), in the document's language, when the invoice gives no exemption reason of its own; the
// XML's BT-120 carries the very same text (Z excepted: BR-Z-10 keeps a reason out of a zero-rated group,
// so its note is printed only). The AE texts are the contract's; the others follow the wording the
// national rules ask for (§ 4 Nr. 1a/1b UStG, CGI art. 262 I and 262 ter I, VAT Directive art. 138, 146).
import type { Language } from './labels/language';
import type { TaxCategory } from './value';

type Notes = Record<Language, string>;

export const TAX_NOTES: Readonly<Record<Exclude<TaxCategory, 'S'>, Notes>> = {
  AE: {
    en: 'Reverse charge', de: 'Steuerschuldnerschaft des Leistungsempfängers', fr: 'Autoliquidation', es: 'Inversión del sujeto pasivo',
    it: 'Inversione contabile', nl: 'Btw verlegd', pt: 'Autoliquidação',
  },
  K: {
    en: 'Intra-community supply', de: 'Steuerfreie innergemeinschaftliche Lieferung', fr: 'Exonération de TVA, article 262 ter I du CGI',
    es: 'Entrega intracomunitaria exenta', it: 'Cessione intracomunitaria non imponibile', nl: 'Intracommunautaire levering', pt: 'Transmissão intracomunitária isenta',
  },
  G: {
    en: 'Export outside the EU', de: 'Steuerfreie Ausfuhrlieferung', fr: 'Exonération de TVA, article 262 I du CGI', es: 'Exportación exenta',
    it: 'Non imponibile, esportazione', nl: 'Export buiten de EU', pt: 'Exportação isenta',
  },
  O: {
    en: 'Not subject to VAT', de: 'Nicht steuerbar', fr: 'Non soumis à la TVA', es: 'No sujeto a IVA', it: 'Fuori campo IVA',
    nl: 'Niet onderworpen aan btw', pt: 'Não sujeito a IVA',
  },
  Z: {
    en: 'Zero-rated', de: 'Steuersatz 0 %', fr: 'Taux zéro', es: 'Tipo cero', it: 'Aliquota zero', nl: 'Nultarief', pt: 'Taxa zero',
  },
  E: {
    en: 'Exempt from VAT', de: 'Steuerfrei', fr: 'Exonéré de TVA', es: 'Exento de IVA', it: 'Esente IVA', nl: 'Vrijgesteld van btw',
    pt: 'Isento de IVA',
  },
};

/** The default note of `category` in `language`; null for S, which needs none. */
export function defaultTaxNote(category: TaxCategory, language: Language): string | null {
  return category === 'S' ? null : TAX_NOTES[category][language];
}
