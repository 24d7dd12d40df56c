// The closed set of event types (§11). A change writes one of these; webhooks, the dashboard's
// activity and reminders all read them, so adding a type here is adding it to the contract.
import { z } from '@hono/zod-openapi';

export const EVENT_TYPES = [
  'client.created', 'client.updated', 'client.deleted',
  'project.created', 'project.updated', 'project.deleted',
  'invoice.created', 'invoice.updated', 'invoice.deleted', 'invoice.sent', 'invoice.viewed',
  'invoice.payment_recorded', 'invoice.paid', 'invoice.voided', 'invoice.overdue',
  'invoice.payment_refunded', 'invoice.overpaid', 'invoice.credited',
  'credit_note.issued',
  'expense.created', 'expense.updated', 'expense.deleted',
  'transfer.created', 'transfer.processing', 'transfer.completed', 'transfer.failed', 'transfer.canceled',
  'suggestion.completed', 'suggestion.failed',
  'recurring_invoice.created', 'recurring_invoice.updated', 'recurring_invoice.paused', 'recurring_invoice.resumed',
  'recurring_invoice.canceled', 'recurring_invoice.completed',
  'member.added', 'member.removed', 'member.role_changed',
  'time_entry.created', 'time_entry.updated', 'time_entry.deleted',
  'quote.created', 'quote.updated', 'quote.deleted', 'quote.sent', 'quote.viewed', 'quote.accepted', 'quote.declined',
  'quote.expired', 'quote.canceled', 'quote.converted',
  'inbound_document.received', 'inbound_document.processed', 'inbound_document.updated', 'inbound_document.accepted',
  'inbound_document.rejected',
  'invoice.delivered', 'credit_note.delivered',
  // §24: a proposal received on the poster's gig, withdrawn by its sender, declined or accepted by the poster.
  'gig.proposal_received', 'proposal.withdrawn', 'proposal.declined', 'proposal.accepted',
  'mcp.proposal_created', 'mcp.proposal_confirmed', 'mcp.proposal_expired',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export const EventTypeSchema = z.enum(EVENT_TYPES).openapi({ description: 'An event type (see `webhooks`).', example: 'invoice.paid' });

/** The record as the API returns it: at least its id. */
export type EventObject = { id: string } & Record<string, unknown>;
