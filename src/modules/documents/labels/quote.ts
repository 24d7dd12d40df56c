// The labels of a quote's page and PDF (§18), over the ones every document shares: what it is
// called, how long it is valid, its outcomes, and the client's two forms.
import { commonLabels } from './common';
import { invoiceOwnLabels } from './invoice';
import { defineLabels, labelsIn, languageOf } from './language';

export const quoteOwnLabels = defineLabels({
  quote: { en: 'Quote', de: 'Angebot', fr: 'Devis', es: 'Presupuesto', it: 'Preventivo', nl: 'Offerte', pt: 'Orçamento' },
  validUntil: { en: 'Valid until', de: 'Gültig bis', fr: "Valable jusqu'au", es: 'Válido hasta', it: 'Valido fino al', nl: 'Geldig tot', pt: 'Válido até' },
  terms: { en: 'Terms', de: 'Bedingungen', fr: 'Conditions', es: 'Condiciones', it: 'Condizioni', nl: 'Voorwaarden', pt: 'Condições' },
  quoteFrom: {
    en: (number: string, from: string) => `Quote ${number} from ${from}`,
    de: (number: string, from: string) => `Angebot ${number} von ${from}`,
    fr: (number: string, from: string) => `Devis ${number} de ${from}`,
    es: (number: string, from: string) => `Presupuesto ${number} de ${from}`,
    it: (number: string, from: string) => `Preventivo ${number} da ${from}`,
    nl: (number: string, from: string) => `Offerte ${number} van ${from}`,
    pt: (number: string, from: string) => `Orçamento ${number} de ${from}`,
  },
  sentYouQuote: {
    en: (from: string, number: string) => `${from} has sent you quote ${number}. You can accept or decline it online.`,
    de: (from: string, number: string) => `${from} hat Ihnen das Angebot ${number} gesendet. Sie können es online annehmen oder ablehnen.`,
    fr: (from: string, number: string) => `${from} vous a envoyé le devis ${number}. Vous pouvez l'accepter ou le refuser en ligne.`,
    es: (from: string, number: string) => `${from} le ha enviado el presupuesto ${number}. Puede aceptarlo o rechazarlo en línea.`,
    it: (from: string, number: string) => `${from} le ha inviato il preventivo ${number}. Può accettarlo o rifiutarlo online.`,
    nl: (from: string, number: string) => `${from} heeft u offerte ${number} gestuurd. U kunt ze online aanvaarden of afwijzen.`,
    pt: (from: string, number: string) => `${from} enviou-lhe o orçamento ${number}. Pode aceitá-lo ou recusá-lo online.`,
  },
  viewQuote: {
    en: (number: string) => `View quote ${number}`,
    de: (number: string) => `Angebot ${number} ansehen`,
    fr: (number: string) => `Voir le devis ${number}`,
    es: (number: string) => `Ver el presupuesto ${number}`,
    it: (number: string) => `Visualizza il preventivo ${number}`,
    nl: (number: string) => `Offerte ${number} bekijken`,
    pt: (number: string) => `Ver o orçamento ${number}`,
  },
  bannerAccepted: { en: 'ACCEPTED', de: 'ANGENOMMEN', fr: 'ACCEPTÉ', es: 'ACEPTADO', it: 'ACCETTATO', nl: 'AANVAARD', pt: 'ACEITE' },
  bannerDeclined: { en: 'DECLINED', de: 'ABGELEHNT', fr: 'REFUSÉ', es: 'RECHAZADO', it: 'RIFIUTATO', nl: 'AFGEWEZEN', pt: 'RECUSADO' },
  bannerExpired: { en: 'EXPIRED', de: 'ABGELAUFEN', fr: 'EXPIRÉ', es: 'CADUCADO', it: 'SCADUTO', nl: 'VERLOPEN', pt: 'EXPIRADO' },
  bannerCanceled: { en: 'CANCELED', de: 'STORNIERT', fr: 'ANNULÉ', es: 'CANCELADO', it: 'ANNULLATO', nl: 'GEANNULEERD', pt: 'CANCELADO' },
  acceptedBy: {
    en: (name: string, date: string) => `Accepted by ${name} on ${date}.`,
    de: (name: string, date: string) => `Angenommen von ${name} am ${date}.`,
    fr: (name: string, date: string) => `Accepté par ${name} le ${date}.`,
    es: (name: string, date: string) => `Aceptado por ${name} el ${date}.`,
    it: (name: string, date: string) => `Accettato da ${name} il ${date}.`,
    nl: (name: string, date: string) => `Aanvaard door ${name} op ${date}.`,
    pt: (name: string, date: string) => `Aceite por ${name} em ${date}.`,
  },
  declinedOn: {
    en: (date: string) => `Declined on ${date}.`,
    de: (date: string) => `Abgelehnt am ${date}.`,
    fr: (date: string) => `Refusé le ${date}.`,
    es: (date: string) => `Rechazado el ${date}.`,
    it: (date: string) => `Rifiutato il ${date}.`,
    nl: (date: string) => `Afgewezen op ${date}.`,
    pt: (date: string) => `Recusado em ${date}.`,
  },
  expiredNotice: {
    en: 'This quote has expired: it can no longer be accepted. Ask the sender for a new one.',
    de: 'Dieses Angebot ist abgelaufen und kann nicht mehr angenommen werden. Bitten Sie den Absender um ein neues.',
    fr: "Ce devis a expiré : il ne peut plus être accepté. Demandez-en un nouveau à l'expéditeur.",
    es: 'Este presupuesto ha caducado y ya no se puede aceptar. Pida uno nuevo al remitente.',
    it: 'Questo preventivo è scaduto e non può più essere accettato. Chiedine uno nuovo al mittente.',
    nl: 'Deze offerte is verlopen en kan niet meer worden aanvaard. Vraag de afzender om een nieuwe.',
    pt: 'Este orçamento expirou e já não pode ser aceite. Peça um novo ao remetente.',
  },
  canceledNotice: {
    en: 'The sender has canceled this quote: it can no longer be accepted.',
    de: 'Der Absender hat dieses Angebot storniert; es kann nicht mehr angenommen werden.',
    fr: "L'expéditeur a annulé ce devis : il ne peut plus être accepté.",
    es: 'El remitente ha cancelado este presupuesto; ya no se puede aceptar.',
    it: 'Il mittente ha annullato questo preventivo; non può più essere accettato.',
    nl: 'De afzender heeft deze offerte geannuleerd; ze kan niet meer worden aanvaard.',
    pt: 'O remetente cancelou este orçamento; já não pode ser aceite.',
  },
  acceptTitle: { en: 'Accept this quote', de: 'Angebot annehmen', fr: 'Accepter ce devis', es: 'Aceptar este presupuesto', it: 'Accetta questo preventivo', nl: 'Offerte aanvaarden', pt: 'Aceitar este orçamento' },
  fullName: { en: 'Your full name', de: 'Ihr vollständiger Name', fr: 'Votre nom complet', es: 'Su nombre completo', it: 'Il tuo nome completo', nl: 'Uw volledige naam', pt: 'O seu nome completo' },
  iAccept: { en: 'I accept this quote', de: 'Ich nehme dieses Angebot an', fr: "J'accepte ce devis", es: 'Acepto este presupuesto', it: 'Accetto questo preventivo', nl: 'Ik aanvaard deze offerte', pt: 'Aceito este orçamento' },
  poNumber: { en: 'Purchase order number (optional)', de: 'Bestellnummer (optional)', fr: 'Numéro de bon de commande (facultatif)', es: 'Número de pedido (opcional)', it: "Numero d'ordine (facoltativo)", nl: 'Inkoopordernummer (optioneel)', pt: 'Número da nota de encomenda (opcional)' },
  acceptButton: { en: 'Accept', de: 'Annehmen', fr: 'Accepter', es: 'Aceptar', it: 'Accetta', nl: 'Aanvaarden', pt: 'Aceitar' },
  declineTitle: { en: 'Decline this quote', de: 'Angebot ablehnen', fr: 'Refuser ce devis', es: 'Rechazar este presupuesto', it: 'Rifiuta questo preventivo', nl: 'Offerte afwijzen', pt: 'Recusar este orçamento' },
  reason: { en: 'Reason', de: 'Grund', fr: 'Motif', es: 'Motivo', it: 'Motivo', nl: 'Reden', pt: 'Motivo' },
  declineButton: { en: 'Decline', de: 'Ablehnen', fr: 'Refuser', es: 'Rechazar', it: 'Rifiuta', nl: 'Afwijzen', pt: 'Recusar' },
});

export type QuoteLabels = ReturnType<typeof quoteLabels>;

/** Everything a quote says, in the language of `locale` (with the invoice's, which its document shape shares). */
export const quoteLabels = (locale: string) => {
  const language = languageOf(locale);
  return { ...labelsIn(commonLabels, language), ...labelsIn(invoiceOwnLabels, language), ...labelsIn(quoteOwnLabels, language) };
};
