// A provider's webhook (§16): `POST /webhooks/payments/<provider>/<workspace provider id>`. The
// provider is looked up by the id in the URL, the raw body's signature checked with that
// provider's webhook secret before anything is parsed, and only then the event applied. A bad or
// stale signature is 400 and changes nothing; an unknown URL is 404.
import { ApiError, notFound } from '../../errors';
import { readBoundedBody, verifySignature } from '../../lib/signed-webhook';
import { findProviderById, secretsOf } from './connection';
import { applyProviderEvent, type EventOutcome } from './provider-events';

export async function receiveProviderWebhook(env: Env, envFor: (database: string) => Env, name: string, id: string, request: Request): Promise<EventOutcome> {
  const found = /^ppr_[0-9A-HJKMNP-TV-Z]{26}$/.test(id) ? await findProviderById(env, name, id, envFor) : undefined;
  if (!found) throw notFound('Payment provider');
  const body = await readBoundedBody(request);
  if (body === undefined) throw new ApiError('payload_too_large', 'A provider event is not this large.');
  const { webhookSecret } = await secretsOf(found.env, found.row);
  const header = found.provider.signatureHeader;
  const check = await verifySignature(request.headers.get(header), body, webhookSecret);
  if (!check.ok) throw new ApiError('invalid_signature', `The ${header} header does not sign this body with the webhook secret (${check.reason}).`);
  const event = found.provider.readEvent(body);
  if (!event) throw new ApiError('invalid_json', 'The body is not a provider event.');
  const outcome = await applyProviderEvent(found.env, found.row, event);
  return outcome;
}
