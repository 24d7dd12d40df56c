// Webhook signing secrets: `whsec_` + standard padded base64 of 32 random bytes, shown once. They
// must stay usable for signing, so they are stored AES-GCM-encrypted under WEBHOOK_SECRET_KEY (32
// bytes, base64) rather than hashed; the stored form is base64(iv ‖ ciphertext). Neither form is
// ever logged, put in an event, or kept in an idempotency replay.
import { config } from '../../config';

const PREFIX = 'whsec_';
const SECRET_BYTES = 32;
const IV_BYTES = 12;

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

const keys = new Map<string, Promise<CryptoKey>>();

function encryptionKey(env: Env): Promise<CryptoKey> {
  const raw = config(env).WEBHOOK_SECRET_KEY;
  let key = keys.get(raw);
  if (!key) {
    key = crypto.subtle.importKey('raw', fromBase64(raw), 'AES-GCM', false, ['encrypt', 'decrypt']);
    keys.set(raw, key);
  }
  return key;
}

export function newSigningSecret(): string {
  return PREFIX + toBase64(crypto.getRandomValues(new Uint8Array(SECRET_BYTES)));
}

export async function sealSecret(env: Env, secret: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, await encryptionKey(env), new TextEncoder().encode(secret)));
  const out = new Uint8Array(IV_BYTES + sealed.length);
  out.set(iv);
  out.set(sealed, IV_BYTES);
  return toBase64(out);
}

export async function openSecret(env: Env, stored: string): Promise<string> {
  const bytes = fromBase64(stored);
  const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: bytes.slice(0, IV_BYTES) }, await encryptionKey(env), bytes.slice(IV_BYTES));
  return new TextDecoder().decode(plain);
}

/**
 * The Standard Webhooks signature of one secret: `v1,` + base64 HMAC-SHA256 of
 * `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the base64-decoded part after `whsec_`.
 */
export async function signature(secret: string, id: string, timestamp: number, body: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', fromBase64(secret.slice(PREFIX.length)), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${id}.${timestamp}.${body}`));
  return `v1,${toBase64(new Uint8Array(mac))}`;
}
