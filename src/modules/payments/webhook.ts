// A provider's webhook (§16): `POST /webhooks/payments/<provider>/<workspace provider id>`. The
// provider is looked up by the id in the URL, the raw body's signature checked with that
// provider's webhook secret before anything acts on the body, and only then the event applied. A
// bad or stale signature is 400 and changes nothing; an unknown URL is 404.
//
// Two D1 round trips for a paid checkout: one batch reads the provider with the attempt the body
// names and that attempt's invoice (the body is read, not trusted, to know which rows to fetch:
// the attempt must still be the provider's workspace's, and nothing is written before the
// signature holds), and one batch writes the payment.
import { and, eq, inArray, type SQL } from 'drizzle-orm';
import { invoices, paymentAttempts, paymentProviders } from '../../db/schema';
import { ApiError, notFound } from '../../errors';
import { workspaceDatabases } from '../../lib/databases';
import { createDb } from '../../lib/db';
import { readBoundedBody, verifySignature } from '../../lib/signed-webhook';
import { invoiceWithParties, invoiceWithPartiesQueries } from '../invoices/service';
import { providerNamed, secretsOf } from './connection';
import { applyProviderEvent, type EventOutcome } from './provider-events';
import type { PaymentProvider } from './providers/provider';

const PROVIDER_ID = /^ppr_[0-9A-HJKMNP-TV-Z]{26}$/;

export async function receiveProviderWebhook(env: Env, envFor: (database: string) => Env, name: string, id: string, request: Request): Promise<EventOutcome> {
  const provider = providerNamed(env, name);
  if (!provider || !PROVIDER_ID.test(id)) throw notFound('Payment provider');
  const body = await readBoundedBody(request);
  if (body === undefined) throw new ApiError('payload_too_large', 'A provider event is not this large.');
  const unverified = provider.readEvent(body);
  const found = await readProviderWithAttempt(env, envFor, provider, id, unverified && 'attemptId' in unverified ? unverified.attemptId : null);
  if (!found) throw notFound('Payment provider');
  const { webhookSecret } = await secretsOf(found.env, found.row);
  const header = provider.signatureHeader;
  const check = await verifySignature(request.headers.get(header), body, webhookSecret);
  if (!check.ok) throw new ApiError('invalid_signature', `The ${header} header does not sign this body with the webhook secret (${check.reason}).`);
  if (!unverified) throw new ApiError('invalid_json', 'The body is not a provider event.');
  return applyProviderEvent(found.env, found.row, unverified, { attempt: found.attempt, invoice: found.invoice });
}

/**
 * The provider row of `id` in whichever workspace database holds it, with (in the same batch) the
 * attempt `attemptId` of that provider's workspace and the attempt's invoice with its parties.
 */
async function readProviderWithAttempt(env: Env, envFor: (database: string) => Env, provider: PaymentProvider, id: string, attemptId: string | null) {
  for (const database of workspaceDatabases(env)) {
    const dbEnv = envFor(database);
    const db = createDb(dbEnv.DB);
    const workspaceOfProvider = db.select({ id: paymentProviders.workspaceId }).from(paymentProviders).where(eq(paymentProviders.id, id));
    const theAttempt: SQL = and(eq(paymentAttempts.id, attemptId ?? ''), inArray(paymentAttempts.workspaceId, workspaceOfProvider))!;
    const [[row], [attempt], ...invoiceRows] = await db.batch([
      db.select().from(paymentProviders).where(and(eq(paymentProviders.id, id), eq(paymentProviders.provider, provider.name))),
      db.select().from(paymentAttempts).where(theAttempt),
      ...invoiceWithPartiesQueries(db, inArray(invoices.id, db.select({ id: paymentAttempts.invoiceId }).from(paymentAttempts).where(theAttempt))),
    ]);
    if (row) return { row, env: dbEnv, attempt, invoice: invoiceWithParties(invoiceRows as Parameters<typeof invoiceWithParties>[0]) };
  }
  return undefined;
}
