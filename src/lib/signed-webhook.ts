// Receiving a provider's signed webhook: the raw body read once (bounded), its signature checked
// before anything is parsed or written. The scheme here is the one Stripe uses and others copy:
// a header `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">[,v1=…]` (several v1 while a
// secret rolls), accepted within a tolerance of the signer's clock. Also the signer, for the
// sandbox provider that sends itself events and for tests. Wise signs differently: an RSA-SHA256
// signature of the raw body, base64 in one header, checked against Wise's public key
// (verifyRsaSignature below).
import { readAtMost } from './bounded-read';
import { timingSafeEqualStrings } from './crypto';

export const SIGNATURE_TOLERANCE_SECONDS = 300;
/** Provider events are small; anything larger is not one. */
export const MAX_WEBHOOK_BODY_BYTES = 512 * 1024;

const encoder = new TextEncoder();

async function hmacHex(secret: string, payload: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(payload)));
  return Array.from(mac, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The header value for `body` signed with `secret` at `timestamp` (Unix seconds). */
export async function signPayload(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)): Promise<string> {
  return `t=${timestamp},v1=${await hmacHex(secret, `${timestamp}.${body}`)}`;
}

export type SignatureCheck = { ok: true } | { ok: false; reason: string };

/** Whether `header` signs `body` with `secret`, within the tolerance of `now` (ms). */
export async function verifySignature(header: string | undefined | null, body: string, secret: string, now = Date.now()): Promise<SignatureCheck> {
  if (!header) return { ok: false, reason: 'missing signature header' };
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    const name = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (name === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (name === 'v1' && /^[0-9a-f]{64}$/.test(value)) signatures.push(value);
  }
  if (timestamp === undefined || !signatures.length) return { ok: false, reason: 'malformed signature header' };
  if (Math.abs(now / 1000 - timestamp) > SIGNATURE_TOLERANCE_SECONDS) return { ok: false, reason: 'timestamp outside the tolerance' };
  const expected = await hmacHex(secret, `${timestamp}.${body}`);
  for (const candidate of signatures) if (await timingSafeEqualStrings(candidate, expected)) return { ok: true };
  return { ok: false, reason: 'no signature matches' };
}

/** The request's body as text, or undefined when it is larger than a provider event can be. */
export async function readBoundedBody(request: Request, limit = MAX_WEBHOOK_BODY_BYTES): Promise<string | undefined> {
  const declared = Number(request.headers.get('Content-Length') ?? 0);
  if (declared > limit) return undefined;
  const bytes = await readAtMost(request.body, limit);
  return bytes === null ? undefined : new TextDecoder().decode(bytes);
}

const rsaKeys = new Map<string, Promise<CryptoKey>>();

function importRsaPublicKey(pem: string): Promise<CryptoKey> {
  let key = rsaKeys.get(pem);
  if (!key) {
    const der = Uint8Array.from(atob(pem.replace(/-----(BEGIN|END) PUBLIC KEY-----/g, '').replace(/\s+/g, '')), (c) => c.charCodeAt(0));
    key = crypto.subtle.importKey('spki', der, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['verify']);
    rsaKeys.set(pem, key);
    key.catch(() => rsaKeys.delete(pem));
  }
  return key;
}

/** Whether `signature` (base64) is the RSASSA-PKCS1-v1_5 SHA-256 signature of `body` under `publicKeyPem` (SPKI). */
export async function verifyRsaSignature(signature: string | undefined | null, body: string, publicKeyPem: string): Promise<SignatureCheck> {
  if (!signature) return { ok: false, reason: 'missing signature header' };
  let key: CryptoKey;
  try {
    key = await importRsaPublicKey(publicKeyPem);
  } catch {
    return { ok: false, reason: 'the configured public key cannot be read' };
  }
  let bytes: Uint8Array;
  try {
    bytes = Uint8Array.from(atob(signature.trim()), (c) => c.charCodeAt(0));
  } catch {
    return { ok: false, reason: 'malformed signature header' };
  }
  const ok = await crypto.subtle.verify('RSASSA-PKCS1-v1_5', key, bytes, encoder.encode(body));
  return ok ? { ok: true } : { ok: false, reason: 'the signature does not match' };
}
