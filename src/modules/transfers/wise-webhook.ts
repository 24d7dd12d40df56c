// Wise's webhook (§6): `POST /webhooks/payouts/wise`, one address for every workspace. The raw body's
// X-Signature-SHA256 (RSA-SHA256, base64) is checked against Wise's public key,
// WISE_WEBHOOK_PUBLIC_KEY, before anything is parsed or written: a bad signature is 400 and
// changes nothing. A transfers#state-change then applies to the transfer Wise knows by that id, on
// whichever database holds it; other events, and Wise's test notifications, are acknowledged.
import { Hono } from 'hono';
import { config } from '../../config';
import { ApiError, notFound } from '../../errors';
import { workspaceDatabases } from '../../lib/databases';
import { readBoundedBody, verifyRsaSignature } from '../../lib/signed-webhook';
import type { AppEnv } from '../../env';
import { requestEnvFor } from '../../middleware/d1-session';
import { applyProviderState, findWiseTransfer, type StateOutcome } from './provider-state';

export async function receiveWiseWebhook(env: Env, envFor: (database: string) => Env, request: Request): Promise<StateOutcome | 'ignored'> {
  const publicKey = config(env).WISE_WEBHOOK_PUBLIC_KEY;
  if (!publicKey) throw notFound('Wise webhook receiver');
  const body = await readBoundedBody(request);
  if (body === undefined) throw new ApiError('payload_too_large', 'A Wise event is not this large.');
  const check = await verifyRsaSignature(request.headers.get('X-Signature-SHA256'), body, publicKey);
  if (!check.ok) throw new ApiError('invalid_signature', `The X-Signature-SHA256 header does not sign this body with Wise's public key (${check.reason}).`);
  let event: { event_type?: unknown; data?: { resource?: { id?: unknown; type?: unknown }; current_state?: unknown } };
  try {
    event = JSON.parse(body);
  } catch {
    throw new ApiError('invalid_json', 'The body is not a Wise event.');
  }
  if (request.headers.get('X-Test-Notification') === 'true' || event?.event_type !== 'transfers#state-change') return 'ignored';
  const id = event.data?.resource?.id;
  const state = event.data?.current_state;
  if ((typeof id !== 'number' && typeof id !== 'string') || typeof state !== 'string') throw new ApiError('invalid_json', 'A transfers#state-change without data.resource.id and data.current_state.');
  for (const database of workspaceDatabases(env)) {
    const found = await findWiseTransfer(envFor(database), String(id));
    if (found) return applyProviderState(found.ctx, found.row, state);
  }
  return 'ignored'; // a transfer made at Wise outside this API
}

export const payoutWebhookRoutes = new Hono<AppEnv>().post('/payouts/wise', async (c) => {
  const outcome = await receiveWiseWebhook(c.env, (name) => requestEnvFor(c, name), c.req.raw);
  return c.json({ status: 'ok', outcome }, 200);
});
