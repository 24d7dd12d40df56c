// The default tax notes (BT-120, and what the page and the PDF print under the totals), by category and
// by the document's language, and the note a small business prints (§20): one table, so the engine,
// the e-invoice and the printed document say the same words. A translator edits the texts here.
import type { TaxCategory } from './totals';

/** A document's language: the primary subtag of its locale (`de-AT` → `de`). */
export const languageOf = (locale: string | null | undefined): string => (locale ?? 'en').split('-')[0]!.toLowerCase();

type Texts = Readonly<Record<string, string>>;

/** The exemption reason each category takes by default, by language (`en` always present). */
export const CATEGORY_NOTES: Readonly<Partial<Record<TaxCategory, Texts>>> = {
  // The wording the contract quotes (§20).
  AE: {
    en: 'Reverse charge', de: 'Steuerschuldnerschaft des Leistungsempfängers', fr: 'Autoliquidation', es: 'Inversión del sujeto pasivo',
    it: 'Inversione contabile', nl: 'Btw verlegd', pt: 'Autoliquidação',
  },
  K: { en: 'Intra-community supply' },
  G: { en: 'Export outside the EU' },
  O: { en: 'Not subject to VAT' },
};

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

/** The default exemption reason of `category` in `language`, or null for a category that has none (S, Z, E). */
export function categoryNote(category: TaxCategory, language: string): string | null {
  const texts = CATEGORY_NOTES[category];
  return texts ? inLanguage(texts, language) : null;
}
