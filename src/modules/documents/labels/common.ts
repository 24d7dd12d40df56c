// The labels every document shares (invoices now; quotes and credit notes as they come): the
// parties, the dates, the line table, the totals and the page footer.
import { defineLabels } from './language';

export const commonLabels = defineLabels({
  from: { en: 'From', de: 'Von', fr: 'De', es: 'De', it: 'Da', nl: 'Van', pt: 'De' },
  billTo: { en: 'Bill to', de: 'Rechnungsempfänger', fr: 'Facturé à', es: 'Facturar a', it: 'Fatturare a', nl: 'Factuur aan', pt: 'Faturar a' },
  taxId: { en: 'Tax ID', de: 'USt-IdNr.', fr: 'N° TVA', es: 'NIF', it: 'P. IVA', nl: 'Btw-nr.', pt: 'NIF' },
  issued: { en: 'Issued', de: 'Datum', fr: "Date d'émission", es: 'Fecha de emisión', it: 'Data di emissione', nl: 'Datum', pt: 'Data de emissão' },
  due: { en: 'Due', de: 'Fällig', fr: 'Échéance', es: 'Vencimiento', it: 'Scadenza', nl: 'Vervaldatum', pt: 'Vencimento' },
  description: { en: 'Description', de: 'Beschreibung', fr: 'Description', es: 'Descripción', it: 'Descrizione', nl: 'Omschrijving', pt: 'Descrição' },
  quantity: { en: 'Qty', de: 'Menge', fr: 'Qté', es: 'Cant.', it: 'Qtà', nl: 'Aantal', pt: 'Qtd.' },
  unitPrice: { en: 'Unit price', de: 'Einzelpreis', fr: 'Prix unitaire', es: 'Precio unitario', it: 'Prezzo unitario', nl: 'Stukprijs', pt: 'Preço unitário' },
  tax: { en: 'Tax', de: 'USt.', fr: 'TVA', es: 'IVA', it: 'IVA', nl: 'Btw', pt: 'IVA' },
  amount: { en: 'Amount', de: 'Betrag', fr: 'Montant', es: 'Importe', it: 'Importo', nl: 'Bedrag', pt: 'Valor' },
  subtotal: { en: 'Subtotal', de: 'Zwischensumme', fr: 'Sous-total', es: 'Subtotal', it: 'Subtotale', nl: 'Subtotaal', pt: 'Subtotal' },
  discount: { en: 'Discount', de: 'Rabatt', fr: 'Remise', es: 'Descuento', it: 'Sconto', nl: 'Korting', pt: 'Desconto' },
  total: { en: 'Total', de: 'Gesamt', fr: 'Total', es: 'Total', it: 'Totale', nl: 'Totaal', pt: 'Total' },
  notes: { en: 'Notes', de: 'Anmerkungen', fr: 'Remarques', es: 'Notas', it: 'Note', nl: 'Opmerkingen', pt: 'Observações' },
  draft: { en: 'DRAFT', de: 'ENTWURF', fr: 'BROUILLON', es: 'BORRADOR', it: 'BOZZA', nl: 'CONCEPT', pt: 'RASCUNHO' },
  downloadPdf: { en: 'Download PDF', de: 'PDF herunterladen', fr: 'Télécharger le PDF', es: 'Descargar PDF', it: 'Scarica il PDF', nl: 'PDF downloaden', pt: 'Baixar PDF' },
  eInvoice: { en: 'E-invoice', de: 'E-Rechnung', fr: 'Facture électronique', es: 'Factura electrónica', it: 'Fattura elettronica', nl: 'E-factuur', pt: 'Fatura eletrónica' },
  page: {
    en: (n: number, of: number) => `Page ${n} of ${of}`,
    de: (n: number, of: number) => `Seite ${n} von ${of}`,
    fr: (n: number, of: number) => `Page ${n} sur ${of}`,
    es: (n: number, of: number) => `Página ${n} de ${of}`,
    it: (n: number, of: number) => `Pagina ${n} di ${of}`,
    nl: (n: number, of: number) => `Pagina ${n} van ${of}`,
    pt: (n: number, of: number) => `Página ${n} de ${of}`,
  },
  hello: {
    en: (name: string) => `Hello ${name},`,
    de: (name: string) => `Guten Tag ${name},`,
    fr: (name: string) => `Bonjour ${name},`,
    es: (name: string) => `Hola ${name}:`,
    it: (name: string) => `Gentile ${name},`,
    nl: (name: string) => `Beste ${name},`,
    pt: (name: string) => `Olá ${name},`,
  },
});
