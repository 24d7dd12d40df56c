// The operations that move money or send a document to a client (§23): as tools, their first call
// does nothing but propose, and only a person's yes performs them. Named by operationId; a test
// checks that each still names an operation of the document, so a renamed one cannot slip out.
export const NEEDS_A_YES = [
  'sendInvoice', 'sendQuote', 'recordInvoicePayment', 'refundInvoicePayment', 'createCreditNote', 'voidInvoice', 'createTransfer', 'acceptQuote',
] as const;

export type ProposedOperation = (typeof NEEDS_A_YES)[number];

export const needsAYes = (operationId: string): operationId is ProposedOperation => (NEEDS_A_YES as readonly string[]).includes(operationId);

/** What the first call answers instead of the operation's result. */
export const PROPOSAL_SCHEMA = {
  type: 'object',
  properties: {
    proposal_id: { type: 'string', pattern: '^mcp_[0-9A-HJKMNP-TV-Z]{26}$', description: 'Pass to confirmProposal once the user agrees.' },
    summary: { type: 'string', description: 'What would be done, in one sentence of the workspace\'s language: show it to the user.' },
    expires_at: { type: 'string', format: 'date-time', description: 'Confirm before then (10 minutes).' },
  },
  required: ['proposal_id', 'summary', 'expires_at'],
} as const;

export const CONFIRM_TOOL = 'confirmProposal';
