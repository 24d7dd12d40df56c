// The specification identifier (BT-24) of a received e-invoice as a person names it (§21 "profile"): the CIUS or
// Factur-X / ZUGFeRD profile it claims to follow. An identifier we do not know is shown as written, so nothing a
// supplier states is lost.

const EN16931 = 'urn:cen.eu:en16931:2017';

/** Factur-X and ZUGFeRD 2.x profile names, as their identifiers end. */
const FACTUR_X_LEVELS: Record<string, string> = {
  minimum: 'MINIMUM',
  basicwl: 'BASIC WL',
  basic: 'BASIC',
  en16931: 'EN 16931',
  comfort: 'EN 16931',
  extended: 'EXTENDED',
  xrechnung: 'XRECHNUNG',
};

const KNOWN: [RegExp, (match: RegExpExecArray) => string][] = [
  // XRechnung: urn:xeinkauf.de:kosit:xrechnung_3.0 (and 2.x under urn:xoev-de:kosit:standard:xrechnung_2.3),
  // with its extension declared as `#conformant#urn:xeinkauf.de:kosit:extension:xrechnung_3.0`.
  [/kosit:extension:xrechnung_(\d+\.\d+)/, (m) => `XRechnung ${m[1]} Extension`],
  [/xrechnung_(\d+\.\d+)/, (m) => `XRechnung ${m[1]}`],
  [/urn:fdc:peppol\.eu:2017:poacc:selfbilling:(\d+\.\d+)/, (m) => `Peppol BIS Self-Billing ${m[1]}`],
  [/urn:fdc:peppol\.eu:2017:poacc:billing:(\d+\.\d+)/, (m) => `Peppol BIS ${m[1]}`],
  [/urn:peppol:pint:billing-(\d+)/, (m) => `Peppol PINT Billing ${m[1]}`],
  [/urn:factur-x\.eu:1p0:(minimum|basicwl|basic|en16931|extended)\b/, (m) => `Factur-X ${FACTUR_X_LEVELS[m[1]!]}`],
  [/urn:zugferd\.de:2p(\d):(minimum|basicwl|basic|comfort|en16931|extended|xrechnung)\b/, (m) => `ZUGFeRD 2.${m[1]} ${FACTUR_X_LEVELS[m[2]!]}`],
  [/urn:fdc:nen\.nl:nlcius:v(\d+\.\d+)/, (m) => `NLCIUS ${m[1]}`],
];

/**
 * BT-24 as a readable name: "EN 16931", "XRechnung 3.0", "Peppol BIS 3.0", "Factur-X BASIC", …; the identifier as
 * written when we do not know it; null when the document states none. Factur-X's and ZUGFeRD's EN 16931 profile
 * uses the bare standard's identifier, so that one only reads as "Factur-X EN 16931" when it came out of a PDF.
 */
export function profileName(specification: string | null, embeddedInPdf = false): string | null {
  const id = specification?.trim();
  if (!id) return null;
  if (id === EN16931) return embeddedInPdf ? 'Factur-X EN 16931' : 'EN 16931';
  for (const [pattern, name] of KNOWN) {
    const match = pattern.exec(id);
    if (match) return name(match);
  }
  return id.slice(0, 200);
}
