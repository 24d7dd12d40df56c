// The one line the dashboard's activity shows for an event, written when the event is.
import type { EventObject, EventType } from './types';

const str = (value: unknown) => (typeof value === 'string' && value ? value : undefined);

/** "4900 USD (minor units)": money as the API states it, never divided for display here. */
const amount = (value: unknown, currency: unknown) =>
  [typeof value === 'number' ? value : '?', str(currency), '(minor units)'].filter(Boolean).join(' ');

/** How a record names itself in a sentence: an invoice by number, a client by name, … */
function label(type: EventType, object: EventObject): string {
  const noun = type.slice(0, type.indexOf('.'));
  switch (noun) {
    case 'invoice':
      return `Invoice ${str(object.number) ?? object.id}`;
    case 'credit_note':
      return `Credit note ${str(object.number) ?? object.id}`;
    case 'quote':
      return `Quote ${str(object.number) ?? object.id}`;
    case 'recurring_invoice':
      return `Recurring invoice ${object.id}`;
    case 'member':
      return `Member ${str((object.user as { name?: string } | undefined)?.name) ?? object.id}`;
    case 'transfer':
      return `Transfer of ${amount(object.source_amount, object.source_currency)}`;
    case 'time_entry':
      return `Time entry${str(object.task) ? ` "${str(object.task)}"` : ''} of ${str((object.user as { name?: string } | undefined)?.name) ?? 'a member'}`;
    case 'inbound_document':
      return `Document ${str(object.filename) ?? object.id}`;
    // The object of a proposal's events is the proposal: it names its sender by their workspace.
    case 'gig':
    case 'proposal':
      return `Proposal from ${str((object.from as { workspace?: string } | undefined)?.workspace) ?? object.id}`;
    case 'mcp':
      return `Proposal ${object.id}${str(object.tool) ? ` to ${str(object.tool)}` : ''}`;
    case 'expense':
      return `Expense${str(object.vendor) ? ` at ${str(object.vendor)}` : ''} of ${amount(object.amount, object.currency)}`;
    default:
      return `${noun[0]!.toUpperCase()}${noun.slice(1)} ${str(object.name) ?? str(object.title) ?? object.id}`;
  }
}

const VERBS: Partial<Record<string, string>> = {
  created: 'created', updated: 'updated', deleted: 'deleted', sent: 'sent', viewed: 'viewed by the client',
  payment_recorded: 'received a payment', paid: 'paid in full', voided: 'voided', overdue: 'is overdue',
  payment_refunded: 'refunded a payment', overpaid: 'was paid more than its total',
  credited: 'was credited', issued: 'issued',
  processing: 'is processing', completed: 'completed', failed: 'failed', canceled: 'canceled',
  paused: 'paused', resumed: 'resumed', accepted: 'accepted', declined: 'declined', expired: 'expired', converted: 'converted into an invoice', proposal_received: 'received', withdrawn: 'withdrawn', added: 'added', removed: 'removed', role_changed: 'changed role',
  received: 'received', processed: 'processed', rejected: 'rejected', delivered: 'delivered to the client\'s workspace',
  proposal_created: 'made over MCP', proposal_confirmed: 'confirmed', proposal_expired: 'expired unconfirmed',
};

export function summarize(type: EventType, object: EventObject): string {
  const action = type.slice(type.indexOf('.') + 1);
  const suffix = type === 'member.role_changed' && str(object.role) ? ` to ${str(object.role)}` : '';
  return `${label(type, object)} ${VERBS[action] ?? action}${suffix}`;
}
