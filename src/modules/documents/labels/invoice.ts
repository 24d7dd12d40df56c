// The labels of an invoice's page, PDF and emails, over the ones every document shares: what it
// is called, its status banners, what is paid and due, and the sentences of its emails.
import { commonLabels } from './common';
import { defineLabels, labelsIn, languageOf } from './language';

export const invoiceOwnLabels = defineLabels({
  invoice: { en: 'Invoice', de: 'Rechnung', fr: 'Facture', es: 'Factura', it: 'Fattura', nl: 'Factuur', pt: 'Fatura' },
  paid: { en: 'Paid', de: 'Bezahlt', fr: 'Payé', es: 'Pagado', it: 'Pagato', nl: 'Betaald', pt: 'Pago' },
  amountDue: { en: 'Amount due', de: 'Zu zahlen', fr: 'Montant dû', es: 'Importe pendiente', it: 'Importo dovuto', nl: 'Te betalen', pt: 'Valor a pagar' },
  howToPay: { en: 'How to pay', de: 'Zahlungshinweise', fr: 'Modalités de paiement', es: 'Cómo pagar', it: 'Come pagare', nl: 'Betaalinstructies', pt: 'Como pagar' },
  dueDate: { en: 'Due date', de: 'Fälligkeitsdatum', fr: "Date d'échéance", es: 'Fecha de vencimiento', it: 'Data di scadenza', nl: 'Vervaldatum', pt: 'Data de vencimento' },
  // The status banner (a draft's, DRAFT, is shared).
  bannerPaid: { en: 'PAID', de: 'BEZAHLT', fr: 'PAYÉE', es: 'PAGADA', it: 'PAGATA', nl: 'BETAALD', pt: 'PAGA' },
  bannerVoid: { en: 'VOID', de: 'STORNIERT', fr: 'ANNULÉE', es: 'ANULADA', it: 'ANNULLATA', nl: 'GEANNULEERD', pt: 'ANULADA' },
  bannerOverdue: { en: 'Overdue', de: 'Überfällig', fr: 'En retard', es: 'Vencida', it: 'Scaduta', nl: 'Achterstallig', pt: 'Vencida' },
  /** The page's title and the email's subject. */
  invoiceFrom: {
    en: (number: string, from: string) => `Invoice ${number} from ${from}`,
    de: (number: string, from: string) => `Rechnung ${number} von ${from}`,
    fr: (number: string, from: string) => `Facture ${number} de ${from}`,
    es: (number: string, from: string) => `Factura ${number} de ${from}`,
    it: (number: string, from: string) => `Fattura ${number} da ${from}`,
    nl: (number: string, from: string) => `Factuur ${number} van ${from}`,
    pt: (number: string, from: string) => `Fatura ${number} de ${from}`,
  },
  sentYou: {
    en: (from: string, number: string) => `${from} has sent you invoice ${number}.`,
    de: (from: string, number: string) => `${from} hat Ihnen die Rechnung ${number} gesendet.`,
    fr: (from: string, number: string) => `${from} vous a envoyé la facture ${number}.`,
    es: (from: string, number: string) => `${from} le ha enviado la factura ${number}.`,
    it: (from: string, number: string) => `${from} le ha inviato la fattura ${number}.`,
    nl: (from: string, number: string) => `${from} heeft u factuur ${number} gestuurd.`,
    pt: (from: string, number: string) => `${from} enviou-lhe a fatura ${number}.`,
  },
  reminderSubject: {
    en: (number: string, from: string, due: string) => `Reminder: invoice ${number} from ${from} was due ${due}`,
    de: (number: string, from: string, due: string) => `Erinnerung: Rechnung ${number} von ${from} war am ${due} fällig`,
    fr: (number: string, from: string, due: string) => `Rappel : la facture ${number} de ${from} était due le ${due}`,
    es: (number: string, from: string, due: string) => `Recordatorio: la factura ${number} de ${from} venció el ${due}`,
    it: (number: string, from: string, due: string) => `Promemoria: la fattura ${number} di ${from} è scaduta il ${due}`,
    nl: (number: string, from: string, due: string) => `Herinnering: factuur ${number} van ${from} was verschuldigd op ${due}`,
    pt: (number: string, from: string, due: string) => `Lembrete: a fatura ${number} de ${from} venceu em ${due}`,
  },
  reminderLead: {
    en: (number: string, due: string) => `This is a reminder that invoice ${number} was due on ${due}.`,
    de: (number: string, due: string) => `Wir möchten Sie daran erinnern, dass die Rechnung ${number} am ${due} fällig war.`,
    fr: (number: string, due: string) => `Nous vous rappelons que la facture ${number} était due le ${due}.`,
    es: (number: string, due: string) => `Le recordamos que la factura ${number} venció el ${due}.`,
    it: (number: string, due: string) => `Le ricordiamo che la fattura ${number} è scaduta il ${due}.`,
    nl: (number: string, due: string) => `Dit is een herinnering dat factuur ${number} op ${due} verschuldigd was.`,
    pt: (number: string, due: string) => `Lembramos que a fatura ${number} venceu em ${due}.`,
  },
  credited: { en: 'Credited', de: 'Gutgeschrieben', fr: 'Crédité', es: 'Abonado', it: 'Accreditato', nl: 'Gecrediteerd', pt: 'Creditado' },
  // A credit note (§17) is printed with the invoice's layout under its own title.
  creditNote: { en: 'Credit note', de: 'Gutschrift', fr: 'Avoir', es: 'Nota de crédito', it: 'Nota di credito', nl: 'Creditnota', pt: 'Nota de crédito' },
  corrects: {
    en: (number: string) => `Corrects invoice ${number}`,
    de: (number: string) => `Korrektur zur Rechnung ${number}`,
    fr: (number: string) => `Rectifie la facture ${number}`,
    es: (number: string) => `Rectifica la factura ${number}`,
    it: (number: string) => `Rettifica la fattura ${number}`,
    nl: (number: string) => `Corrigeert factuur ${number}`,
    pt: (number: string) => `Corrige a fatura ${number}`,
  },
  creditNoteFrom: {
    en: (number: string, from: string) => `Credit note ${number} from ${from}`,
    de: (number: string, from: string) => `Gutschrift ${number} von ${from}`,
    fr: (number: string, from: string) => `Avoir ${number} de ${from}`,
    es: (number: string, from: string) => `Nota de crédito ${number} de ${from}`,
    it: (number: string, from: string) => `Nota di credito ${number} da ${from}`,
    nl: (number: string, from: string) => `Creditnota ${number} van ${from}`,
    pt: (number: string, from: string) => `Nota de crédito ${number} de ${from}`,
  },
  viewAndDownload: { en: 'View and download it', de: 'Ansehen und herunterladen', fr: 'La consulter et la télécharger', es: 'Verla y descargarla', it: 'Visualizzarla e scaricarla', nl: 'Bekijken en downloaden', pt: 'Ver e baixar' },
  viewInvoice: {
    en: (number: string) => `View invoice ${number}`,
    de: (number: string) => `Rechnung ${number} ansehen`,
    fr: (number: string) => `Voir la facture ${number}`,
    es: (number: string) => `Ver la factura ${number}`,
    it: (number: string) => `Visualizza la fattura ${number}`,
    nl: (number: string) => `Factuur ${number} bekijken`,
    pt: (number: string) => `Ver a fatura ${number}`,
  },
});

export type InvoiceLabels = ReturnType<typeof invoiceLabels>;

/** Everything an invoice says, in the language of `locale`. */
export const invoiceLabels = (locale: string) => {
  const language = languageOf(locale);
  return { ...labelsIn(commonLabels, language), ...labelsIn(invoiceOwnLabels, language) };
};
