// Where a received document's original lives: object storage (R2, binding FILES), stored unchanged. R2 has no
// access control of its own, so the key is what keeps one workspace's files from another: 128 random bits no
// one can guess, under the workspace's prefix (so its files can be listed and removed together). The key is
// kept in the document's row (`file_key`) and never shown.
import { randomToken } from '../../lib/crypto';

/** `inbound/<workspace id>/<128 random bits>`. */
export const newFileKey = (workspaceId: string) => `inbound/${workspaceId}/${randomToken(16)}`;

export async function storeOriginal(env: Env, key: string, bytes: Uint8Array, file: { contentType: string; sha256: string }): Promise<void> {
  await env.FILES.put(key, bytes, { httpMetadata: { contentType: file.contentType }, customMetadata: { sha256: file.sha256 }, sha256: file.sha256 });
}

/** The original's bytes as a stream, or null when it is gone. */
export async function readOriginal(env: Env, key: string): Promise<ReadableStream | null> {
  return (await env.FILES.get(key))?.body ?? null;
}

/** The original's bytes whole, for a reader (at most the 10 MB an upload may be). */
export async function originalBytes(env: Env, key: string): Promise<ArrayBuffer | null> {
  const object = await env.FILES.get(key);
  return object ? object.arrayBuffer() : null;
}

export async function deleteOriginal(env: Env, key: string): Promise<void> {
  await env.FILES.delete(key);
}
