// Prompts: two recurring jobs written as instructions over the tools, for the assistant to carry
// out with the user's key. They send and change nothing by themselves: what they draft is the
// user's to send (and sending is a proposal anyway).
import { RpcError, RPC } from './json-rpc';

type Argument = { name: string; description: string; required: boolean };
type Prompt = { name: string; title: string; description: string; arguments: Argument[]; text: (args: Record<string, string>) => string };

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** The month before today's (UTC), `YYYY-MM`. */
function lastMonth(): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
}

function monthRange(month: string): { from: string; to: string } {
  const [year, m] = month.split('-').map(Number) as [number, number];
  return { from: `${month}-01`, to: new Date(Date.UTC(year, m, 0)).toISOString().slice(0, 10) };
}

const PROMPTS: Prompt[] = [
  {
    name: 'overdue-follow-up',
    title: 'Follow up on overdue invoices',
    description: 'Drafts a payment reminder for each overdue invoice, in its client\'s language.',
    arguments: [{ name: 'tone', description: 'How the reminders should sound: friendly (default), firm or final.', required: false }],
    text: ({ tone }) => [
      `Draft a ${tone || 'friendly'} payment reminder for every overdue invoice of this workspace.`,
      '1. Call listInvoices with status "overdue" (follow next_cursor until has_more is false).',
      '2. For each invoice, call getClient with its client_id: write in the language of the client\'s `locale` (or the invoice\'s `locale` when the client has none).',
      '3. Each reminder names the invoice number, the amount due (amount_due is in minor units of the invoice currency: format it as people write that currency in that language), the due date, and the link to pay or view it (hosted_url), and is addressed to the client\'s name.',
      'Show me all the drafts, one per invoice, with the client\'s email. Do not send anything and change nothing.',
    ].join('\n'),
  },
  {
    name: 'month-end',
    title: 'Month-end close',
    description: 'What to bill, what is unpaid and what to hand the accountant, for a month.',
    arguments: [{ name: 'month', description: 'The month to close, YYYY-MM (default: last month).', required: false }],
    text: ({ month }) => {
      const { from, to } = monthRange(month || lastMonth());
      return [
        `Prepare the month-end close for ${from} to ${to}.`,
        `1. What to bill: summarizeTimeEntries from ${from} to ${to}, and listTimeEntries with billable true and invoiced false in that range, grouped by client; listInvoices with status "draft" (drafts waiting to be sent); listRecurringInvoices for what will be issued on its own.`,
        '2. What is unpaid: listInvoices with status "open" and with status "overdue": totals of amount_due per currency, and the oldest ones first.',
        `3. What to hand the accountant: listInvoices issued from ${from} to ${to} (issued_from, issued_to), the credit notes of those invoices (listInvoiceCreditNotes), listExpenses from ${from} to ${to}, and getDashboard for the same range.`,
        'Amounts are integers in the currency\'s minor unit: show them formatted. Summarize each part as a short list with totals per currency, and propose the next steps. Send nothing and change nothing without asking me.',
      ].join('\n');
    },
  },
];

export function listPrompts() {
  return { prompts: PROMPTS.map(({ name, title, description, arguments: args }) => ({ name, title, description, arguments: args })) };
}

export function getPrompt(params: Record<string, unknown>) {
  const prompt = PROMPTS.find((candidate) => candidate.name === params.name);
  if (!prompt) throw new RpcError(RPC.invalidParams, `Unknown prompt: ${String(params.name)}. prompts/list names them.`);
  const args = (params.arguments ?? {}) as Record<string, string>;
  if (args.month !== undefined && prompt.name === 'month-end' && !MONTH.test(args.month)) throw new RpcError(RPC.invalidParams, '`month` is YYYY-MM, such as 2026-10.');
  return { description: prompt.description, messages: [{ role: 'user', content: { type: 'text', text: prompt.text(args) } }] };
}
