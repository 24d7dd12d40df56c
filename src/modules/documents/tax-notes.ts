// What a document prints under its totals for each tax group that is not standard-rated (contract §20
// "Tax notes"), in the document's language, when the invoice gives no exemption reason of its own; the
// XML's BT-120 carries the very same text (Z excepted: BR-Z-10 keeps a reason out of a zero-rated group,
// so its note is printed only). The AE texts are the contract's; the others follow the wording the
// national rules ask for (§ 4 Nr. 1a/1b UStG, CGI art. 262 I and 262 ter I, VAT Directive art. 138, 146).
// A small business's note (§20 "Small businesses") is the issuer country's wording, below. A translator
// edits the texts here.
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

type Texts = Readonly<Record<string, string>>;

/** A document's language for these notes: the primary subtag of its locale (`de-AT` → `de`). */
export const languageOf = (locale: string | null | undefined): string => (locale ?? 'en').split('-')[0]!.toLowerCase();

/**
 * The note of a small business (VAT Directive art. 284) by the issuer's country and the document's
 * language: the national wording where the law names one, the Directive's otherwise.
 */
const SMALL_BUSINESS_NOTES: Readonly<Record<string, Texts>> = {
  // §19 UStG (Kleinunternehmer).
  DE: {
    de: 'Gemäß § 19 UStG wird keine Umsatzsteuer berechnet.',
    en: 'No VAT is charged under § 19 UStG (small business scheme).',
  },
  // § 6 Abs. 1 Z 27 UStG 1994 (Kleinunternehmer).
  AT: {
    de: 'Umsatzsteuerbefreit – Kleinunternehmer gem. § 6 Abs. 1 Z 27 UStG',
    en: 'VAT exempt: small business under § 6 (1) no. 27 UStG (Austria).',
  },
  // CGI art. 293 B (franchise en base).
  FR: {
    fr: 'TVA non applicable, art. 293 B du CGI',
    en: 'VAT not applicable, art. 293 B of the French General Tax Code (CGI).',
  },
};

const DIRECTIVE_SMALL_BUSINESS_NOTE: Texts = {
  en: 'VAT exempt: small business scheme (Article 284 of Directive 2006/112/EC).',
  de: 'Umsatzsteuerbefreit: Kleinunternehmerregelung (Art. 284 der Richtlinie 2006/112/EG).',
  fr: 'Exonération de TVA : régime de franchise des petites entreprises (art. 284 de la directive 2006/112/CE).',
};

/** The text in `language`, else English (as every label falls back). */
const inLanguage = (texts: Texts, language: string) => texts[language] ?? texts.en!;

/** The note a small business of `country` prints, in `language` (English where it has none in that language). */
export function smallBusinessNote(country: string | null | undefined, language: string): string {
  return inLanguage(SMALL_BUSINESS_NOTES[country ?? ''] ?? DIRECTIVE_SMALL_BUSINESS_NOTE, language);
}
