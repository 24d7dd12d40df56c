// Webhook signing secrets: `whsec_` + standard padded base64 of 32 random bytes, shown once. They
// must stay usable for signing, so they are stored AES-GCM-encrypted under WEBHOOK_SECRET_KEY (32
// bytes, base64) rather than hashed, in the secret box (lib/secret-box.ts). Neither form is
// ever logged, put in an event, or kept in an idempotency replay.
import { config } from '../../config';
import { open, seal } from '../../lib/secret-box';

const PREFIX = 'whsec_';
const SECRET_BYTES = 32;

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

export function newSigningSecret(): string {
  return PREFIX + toBase64(crypto.getRandomValues(new Uint8Array(SECRET_BYTES)));
}

// Webhook secrets bind no context: the endpoint row holds them, and those sealed before the secret box
// (no `v1.` prefix) must keep opening.
export const sealSecret = (env: Env, secret: string) => seal(config(env).WEBHOOK_SECRET_KEY, secret, '');
export const openSecret = (env: Env, stored: string) => open(config(env).WEBHOOK_SECRET_KEY, stored, '');

/**
 * The Standard Webhooks signature of one secret: `v1,` + base64 HMAC-SHA256 of
 * `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the base64-decoded part after `whsec_`.
 */
export async function signature(secret: string, id: string, timestamp: number, body: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', fromBase64(secret.slice(PREFIX.length)), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${id}.${timestamp}.${body}`));
  return `v1,${toBase64(new Uint8Array(mac))}`;
}
