// Reading a body from outside with a ceiling: a chunked body has no Content-Length to trust, so the
// stream is read chunk by chunk and dropped as soon as it passes the limit, never held whole.

/** The whole stream, or null as soon as it passes `limit` bytes (the rest is never read). */
export async function readAtMost(stream: ReadableStream<Uint8Array> | null, limit: number): Promise<Uint8Array | null> {
  if (!stream) return new Uint8Array();
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/**
 * The most of any outside service's answer that is read (§7): payment and transfer providers, model
 * servers, the rates upstream, the email service. Their real answers are a few kilobytes; past this
 * one is a failed attempt, not memory a broken or hostile server makes the worker spend.
 */
export const OUTSIDE_ANSWER_MAX_BYTES = 1024 * 1024;

/**
 * An outside answer's body as text, or null when it is larger than `limit`: refused at once when its
 * Content-Length says so, else as soon as the bytes read pass it (the rest is never read). The one way
 * src/ reads an answer from outside whole.
 */
export async function readAnswerText(res: Response, limit = OUTSIDE_ANSWER_MAX_BYTES): Promise<string | null> {
  const declared = Number(res.headers.get('Content-Length'));
  if (declared > limit) {
    await res.body?.cancel().catch(() => undefined);
    return null;
  }
  const bytes = await readAtMost(res.body, limit);
  return bytes === null ? null : new TextDecoder().decode(bytes);
}

/** The first `limit` bytes of an outside answer as text, for a log or an attempt's record; the rest is not read. */
export async function readAnswerStart(res: Response, limit: number): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < limit) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
  }
  await reader.cancel().catch(() => undefined);
  const bytes = new Uint8Array(Math.min(size, limit));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk.slice(0, bytes.length - offset), offset);
    offset += Math.min(chunk.length, bytes.length - offset);
    if (offset >= bytes.length) break;
  }
  return new TextDecoder().decode(bytes);
}
