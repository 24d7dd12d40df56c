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
    // A credit note (§17) is printed with the invoice's layout under its own title: never "Gutschrift" in
    // German (which VAT law keeps for self-billing), "Factura rectificativa" in Spanish (RD 1619/2012 art. 15).
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
    // §20: who a quote is for (never "Bill to"), and a post refused for not coming from the page.
    recipient: 'Client',
    onlyFromPage: "This answer must be given on the quote's own page.",
  },
  // §20: everything else a person reads in the document's language.
  // The Pay panel on an invoice's page (§16), its notices, and why a press charged nothing.
  pay: {
    payOnline: 'Pay online',
    payAmount: (amount: string) => `Pay ${amount} online`,
    amountField: (currency: string) => `Amount (${currency})`,
    testMode: 'TEST MODE',
    thanksPending: 'Thank you: your payment was received. It shows here as soon as the payment service confirms it.',
    thanksRecorded: 'Thank you: your payment is recorded on this invoice.',
    paidInFull: 'Thank you: this invoice is paid.',
    canceled: 'The payment was canceled; nothing was charged.',
    failed: 'The payment did not go through; nothing was charged. You can try again.',
    unavailable: 'Online payment is not available for this invoice. Use the payment instructions on the invoice.',
    alreadyPaid: (number: string) => `Invoice ${number} is already paid. Thank you!`,
    nothingToPay: (number: string) => `There is nothing to pay on invoice ${number}.`,
    amountFormat: (decimals: number, example: string) => `Enter the amount as a number with at most ${decimals} decimals, such as ${example}.`,
    amountBetween: (least: string, most: string) => `Enter an amount between ${least} and ${most}.`,
    amountStep: (currency: string, step: string) => `Amounts in ${currency} are paid online in steps of ${step}.`,
    belowMinimum: (due: string, least: string) => `${due} is below the least that can be paid online (${least}). Use the payment instructions on the invoice.`,
    providerDown: 'The online payment service did not answer as expected, so nothing was charged. Please try again in a few minutes, or use the payment instructions on the invoice.',
    formGarbled: 'The payment form arrived garbled, so nothing was charged. Reload the page and try again.',
    formTooLarge: 'The payment form was too large, so nothing was charged. Reload the page and try again.',
    formNotAForm: 'The payment form must be sent as a form from the invoice page, so nothing was charged. Reload the page and try again.',
  },
  // The receipt emailed for an online payment (§16).
  receipt: {
    subject: (paid: string, number: string, from: string) => `Receipt: ${paid} paid on invoice ${number} from ${from}`,
    testModeNote: 'this payment was made in a test environment; no real money moved.',
    thanks: (paid: string, number: string) => `Thank you: we received your payment of ${paid} for invoice ${number}.`,
    paidOn: 'Paid on',
    reference: 'Payment reference',
    stillDue: 'Amount still due',
    theInvoice: 'The invoice',
  },
  // The lines the service writes itself (§19): time by project, task or person, and expenses by category.
  lines: {
    time: 'Time',
    work: (what: string, dates: string) => `${what}, ${dates}`,
    taskOf: (task: string, project: string) => `${task} (${project})`,
    userOn: (user: string, projects: string) => `${user}: ${projects}`,
    atRate: (rate: string) => `at ${rate}/h`,
    expense: (what: string, date: string) => `Expense: ${what}, ${date}`,
    expenseCategory: {
      software: 'Software',
      hardware: 'Hardware',
      travel: 'Travel',
      meals: 'Meals',
      office: 'Office',
      contractors: 'Contractors',
      fees: 'Fees',
      taxes: 'Taxes',
      marketing: 'Marketing',
      other: 'Other',
    },
  },
};

/** Every label, by group: what each language's file gives. */
export type Labels = typeof en;
