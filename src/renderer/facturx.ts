// Factur-X (= ZUGFeRD 2 profile EN 16931): the invoice's PDF turned into a PDF/A-3b that carries its CII XML.
//
// pdf-lib alone is enough; nothing else is loaded. What PDF/A-3b asks beyond a plain pdf-lib PDF, and where each
// piece comes from:
// - every font embedded: the invoice PDF draws only with its embedded Noto Sans (pdf.ts), never with a
//   standard-14 font, and pdf-lib writes it as a CIDFontType2 with its FontFile2 and an Identity CIDToGIDMap;
// - an output intent with an ICC profile, because the page colours are DeviceRGB: Debian's sRGB profile
//   (srgb-icc.ts), the only binary this adds;
// - XMP metadata (uncompressed, as PDF/A wants) declaring PDF/A-3B and the Factur-X extension schema, with the
//   document-information entries written to match it, since a validator compares the two;
// - a file identifier in the trailer, which pdf-lib does not write by itself;
// - the XML as an embedded file named factur-x.xml, MIME text/xml, /AFRelationship /Alternative, with its dates,
//   listed in the catalog's /AF (pdf-lib's attach() does all of that).
import { AFRelationship, PDFDocument, PDFHexString, PDFName, PDFString } from 'pdf-lib';
import { SRGB_ICC_BASE64 } from './srgb-icc';
import { escapeText } from '../modules/documents/einvoice/xml';

export const FACTURX_FILENAME = 'factur-x.xml';
const FACTURX_NAMESPACE = 'urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#';
const PRODUCER = 'Workspace API (pdf-lib)';

let icc: Uint8Array | undefined;
const srgbProfile = () => (icc ??= Uint8Array.from(atob(SRGB_ICC_BASE64), (c) => c.charCodeAt(0)));

/**
 * The plain invoice PDF as a Factur-X PDF/A-3b embedding `ciiXml` (which must be the EN 16931 CII of the same
 * invoice). The PDF's own title, author, creator and creation date are kept and mirrored into the XMP.
 */
export async function toFacturX(pdfBytes: Uint8Array, ciiXml: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.load(pdfBytes, { updateMetadata: false });
  await makeFacturX(pdf, ciiXml);
  return pdf.save();
}

/**
 * The same, on a document not yet written: `renderInvoicePdf(doc, (pdf) => makeFacturX(pdf, cii))` spares
 * parsing and writing the PDF a second time (about a third of toFacturX's CPU on 100 lines).
 */
export async function makeFacturX(pdf: PDFDocument, ciiXml: string): Promise<void> {
  const context = pdf.context;
  // PDF dates have whole seconds; the XMP must state the very same instant.
  const created = new Date(Math.floor((pdf.getCreationDate() ?? new Date()).getTime() / 1000) * 1000);
  const title = pdf.getTitle() ?? 'Invoice';
  const author = pdf.getAuthor() ?? null;
  const creator = pdf.getCreator() ?? 'Workspace API';
  pdf.setTitle(title);
  pdf.setCreator(creator);
  pdf.setProducer(PRODUCER);
  pdf.setCreationDate(created);
  pdf.setModificationDate(created);

  const xml = new TextEncoder().encode(ciiXml);
  await pdf.attach(xml, FACTURX_FILENAME, {
    mimeType: 'text/xml',
    description: 'Factur-X invoice, EN 16931 (CII D16B)',
    creationDate: created,
    modificationDate: created,
    afRelationship: AFRelationship.Alternative,
  });

  const metadata = context.stream(new TextEncoder().encode(xmp({ title, author, creator, created })), { Type: 'Metadata', Subtype: 'XML' });
  pdf.catalog.set(PDFName.of('Metadata'), context.register(metadata));

  const profile = context.register(context.flateStream(srgbProfile(), { N: 3 }));
  const intent = context.obj({
    Type: 'OutputIntent',
    S: 'GTS_PDFA1',
    OutputConditionIdentifier: PDFString.of('sRGB IEC61966-2.1'),
    Info: PDFString.of('sRGB IEC61966-2.1'),
    DestOutputProfile: profile,
  });
  pdf.catalog.set(PDFName.of('OutputIntents'), context.obj([intent]));

  // The file identifier: derived from the XML, so the same invoice gets the same id.
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', xml)).slice(0, 16);
  const id = PDFHexString.of(Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join(''));
  context.trailerInfo.ID = context.obj([id, id]);
}

/** XMP packet: PDF/A identification, the document information mirrored, and the Factur-X extension schema. */
function xmp(info: { title: string; author: string | null; creator: string; created: Date }): string {
  const date = info.created.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const t = escapeText;
  const property = (name: string, description: string) =>
    `<rdf:li rdf:parseType="Resource"><pdfaProperty:name>${name}</pdfaProperty:name><pdfaProperty:valueType>Text</pdfaProperty:valueType>` +
    `<pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>${description}</pdfaProperty:description></rdf:li>`;
  return `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"><pdfaid:part>3</pdfaid:part><pdfaid:conformance>B</pdfaid:conformance></rdf:Description>
<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:format>application/pdf</dc:format><dc:title><rdf:Alt><rdf:li xml:lang="x-default">${t(info.title)}</rdf:li></rdf:Alt></dc:title>${
    info.author ? `<dc:creator><rdf:Seq><rdf:li>${t(info.author)}</rdf:li></rdf:Seq></dc:creator>` : ''
  }</rdf:Description>
<rdf:Description rdf:about="" xmlns:pdf="http://ns.adobe.com/pdf/1.3/"><pdf:Producer>${t(PRODUCER)}</pdf:Producer></rdf:Description>
<rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/"><xmp:CreatorTool>${t(info.creator)}</xmp:CreatorTool><xmp:CreateDate>${date}</xmp:CreateDate><xmp:ModifyDate>${date}</xmp:ModifyDate><xmp:MetadataDate>${date}</xmp:MetadataDate></rdf:Description>
<rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
<pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType="Resource">
<pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>
<pdfaSchema:namespaceURI>${FACTURX_NAMESPACE}</pdfaSchema:namespaceURI>
<pdfaSchema:prefix>fx</pdfaSchema:prefix>
<pdfaSchema:property><rdf:Seq>
${property('DocumentFileName', 'The name of the embedded XML document')}
${property('DocumentType', 'The type of the hybrid document in capital letters, e.g. INVOICE or ORDER')}
${property('Version', 'The actual version of the standard applying to the embedded XML document')}
${property('ConformanceLevel', 'The conformance level of the embedded XML document')}
</rdf:Seq></pdfaSchema:property>
</rdf:li></rdf:Bag></pdfaExtension:schemas>
</rdf:Description>
<rdf:Description rdf:about="" xmlns:fx="${FACTURX_NAMESPACE}"><fx:DocumentType>INVOICE</fx:DocumentType><fx:DocumentFileName>${FACTURX_FILENAME}</fx:DocumentFileName><fx:Version>1.0</fx:Version><fx:ConformanceLevel>EN 16931</fx:ConformanceLevel></rdf:Description>
</rdf:RDF>
</x:xmpmeta>
${' '.repeat(2000)}
<?xpacket end="w"?>`;
}
