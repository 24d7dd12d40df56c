// The `webhooks` section of /openapi.json (OpenAPI 3.1): one entry per event type, each the POST a
// receiver gets, with the event as its body. What every delivery shares, the Standard Webhooks
// headers and the answer the receiver gives, is declared once, on `webhook.test`, rather than on 55
// entries; the reference at /docs shows it on each (docsView in docs-page.ts).
import type { OpenAPIHono } from '@hono/zod-openapi';
import { z } from '@hono/zod-openapi';
import { Client } from '../clients/schemas';
import { CreditNote } from '../credit-notes/schemas';
import { Event } from '../event-feed/schemas';
import { EVENT_TYPES } from '../events/types';
import { Expense } from '../expenses/schemas';
import { InboundDocument } from '../inbound-documents/schemas';
import { Invoice } from '../invoices/schemas';
import { McpProposal } from '../mcp/schemas';
import { Payment } from '../payments/schemas';
import { Project } from '../projects/schemas';
import { RecurringInvoice } from '../recurring-invoices/schemas';
import { TimeEntry } from '../time-entries/schemas';
import { Quote } from '../quotes/schemas';
import { Proposal } from '../proposals/schemas';
import { Suggestion } from '../suggestions/schemas';
import { Transfer } from '../transfers/schemas';
import { Member } from '../workspaces/schemas';

const headers = z.object({
  'webhook-id': z.string().openapi({ description: 'The event id (`evt_…`), the same on every retry: deduplicate on it.' }),
  'webhook-timestamp': z.string().openapi({ description: 'Unix seconds of this attempt. Refuse deliveries more than a few minutes old.' }),
  'webhook-signature': z.string().openapi({
    description: 'Space-separated `v1,<base64 HMAC-SHA256>` of `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the base64-decoded part of the endpoint secret after `whsec_`; two while a rotation overlaps.',
  }),
});

const RECEIVER_ANSWER = {
  200: { description: 'Any 2xx within 15 s is a success. Anything else, redirects included, is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (plus up to 20 % jitter, or your Retry-After, at least 5 s and at most 10 h); 410 disables the endpoint at once.' },
};

/** The record each kind of event carries in `data.object`, by the part of its type before the dot. */
const OBJECTS: Record<string, [string, z.ZodType]> = {
  client: ['Client', Client], project: ['Project', Project], invoice: ['Invoice', Invoice], expense: ['Expense', Expense],
  transfer: ['Transfer', Transfer], suggestion: ['Suggestion', Suggestion], recurring_invoice: ['RecurringInvoice', RecurringInvoice],
  member: ['Member', Member], time_entry: ['TimeEntry', TimeEntry], credit_note: ['CreditNote', CreditNote], quote: ['Quote', Quote],
  inbound_document: ['InboundDocument', InboundDocument],
  // gig.proposal_received carries the proposal, as every proposal.* does.
  gig: ['Proposal', Proposal], proposal: ['Proposal', Proposal],
  mcp: ['McpProposal', McpProposal],
};

const pascal = (type: string) => type.split(/[._]/).map((part) => part[0]!.toUpperCase() + part.slice(1)).join('');
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const inWords = (type: string) => `${type[0]!.toUpperCase()}${type.slice(1).replace(/[._]/g, ' ')}`;

/**
 * (An invoice in an event has `hosted_url` and `pdf_url` null: the links act as keys to the
 * client's page, and events go to other systems.)
 *
 * One payload schema per event type (`InvoicePaidEvent`): the events about a kind of record
 * (`InvoiceEvent`: the Event with `data.object` the record it carries), with `type` fixed, and
 * `data.payment` on invoice.payment_recorded and `previous_attributes` where §11 says they are
 * present. What each type adds is written beside a reference to its kind's schema, not the kind's
 * schema again: 55 types over 12 kinds. A type not mapped here carries an Event.
 */
function payloadSchema(registry: OpenAPIHono['openAPIRegistry'], type: string, kinds: Set<string>): z.ZodType | { $ref: string } {
  const kind = type.split('.')[0]!;
  const [objectName] = OBJECTS[kind] ?? [];
  if (!objectName) return Event;
  // Named after the record it carries: gig.proposal_received shares ProposalEvent with proposal.*.
  const kindName = `${objectName}Event`;
  if (!kinds.has(kindName)) {
    kinds.add(kindName);
    registry.registerComponent('schemas', kindName, {
      allOf: [ref('Event'), { type: 'object', properties: { data: { type: 'object', properties: { object: ref(objectName) }, required: ['object'] } } }],
    } as never);
  }
  const more: Record<string, unknown> = {
    ...(type === 'invoice.payment_recorded' ? { payment: ref('Payment') } : {}),
    ...(type === 'invoice.credited' ? { credit_note: ref('CreditNote') } : {}),
  };
  // The nine types that carry `previous_attributes` refer to one schema that requires it.
  const previous = type.endsWith('.updated') || type === 'member.role_changed';
  if (previous && !kinds.has('ChangeEventData')) {
    kinds.add('ChangeEventData');
    registry.registerComponent('schemas', 'ChangeEventData', { type: 'object', properties: { previous_attributes: { type: 'object' } }, required: ['previous_attributes'] } as never);
  }
  const data = previous ? { data: ref('ChangeEventData') } : Object.keys(more).length ? { data: { type: 'object', properties: more, required: Object.keys(more) } } : {};
  const name = `${pascal(type)}Event`;
  registry.registerComponent('schemas', name, { allOf: [ref(kindName), { properties: { type: { const: type }, ...data } }] } as never);
  return ref(name);
}

export function registerWebhookEvents(registry: OpenAPIHono['openAPIRegistry']) {
  // The records the payloads name, for the document to hold even where no operation returns them.
  for (const [name, schema] of [...Object.values(OBJECTS), ['Payment', Payment] as const]) registry.register(name, schema);
  const kinds = new Set<string>();
  for (const type of [...EVENT_TYPES, 'webhook.test']) {
    registry.registerWebhook({
      method: 'post',
      path: type,
      // Stable names for generated receivers: `webhookInvoicePaid`. The receiver checks the
      // signature, not a bearer token, so the operation declares no security scheme.
      operationId: `webhook${pascal(type)}`,
      security: [],
      // The type in words (`invoice.payment_recorded`: "Invoice payment recorded"): every operation has a summary.
      summary: type === 'webhook.test' ? 'A test event, sent by POST /api/webhook-endpoints/{id}/test' : inWords(type),
      // No tag: a reference lists webhooks in a section of their own (Swagger UI ignores their tags),
      // after the Webhooks tag's operations, whose description introduces them.
      request: { ...(type === 'webhook.test' ? { headers } : {}), body: { content: { 'application/json': { schema: payloadSchema(registry, type, kinds) as z.ZodType } } } },
      // None for the other entries: the document drops the empty list (withSharedComponents).
      responses: type === 'webhook.test' ? RECEIVER_ANSWER : {},
    });
  }
}
