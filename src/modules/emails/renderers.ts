// What the emails consumer sends is composed by the room that owns the record, and those rooms
// (invoices, payments, credit notes, access, quotes, proposals) build on this one: they queue their emails
// here. So each hands its piece to this registry at start (src/registrations.ts) instead of being
// imported by the consumer: a renderer per kind of outbox row, and, for the emails whose state
// lives on their own record (an invitation, a quote, a proposal's), the whole attempt.
import type { WorkspaceContext } from '../../lib/context';
import type { EmailDeliveryRow } from './outbox';
import type { ComposedEmail } from './providers';

/** Composes an outbox row's email from its record as it is now. */
export type EmailRenderer = (ctx: WorkspaceContext, row: EmailDeliveryRow) => Promise<ComposedEmail>;

/** One attempt at an email kept on its own record; returns seconds to wait when the message came early. */
export type EmailAttempt = (env: Env, id: string) => Promise<number | void>;

type MessageKind = 'invitation' | 'quote' | 'proposal';

const renderers = new Map<EmailDeliveryRow['kind'], EmailRenderer>();
const attempts = new Map<MessageKind, EmailAttempt>();

export function registerEmailRenderer(kinds: EmailDeliveryRow['kind'][], renderer: EmailRenderer): void {
  for (const kind of kinds) renderers.set(kind, renderer);
}

export function registerEmailAttempt(kind: MessageKind, attempt: EmailAttempt): void {
  attempts.set(kind, attempt);
}

// A kind nobody registered is a wiring mistake, not a failed delivery: it throws, and the message is retried.
export function rendererFor(kind: EmailDeliveryRow['kind']): EmailRenderer {
  const renderer = renderers.get(kind);
  if (!renderer) throw new Error(`No email renderer registered for ${kind}`);
  return renderer;
}

export function attemptFor(kind: MessageKind): EmailAttempt {
  const attempt = attempts.get(kind);
  if (!attempt) throw new Error(`No email attempt registered for ${kind}`);
  return attempt;
}
