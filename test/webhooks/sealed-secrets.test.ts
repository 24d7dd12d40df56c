// Webhook signing secrets live in the secret box (lib/secret-box.ts). Those sealed before it, in the
// bare base64(iv ‖ ciphertext) form, must keep opening, or every endpoint made earlier stops signing.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { config } from '../../src/config';
import { newSigningSecret, openSecret, sealSecret } from '../../src/modules/webhooks/secrets';

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

/** A secret sealed the way the first release of webhooks wrote it. */
async function sealedTheOldWay(secret: string): Promise<string> {
  const raw = Uint8Array.from(atob(config(env).WEBHOOK_SECRET_KEY), (c) => c.charCodeAt(0));
  const key = await crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt']);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, new TextEncoder().encode(secret)));
  return toBase64(new Uint8Array([...iv, ...sealed]));
}

describe('sealed webhook secrets', () => {
  it('open whether sealed now or by the first release, and never store the secret in clear', async () => {
    const secret = newSigningSecret();
    const now = await sealSecret(env, secret);
    expect(now).not.toContain(secret.slice(6));
    expect(await openSecret(env, now)).toBe(secret);
    expect(await openSecret(env, await sealedTheOldWay(secret))).toBe(secret);
  });
});
