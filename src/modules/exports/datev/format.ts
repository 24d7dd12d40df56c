// The DATEV format (EXTF), version 700, data category 21 "Buchungsstapel", format version 13, as DATEV describes
// it on developer.datev.de (DATEV-Format, "Einstieg" and "Formate/Buchungsstapel"): a CSV file, fields separated
// by `;`, every line ended by CR LF, text fields in double quotes (a quote inside doubled, no control
// characters), numbers with a decimal comma and no thousands separator. Line 1 is the header (31 fields), line 2
// the column headings, then one line per booking (125 fields). The file is Windows-1252 (cp1252.ts).
import type { Booking } from './records';

/** A text field: quoted, its quotes doubled, control characters (which DATEV refuses) as spaces, at most `max` long. */
export function text(value: string, max: number): string {
  const clean = value.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim().slice(0, max);
  return `"${clean.replace(/"/g, '""')}"`;
}

/** Minor units as DATEV's amount: "1234,56", always two decimals, never a sign (the side says it). */
export function amount(minor: number, exponent: number): string {
  let cents = Math.abs(minor);
  // DATEV's amounts have exactly two decimals (^\d{1,10},\d{2}$): a currency without minor units gains
  // ",00"; one with three (KWD, BHD, …) is rounded half away from zero to two.
  if (exponent === 0) cents *= 100;
  else if (exponent === 3) cents = Math.floor((cents + 5) / 10);
  return `${Math.floor(cents / 100)},${String(cents % 100).padStart(2, '0')}`;
}

/** `YYYY-MM-DD` as the booking's Belegdatum: `DDMM`; the year is the header's. */
export const ddmm = (date: string) => `${date.slice(8, 10)}${date.slice(5, 7)}`;

/** `YYYY-MM-DD` as the header's dates: `YYYYMMDD`. */
export const yyyymmdd = (date: string) => date.replace(/-/g, '');

/**
 * Belegfeld 1, the key DATEV matches open items by: letters, digits and `$ & % * + - /` only, at most 36
 * characters (format version 13). Other characters (an invoice prefix may use `_ . #`) are left out.
 */
export const documentField = (value: string) => value.replace(/[^A-Za-z0-9$&%*+\-/]/g, '').slice(-36);

export type HeaderFields = {
  /** The moment the file was made (UTC). */
  created: Date;
  consultantNumber: number;
  clientNumber: number;
  /** `YYYY-MM-DD` */
  fiscalYearStart: string;
  from: string;
  to: string;
  currency: string;
  chartCode: '03' | '04';
};

/** Line 1, its 31 fields in DATEV's order. */
export function headerLine(h: HeaderFields): string {
  const created = h.created.toISOString().replace(/\D/g, '').slice(0, 17); // YYYYMMDDHHMMSSmmm
  const label = `Export ${h.from.slice(8, 10)}.${h.from.slice(5, 7)}.-${h.to.slice(8, 10)}.${h.to.slice(5, 7)}.${h.to.slice(0, 4)}`;
  return [
    '"EXTF"', // 1 DATEV-Formatkennzeichen: made outside DATEV
    '700', // 2 Versionsnummer of the header
    '21', // 3 Formatkategorie: Buchungsstapel
    '"Buchungsstapel"', // 4 Formatname
    '13', // 5 Formatversion
    created, // 6 Erzeugt am
    '', // 7 Importiert (set by DATEV)
    '"RE"', // 8 Herkunft
    '""', // 9 Exportiert von
    '""', // 10 Importiert von (set by DATEV)
    String(h.consultantNumber), // 11 Beraternummer
    String(h.clientNumber), // 12 Mandantennummer
    yyyymmdd(h.fiscalYearStart), // 13 WJ-Beginn
    '4', // 14 Sachkontenlänge: every account here has 4 digits
    yyyymmdd(h.from), // 15 Datum vom
    yyyymmdd(h.to), // 16 Datum bis
    text(label, 30), // 17 Bezeichnung of the batch
    '""', // 18 Diktatkürzel
    '1', // 19 Buchungstyp: Finanzbuchführung
    '0', // 20 Rechnungslegungszweck: none in particular
    '0', // 21 Festschreibung: not fixed, so the accountant can review before fixing
    text(h.currency, 3), // 22 WKZ
    '', // 23 reserved
    '""', // 24 Derivatskennzeichen
    '', // 25 reserved
    '', // 26 reserved
    `"${h.chartCode}"`, // 27 Sachkontenrahmen (SKR)
    '', // 28 Branchenlösungs-ID
    '', // 29 reserved
    '""', // 30 reserved
    '""', // 31 Anwendungsinformation
  ].join(';');
}

const pairs = (name: string, count: number, art: string, inhalt: string) =>
  Array.from({ length: count }, (_, i) => [`${name}${art}${i + 1}`, `${name}${inhalt}${i + 1}`]).flat();

/** Line 2: the 125 column headings of format version 13, as DATEV's sample file writes them. */
export const COLUMN_HEADINGS = [
  'Umsatz (ohne Soll/Haben-Kz)', 'Soll/Haben-Kennzeichen', 'WKZ Umsatz', 'Kurs', 'Basis-Umsatz', 'WKZ Basis-Umsatz', 'Konto',
  'Gegenkonto (ohne BU-Schlüssel)', 'BU-Schlüssel', 'Belegdatum', 'Belegfeld 1', 'Belegfeld 2', 'Skonto', 'Buchungstext', 'Postensperre',
  'Diverse Adressnummer', 'Geschäftspartnerbank', 'Sachverhalt', 'Zinssperre', 'Beleglink',
  ...pairs('Beleginfo', 8, ' - Art ', ' - Inhalt '),
  'KOST1 - Kostenstelle', 'KOST2 - Kostenstelle', 'Kost-Menge', 'EU-Land u. UStID (Bestimmung)', 'EU-Steuersatz (Bestimmung)',
  'Abw. Versteuerungsart', 'Sachverhalt L+L', 'Funktionsergänzung L+L', 'BU 49 Hauptfunktionstyp', 'BU 49 Hauptfunktionsnummer',
  'BU 49 Funktionsergänzung',
  ...pairs('Zusatzinformation', 20, ' - Art ', '- Inhalt '),
  'Stück', 'Gewicht', 'Zahlweise', 'Forderungsart', 'Veranlagungsjahr', 'Zugeordnete Fälligkeit', 'Skontotyp', 'Auftragsnummer', 'Buchungstyp',
  'USt-Schlüssel (Anzahlungen)', 'EU-Land (Anzahlungen)', 'Sachverhalt L+L (Anzahlungen)', 'EU-Steuersatz (Anzahlungen)',
  'Erlöskonto (Anzahlungen)', 'Herkunft-Kz', 'Buchungs GUID', 'KOST-Datum', 'SEPA-Mandatsreferenz', 'Skontosperre', 'Gesellschaftername',
  'Beteiligtennummer', 'Identifikationsnummer', 'Zeichnernummer', 'Postensperre bis', 'Bezeichnung SoBil-Sachverhalt',
  'Kennzeichen SoBil-Buchung', 'Festschreibung', 'Leistungsdatum', 'Datum Zuord. Steuerperiode', 'Fälligkeit', 'Generalumkehr (GU)',
  'Steuersatz', 'Land', 'Abrechnungsreferenz', 'BVV-Position', 'EU-Land u. UStID (Ursprung)', 'EU-Steuersatz (Ursprung)', 'Abw. Skontokonto',
].join(';');

// Fields 15–39 and 41–125 stay empty: the separators between field 14 and field 40, and after field 40.
const BEFORE_EU_VAT_ID = ';'.repeat(40 - 14);
const AFTER_EU_VAT_ID = ';'.repeat(125 - 40);

/** One booking's line, its 125 fields. */
export function bookingLine(b: Booking): string {
  const foreign = b.base !== null;
  return [
    amount(b.amount, b.exponent), // 1 Umsatz
    b.side === 'S' ? '"S"' : '"H"', // 2 Soll/Haben-Kennzeichen, of Konto
    text(b.currency, 3), // 3 WKZ Umsatz
    foreign ? b.base!.rate : '', // 4 Kurs
    foreign ? amount(b.base!.amount, b.base!.exponent) : '', // 5 Basis-Umsatz
    foreign ? text(b.base!.currency, 3) : '', // 6 WKZ Basis-Umsatz
    b.account, // 7 Konto
    b.contra, // 8 Gegenkonto (ohne BU-Schlüssel)
    b.taxKey === null ? '' : text(b.taxKey, 4), // 9 BU-Schlüssel
    ddmm(b.date), // 10 Belegdatum
    text(documentField(b.document), 36), // 11 Belegfeld 1
    b.document2 && b.document2.length <= 12 ? text(b.document2, 12) : '', // 12 Belegfeld 2
    '', // 13 Skonto
    text(b.text, 60), // 14 Buchungstext
  ].join(';') + BEFORE_EU_VAT_ID + (b.euVatId ? text(b.euVatId, 15) : '') + AFTER_EU_VAT_ID;
}
