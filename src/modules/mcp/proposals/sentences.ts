// What a proposal says, one sentence per operation in each language the documents speak (§20):
// the amount with its currency, the client (or a transfer's recipient) and the document's number.
// The workspace's locale picks the language; a language not here reads in English.
import { type Language, languageOf } from '../../documents/labels/language';
import type { ProposedOperation } from './needs-a-yes';

/** The facts a sentence names: `amount` already formatted in the locale, `number` the document's (or what stands for it). */
export type Facts = { amount: string; party: string; number: string; currency?: string };

type Sentences = Record<ProposedOperation, (f: Facts) => string> & { draft: string };

const en: Sentences = {
  sendInvoice: (f) => `Send invoice ${f.number} for ${f.amount} to ${f.party}.`,
  sendQuote: (f) => `Send quote ${f.number} for ${f.amount} to ${f.party}.`,
  recordInvoicePayment: (f) => `Record a payment of ${f.amount} from ${f.party} on invoice ${f.number}.`,
  refundInvoicePayment: (f) => `Refund ${f.amount} to ${f.party} from a payment on invoice ${f.number}.`,
  createCreditNote: (f) => `Issue a credit note of ${f.amount} to ${f.party} against invoice ${f.number}.`,
  voidInvoice: (f) => `Void invoice ${f.number} of ${f.amount} to ${f.party}.`,
  createTransfer: (f) => `Transfer ${f.amount} to ${f.party}, paid out in ${f.currency}.`,
  acceptQuote: (f) => `Accept quote ${f.number} for ${f.amount} on behalf of ${f.party}.`,
  draft: 'draft',
};

const de: Sentences = {
  sendInvoice: (f) => `Rechnung ${f.number} über ${f.amount} an ${f.party} senden.`,
  sendQuote: (f) => `Angebot ${f.number} über ${f.amount} an ${f.party} senden.`,
  recordInvoicePayment: (f) => `Zahlung von ${f.amount} von ${f.party} zu Rechnung ${f.number} erfassen.`,
  refundInvoicePayment: (f) => `${f.amount} aus einer Zahlung zu Rechnung ${f.number} an ${f.party} erstatten.`,
  createCreditNote: (f) => `Gutschrift über ${f.amount} an ${f.party} zu Rechnung ${f.number} ausstellen.`,
  voidInvoice: (f) => `Rechnung ${f.number} über ${f.amount} an ${f.party} stornieren.`,
  createTransfer: (f) => `${f.amount} an ${f.party} überweisen, ausgezahlt in ${f.currency}.`,
  acceptQuote: (f) => `Angebot ${f.number} über ${f.amount} im Namen von ${f.party} annehmen.`,
  draft: 'Entwurf',
};

const fr: Sentences = {
  sendInvoice: (f) => `Envoyer la facture ${f.number} de ${f.amount} à ${f.party}.`,
  sendQuote: (f) => `Envoyer le devis ${f.number} de ${f.amount} à ${f.party}.`,
  recordInvoicePayment: (f) => `Enregistrer un paiement de ${f.amount} de ${f.party} sur la facture ${f.number}.`,
  refundInvoicePayment: (f) => `Rembourser ${f.amount} à ${f.party} sur un paiement de la facture ${f.number}.`,
  createCreditNote: (f) => `Émettre un avoir de ${f.amount} à ${f.party} sur la facture ${f.number}.`,
  voidInvoice: (f) => `Annuler la facture ${f.number} de ${f.amount} adressée à ${f.party}.`,
  createTransfer: (f) => `Virer ${f.amount} à ${f.party}, versés en ${f.currency}.`,
  acceptQuote: (f) => `Accepter le devis ${f.number} de ${f.amount} au nom de ${f.party}.`,
  draft: 'brouillon',
};

const es: Sentences = {
  sendInvoice: (f) => `Enviar la factura ${f.number} de ${f.amount} a ${f.party}.`,
  sendQuote: (f) => `Enviar el presupuesto ${f.number} de ${f.amount} a ${f.party}.`,
  recordInvoicePayment: (f) => `Registrar un pago de ${f.amount} de ${f.party} en la factura ${f.number}.`,
  refundInvoicePayment: (f) => `Reembolsar ${f.amount} a ${f.party} de un pago de la factura ${f.number}.`,
  createCreditNote: (f) => `Emitir una nota de crédito de ${f.amount} a ${f.party} sobre la factura ${f.number}.`,
  voidInvoice: (f) => `Anular la factura ${f.number} de ${f.amount} a ${f.party}.`,
  createTransfer: (f) => `Transferir ${f.amount} a ${f.party}, pagados en ${f.currency}.`,
  acceptQuote: (f) => `Aceptar el presupuesto ${f.number} de ${f.amount} en nombre de ${f.party}.`,
  draft: 'borrador',
};

const it: Sentences = {
  sendInvoice: (f) => `Inviare la fattura ${f.number} di ${f.amount} a ${f.party}.`,
  sendQuote: (f) => `Inviare il preventivo ${f.number} di ${f.amount} a ${f.party}.`,
  recordInvoicePayment: (f) => `Registrare un pagamento di ${f.amount} da ${f.party} sulla fattura ${f.number}.`,
  refundInvoicePayment: (f) => `Rimborsare ${f.amount} a ${f.party} da un pagamento della fattura ${f.number}.`,
  createCreditNote: (f) => `Emettere una nota di credito di ${f.amount} a ${f.party} sulla fattura ${f.number}.`,
  voidInvoice: (f) => `Annullare la fattura ${f.number} di ${f.amount} a ${f.party}.`,
  createTransfer: (f) => `Bonificare ${f.amount} a ${f.party}, pagati in ${f.currency}.`,
  acceptQuote: (f) => `Accettare il preventivo ${f.number} di ${f.amount} per conto di ${f.party}.`,
  draft: 'bozza',
};

const nl: Sentences = {
  sendInvoice: (f) => `Factuur ${f.number} van ${f.amount} naar ${f.party} sturen.`,
  sendQuote: (f) => `Offerte ${f.number} van ${f.amount} naar ${f.party} sturen.`,
  recordInvoicePayment: (f) => `Betaling van ${f.amount} van ${f.party} op factuur ${f.number} registreren.`,
  refundInvoicePayment: (f) => `${f.amount} terugbetalen aan ${f.party} uit een betaling op factuur ${f.number}.`,
  createCreditNote: (f) => `Creditnota van ${f.amount} aan ${f.party} op factuur ${f.number} uitreiken.`,
  voidInvoice: (f) => `Factuur ${f.number} van ${f.amount} aan ${f.party} ongeldig maken.`,
  createTransfer: (f) => `${f.amount} overmaken aan ${f.party}, uitbetaald in ${f.currency}.`,
  acceptQuote: (f) => `Offerte ${f.number} van ${f.amount} namens ${f.party} accepteren.`,
  draft: 'concept',
};

const pt: Sentences = {
  sendInvoice: (f) => `Enviar a fatura ${f.number} de ${f.amount} a ${f.party}.`,
  sendQuote: (f) => `Enviar o orçamento ${f.number} de ${f.amount} a ${f.party}.`,
  recordInvoicePayment: (f) => `Registar um pagamento de ${f.amount} de ${f.party} na fatura ${f.number}.`,
  refundInvoicePayment: (f) => `Reembolsar ${f.amount} a ${f.party} de um pagamento da fatura ${f.number}.`,
  createCreditNote: (f) => `Emitir uma nota de crédito de ${f.amount} a ${f.party} sobre a fatura ${f.number}.`,
  voidInvoice: (f) => `Anular a fatura ${f.number} de ${f.amount} a ${f.party}.`,
  createTransfer: (f) => `Transferir ${f.amount} para ${f.party}, pagos em ${f.currency}.`,
  acceptQuote: (f) => `Aceitar o orçamento ${f.number} de ${f.amount} em nome de ${f.party}.`,
  draft: 'rascunho',
};

// Typed by the documents' languages: one added there and not here does not compile.
const BY_LANGUAGE: Record<Language, Sentences> = { en, de, fr, es, it, nl, pt };

/** The sentences of the language `locale` reads in (as its documents do: labels/language.ts). */
export const sentencesFor = (locale: string): Sentences => BY_LANGUAGE[languageOf(locale)];
