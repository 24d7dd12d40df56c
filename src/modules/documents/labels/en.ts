// English: every label of every kind of document, in one file a translator reads top to bottom.
// This file also sets the shape every other language's file must have (`Labels`): the same groups,
// the same labels, and each sentence with the same parts, so a label missing in one language is a
// type error, not a blank on a page. A label is a word, or a sentence built from its parts.

export const en = {
  // The labels every document shares: the parties, the dates, the line table, the totals, the page footer.
  common: {
    from: 'From',
    billTo: 'Bill to',
    taxId: 'Tax ID',
    issued: 'Issued',
    due: 'Due',
    description: 'Description',
    quantity: 'Qty',
    unitPrice: 'Unit price',
    tax: 'Tax',
    amount: 'Amount',
    subtotal: 'Subtotal',
    discount: 'Discount',
    total: 'Total',
    notes: 'Notes',
    draft: 'DRAFT',
    downloadPdf: 'Download PDF',
    eInvoice: 'E-invoice',
    page: (n: number, of: number) => `Page ${n} of ${of}`,
    hello: (name: string) => `Hello ${name},`,
  },
  // An invoice's own: what it is called, its status banners, what is paid and due, its emails, and
  // a credit note's title (§17), which is printed with the invoice's layout.
  invoice: {
    invoice: 'Invoice',
    paid: 'Paid',
    amountDue: 'Amount due',
    howToPay: 'How to pay',
    dueDate: 'Due date',
    // The status banner (a draft's, DRAFT, is shared).
    bannerPaid: 'PAID',
    bannerVoid: 'VOID',
    bannerOverdue: 'Overdue',
    /** The page's title and the email's subject. */
    invoiceFrom: (number: string, from: string) => `Invoice ${number} from ${from}`,
    sentYou: (from: string, number: string) => `${from} has sent you invoice ${number}.`,
    reminderSubject: (number: string, from: string, due: string) => `Reminder: invoice ${number} from ${from} was due ${due}`,
    reminderLead: (number: string, due: string) => `This is a reminder that invoice ${number} was due on ${due}.`,
    credited: 'Credited',
    // A credit note (§17) is printed with the invoice's layout under its own title.
    creditNote: 'Credit note',
    corrects: (number: string) => `Corrects invoice ${number}`,
    creditNoteFrom: (number: string, from: string) => `Credit note ${number} from ${from}`,
    viewAndDownload: 'View and download it',
    viewInvoice: (number: string) => `View invoice ${number}`,
  },
  // A quote's own (§18): what it is called, how long it is valid, its outcomes, and the client's two forms.
  quote: {
    quote: 'Quote',
    validUntil: 'Valid until',
    terms: 'Terms',
    quoteFrom: (number: string, from: string) => `Quote ${number} from ${from}`,
    sentYouQuote: (from: string, number: string) => `${from} has sent you quote ${number}. You can accept or decline it online.`,
    viewQuote: (number: string) => `View quote ${number}`,
    bannerAccepted: 'ACCEPTED',
    bannerDeclined: 'DECLINED',
    bannerExpired: 'EXPIRED',
    bannerCanceled: 'CANCELED',
    acceptedBy: (name: string, date: string) => `Accepted by ${name} on ${date}.`,
    declinedOn: (date: string) => `Declined on ${date}.`,
    expiredNotice: 'This quote has expired: it can no longer be accepted. Ask the sender for a new one.',
    canceledNotice: 'The sender has canceled this quote: it can no longer be accepted.',
    acceptTitle: 'Accept this quote',
    fullName: 'Your full name',
    iAccept: 'I accept this quote',
    poNumber: 'Purchase order number (optional)',
    acceptButton: 'Accept',
    declineTitle: 'Decline this quote',
    reason: 'Reason',
    declineButton: 'Decline',
  },
};

/** Every label, by group: what each language's file gives. */
export type Labels = typeof en;
