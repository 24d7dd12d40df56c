// Secrets a provider needs back in clear (an API key, a webhook signing secret), sealed at rest with
// AES-GCM under a 32-byte key from the environment. The stored form is `v1.` + base64(iv ‖ ciphertext);
// `context` is bound in as additional data, so a sealed value copied onto another record (another
// workspace's provider) does not open there. Neither form is ever logged, put in an event or replayed.
// A stored form without the prefix is the one webhook secrets were first sealed in: the same layout
// with no additional data, which is what an empty `context` is to AES-GCM, so it opens the same way.
const IV_BYTES = 12;
const VERSION = 'v1.';

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
const encoder = new TextEncoder();

const keys = new Map<string, Promise<CryptoKey>>();

function importKey(rawBase64: string): Promise<CryptoKey> {
  let key = keys.get(rawBase64);
  if (!key) {
    key = crypto.subtle.importKey('raw', fromBase64(rawBase64), 'AES-GCM', false, ['encrypt', 'decrypt']);
    keys.set(rawBase64, key);
  }
  return key;
}

export async function seal(keyBase64: string, secret: string, context: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: encoder.encode(context) }, await importKey(keyBase64), encoder.encode(secret)),
  );
  const out = new Uint8Array(IV_BYTES + sealed.length);
  out.set(iv);
  out.set(sealed, IV_BYTES);
  return VERSION + toBase64(out);
}

export async function open(keyBase64: string, stored: string, context: string): Promise<string> {
  const bytes = fromBase64(stored.startsWith(VERSION) ? stored.slice(VERSION.length) : stored);
  const plain = await crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: bytes.slice(0, IV_BYTES), additionalData: encoder.encode(context) },
    await importKey(keyBase64),
    bytes.slice(IV_BYTES),
  );
  return new TextDecoder().decode(plain);
}
