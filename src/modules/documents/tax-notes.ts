// What a document prints under its totals for each tax group that is not standard-rated (contract §20
// "Tax notes"), in the document's language, when the invoice gives no exemption reason of its own; the
// XML's BT-120 carries the very same text (Z excepted: BR-Z-10 keeps a reason out of a zero-rated group,
// so its note is printed only). A translator edits the texts here.
//
// A note is chosen by the document's language, not by the issuer's country: a German business may bill
// in Spanish. So the exempt supplies cite the VAT Directive, which every member state's law accepts
// (Directive 2006/112/EC art. 226 (11): "reference to the applicable provision of this Directive, or to the
// corresponding national provision, or any other reference indicating that the supply ... is exempt"),
// never one country's code (a note citing the French CGI would be wrong on a German invoice in French).
// Sources, by category:
// - AE: the contract's words, art. 226 (11a) "Reverse charge" in each language's text of the Directive.
// - K: Directive art. 138(1). Worded after § 4 Nr. 1b UStG ("steuerfreie innergemeinschaftliche
//   Lieferung"), RD 1619/2012 art. 6.1 j) (a reference to the Directive, or any "indicación de que la
//   operación está exenta": "entrega intracomunitaria exenta"), D.L. 331/1993 art. 46 c. 2
//   (the annotation "operazione non imponibile"), the Belastingdienst's instruction for intra-community
//   supplies ("artikel 138, lid 1, Richtlijn 2006/112", in any language) and CIVA art. 36.º n.º 5 e).
// - G: Directive art. 146. Worded after § 4 Nr. 1a UStG ("Ausfuhrlieferung"), RD 1619/2012 art. 6.1 j)
//   (as for K: "exportación exenta"), D.P.R. 633/1972 art. 21 c. 6 b) ("operazione non imponibile"); nl, the
//   Dutch text of the Directive, whose Title IX, Chapter 6, holding art. 146, is headed "Vrijstellingen bij uitvoer"
//   (https://eur-lex.europa.eu/legal-content/NL/TXT/?uri=CELEX:32006L0112).
// - O: en, the VATEX code list's text of VATEX-EU-O ("Not subject to VAT"); it, D.P.R. 633/1972 art. 21
//   c. 6-bis b) ("operazione non soggetta", for supplies deemed made outside the EU); pt, the tax
//   authority's code M99 ("não sujeito"); de, the Umsatzsteuer-Voranmeldung's line Kz 45 "Übrige nicht
//   steuerbare Umsätze (Leistungsort nicht im Inland)" (the BMF's form, as GnuCash's German tax report
//   reproduces it: Gnucash/gnucash libgnucash/tax/us/txf-de_DE.scm); es, the AEAT's own words in its
//   VERI*FACTU list L9 (CalificacionOperacion N1 "Operación No Sujeta artículo 7, 14, otros", N2
//   "Operación No Sujeta por Reglas de localización"), without the reason, which varies (invopop/gobl
//   addons/es/verifactu/extensions.go); fr and nl, the Directive's own words for a transaction outside its scope,
//   the negation of art. 2 (1) ("Sont soumises à la TVA les opérations suivantes", "De volgende handelingen zijn aan
//   de BTW onderworpen") as art. 3 (1) words it ("ne sont pas soumises à la TVA les opérations suivantes", "zijn de
//   volgende handelingen niet aan BTW onderworpen"; https://eur-lex.europa.eu/legal-content/FR/TXT/?uri=CELEX:32006L0112
//   and .../NL/TXT/?uri=CELEX:32006L0112), "btw" in the lower case the Dutch notes here use throughout.
// - Z: no law asks for a mention (a zero rate is no exemption). en, the name of code Z in UNTDID 5305,
//   the EN 16931 category list ("Zero rated goods"; stephanstapel/ZUGFeRD-csharp ZUGFeRD/TaxCategoryCodes.cs);
//   de, the BMF's name of the 0 % rate of § 12 Abs. 3 UStG ("Nullsteuersatz": BMF-Schreiben of 27.02.2023,
//   III C 2 - S 7220/22/10002 :010, BStBl 2023 I S. 351, https://datenbank.nwb.de/Dokument/Anzeige/Doi/GAAAJ-32171;
//   UStAE 12.18); es, the Spanish name of the 0 % rate ("tipo del 0 por ciento", Real Decreto-ley 20/2022 art. 72,
//   BOE of 28.12.2022; "tipo del 0 %" in the DGT's binding ruling V0111-23, as quoted by
//   https://aptta.org/el-iva-al-cero-por-ciento-y-la-prorrata/). The Directive names no zero rate (it speaks of an
//   "exemption with deductibility of the VAT paid at the preceding stage"), so where a national authority names the
//   rate its name is taken: fr, the name the French tax code and its administration give the 0 % rate ("La taxe sur
//   la valeur ajoutée est perçue au taux de 0 %", CGI art. 278 ter as worded by loi n° 2020-1721 art. 46; "Le taux de
//   0 % est applicable", BOFiP BOI-TVA-LIQ-30-10-55-20220209 § 5, https://bofip.impots.gouv.fr/bofip/12331-PGP.html/identifiant%3DBOI-TVA-LIQ-30-10-55-20220209);
//   nl, the Belastingdienst's name ("U hanteert het 0%-tarief als u bijvoorbeeld goederen levert aan het buitenland",
//   "Goederen met 0% btw", https://www.belastingdienst.nl/wps/wcm/connect/bldcontentnl/belastingdienst/zakelijk/btw/tarieven_en_vrijstellingen/goederen_0_btw/),
//   the short name beating the Wet OB 1968's "nihil" (art. 9 (2) b); pt, the name Portuguese law gives an exemption
//   with deduction ("isenção de Imposto sobre o Valor Acrescentado (IVA) com direito à dedução (taxa zero)", Lei
//   n.º 17/2023 of 14 April, art. 1.º, Diário da República 1.ª série n.º 74, as https://vlex.pt/vid/lei-n-17-2023-943207224
//   and https://agricultura.azores.gov.pt/noticias/lei-n-o-17-2023-de-14-de-abril-procede-a-aplicacao-transitoria-de-isencao-de-iva-a-certos-produtos-alimentares
//   reproduce it); it, Italian law names no zero rate either, so the words it zero-rates a supply with: "sono esenti
//   dall'imposta sul valore aggiunto, con diritto alla detrazione dell'imposta" (D.L. 19 maggio 2020, n. 34, art. 124
//   c. 2, as robertolofaro/decretorilancio Titolo06/Titolo06_Art124.txt reproduces it), in the singular of a note.
//   The Italian, French, Dutch and Portuguese texts of the Directive's art. 110 were not found in a readable copy.
// - E: art. 226 (11) "any other reference indicating that the supply is exempt"; it, D.P.R. 633/1972
//   art. 21 c. 6 c) ("operazione esente"); es, RD 1619/2012 art. 6.1 j) ("indicación de que la operación
//   está exenta"). The exempting article varies (Directive art. 132, 135, ...), so none is named.
// The Italian annotations of art. 21 c. 6 b) and c) and c. 6-bis b): the statute is at
// https://www.normattiva.it/uri-res/N2Ls?urn:nir:presidente.repubblica:decreto:1972-10-26;633~art21; its
// wording of the annotations as quoted by https://www.ecnews.it/fiscale/?p=43374 (c. 6: "operazione non
// imponibile", "operazione esente") and http://studiosalmaso.com/fattura-ricevuta-corrispettivi/74-diciture-in-fattura-per-i-casi-particolari.html
// (c. 6-bis: "operazione non soggetta" for supplies to parties established outside the EU).
// A small business's note (§20 "Small businesses") is the issuer country's wording, further below.
import type { Language } from './labels/language';
import type { TaxCategory } from './value';

type Notes = Record<Language, string>;

export const TAX_NOTES: Readonly<Record<Exclude<TaxCategory, 'S'>, Notes>> = {
  AE: {
    en: 'Reverse charge', de: 'Steuerschuldnerschaft des Leistungsempfängers', fr: 'Autoliquidation', es: 'Inversión del sujeto pasivo',
    it: 'Inversione contabile', nl: 'Btw verlegd', pt: 'Autoliquidação',
  },
  K: {
    en: 'Exempt intra-Community supply (Article 138(1) of Directive 2006/112/EC)',
    de: 'Steuerfreie innergemeinschaftliche Lieferung (Art. 138 Abs. 1 der Richtlinie 2006/112/EG)',
    fr: 'Livraison intracommunautaire exonérée de TVA (article 138, paragraphe 1, de la directive 2006/112/CE)',
    es: 'Entrega intracomunitaria exenta (artículo 138, apartado 1, de la Directiva 2006/112/CE)',
    it: 'Operazione non imponibile, cessione intracomunitaria (articolo 138, paragrafo 1, della direttiva 2006/112/CE)',
    nl: 'Intracommunautaire levering (artikel 138, lid 1, van Richtlijn 2006/112/EG)',
    pt: 'Transmissão intracomunitária isenta (artigo 138.º, n.º 1, da Diretiva 2006/112/CE)',
  },
  G: {
    en: 'Exempt export outside the EU (Article 146 of Directive 2006/112/EC)',
    de: 'Steuerfreie Ausfuhrlieferung (Art. 146 der Richtlinie 2006/112/EG)',
    fr: 'Exportation exonérée de TVA (article 146 de la directive 2006/112/CE)',
    es: 'Exportación exenta (artículo 146 de la Directiva 2006/112/CE)',
    it: 'Operazione non imponibile, esportazione (articolo 146 della direttiva 2006/112/CE)',
    nl: 'Uitvoer buiten de EU (artikel 146 van Richtlijn 2006/112/EG)',
    pt: 'Exportação isenta (artigo 146.º da Diretiva 2006/112/CE)',
  },
  O: {
    en: 'Not subject to VAT', de: 'Nicht steuerbar', fr: 'Non soumis à la TVA', es: 'Operación no sujeta', it: 'Operazione non soggetta',
    nl: 'Niet aan btw onderworpen', pt: 'Não sujeito a IVA',
  },
  Z: {
    en: 'Zero-rated', de: 'Nullsteuersatz', fr: 'Taux de 0 %', es: 'Tipo del 0 %',
    it: "Esente dall'imposta sul valore aggiunto, con diritto alla detrazione dell'imposta", nl: '0%-tarief', pt: 'Taxa zero',
  },
  E: {
    en: 'Exempt from VAT', de: 'Steuerfrei', fr: 'Exonéré de TVA', es: 'Exento de IVA', it: 'Operazione esente', nl: 'Vrijgesteld van btw',
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
 * language: the national scheme's own wording where the law names one (in its language, and in English
 * beside it), the Directive's otherwise. The Directive's texts name the scheme as each language's version
 * of the Directive titles it (Title XII, Chapter 1: "Special scheme for small enterprises",
 * "Sonderregelung für Kleinunternehmen", "régime particulier des petites entreprises", "régimen especial
 * de las pequeñas empresas", "regime speciale delle piccole imprese", "bijzondere regeling voor kleine
 * ondernemingen", "regime especial das pequenas empresas") and its exemption as they call it ("franchise",
 * "franquicia", "franchigia", "vrijstelling", "isenção").
 */
const SMALL_BUSINESS_NOTES: Readonly<Record<string, Texts>> = {
  // § 19 UStG (Kleinunternehmer): the contract's wording; the English gives the Directive's name of the scheme.
  DE: {
    de: 'Gemäß § 19 UStG wird keine Umsatzsteuer berechnet.',
    en: 'No VAT is charged under § 19 UStG (special scheme for small enterprises).',
  },
  // § 6 Abs. 1 Z 27 UStG 1994 (Kleinunternehmer): the usual wording of the note on the exemption that § 11 asks for.
  AT: {
    de: 'Umsatzsteuerbefreit – Kleinunternehmer gem. § 6 Abs. 1 Z 27 UStG 1994',
    en: 'VAT exempt: small enterprise under § 6 (1) no. 27 UStG 1994 (Austria).',
  },
  // CGI art. 293 B (franchise en base): the statutory mention, which the contract quotes.
  FR: {
    fr: 'TVA non applicable, art. 293 B du CGI',
    en: 'VAT not applicable, art. 293 B of the French General Tax Code (CGI).',
  },
};

const DIRECTIVE_SMALL_BUSINESS_NOTE: Texts = {
  en: 'VAT exempt: special scheme for small enterprises (Article 284 of Directive 2006/112/EC).',
  de: 'Umsatzsteuerbefreit: Sonderregelung für Kleinunternehmen (Art. 284 der Richtlinie 2006/112/EG).',
  fr: 'Franchise de TVA : régime particulier des petites entreprises (article 284 de la directive 2006/112/CE).',
  es: 'Franquicia del IVA: régimen especial de las pequeñas empresas (artículo 284 de la Directiva 2006/112/CE).',
  it: 'Franchigia IVA: regime speciale delle piccole imprese (articolo 284 della direttiva 2006/112/CE).',
  nl: 'Vrijgesteld van btw: bijzondere regeling voor kleine ondernemingen (artikel 284 van Richtlijn 2006/112/EG).',
  pt: 'Isento de IVA: regime especial das pequenas empresas (artigo 284.º da Diretiva 2006/112/CE).',
};

/**
 * The note a small business of `country` prints, in `language`: its national wording in that language,
 * else the Directive's in that language (a German small business billing in Italian says so in Italian),
 * else English.
 */
export function smallBusinessNote(country: string | null | undefined, language: string): string {
  const national = SMALL_BUSINESS_NOTES[country ?? ''];
  return national?.[language] ?? DIRECTIVE_SMALL_BUSINESS_NOTE[language] ?? national?.en ?? DIRECTIVE_SMALL_BUSINESS_NOTE.en!;
}
