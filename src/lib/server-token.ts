// Tokens derived from a record's id under the server secret INVOICE_LINK_SECRET: HMAC-SHA256 as
// base64url (43 characters, 256 bits no one can guess). The server can make the same token again
// whenever it needs it, so the token itself is never stored; only its SHA-256 is, to find the record
// by it. Each use names its own purpose in the message, so a token of one kind is never one of another.
import { config } from '../config';

const keys = new Map<string, Promise<CryptoKey>>();

function serverKey(env: Env): Promise<CryptoKey> {
  const secret = config(env).INVOICE_LINK_SECRET;
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    keys.set(secret, key);
  }
  return key;
}

export async function serverToken(env: Env, message: string): Promise<string> {
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await serverKey(env), new TextEncoder().encode(message)));
  return btoa(String.fromCharCode(...mac)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
