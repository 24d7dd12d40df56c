// Reads a file sent as a request's body, for the routes that take one instead of JSON (defineRoute's `upload`,
// in place of json-body.ts), after the access checks: the file as the raw body (its name in `?filename=`), or
// as the field `file` of a multipart/form-data body (its name the part's). A body over the route's limit is a
// 413, refused by its Content-Length when that says so, else as soon as the bytes read pass it. Nothing here
// trusts the declared Content-Type of the file: what the bytes are is the route's to find out.
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env';
import { ApiError, invalidField } from '../errors';
import { readAtMost } from '../lib/bounded-read';
import { sha256Hex } from '../lib/crypto';

/** The file a request sent, and the name it gave it (null when none). */
export type Upload = { bytes: Uint8Array; filename: string | null };

// What a multipart body may add around its file: the boundaries and the part's headers.
const MULTIPART_SLACK = 64 * 1024;
const FILE_FIELD = 'file';

const tooLarge = (maxBytes: number) => new ApiError('payload_too_large', `The file is over ${maxBytes / 1024 / 1024} MB.`);

export function readUploadBody(maxBytes: number) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const contentType = c.req.header('Content-Type') ?? '';
    const multipart = /^multipart\/form-data\s*;/i.test(contentType);
    const limit = multipart ? maxBytes + MULTIPART_SLACK : maxBytes;
    if (Number(c.req.header('Content-Length') ?? '0') > limit) throw tooLarge(maxBytes);
    const bytes = await readAtMost(c.req.raw.body, limit);
    if (bytes === null) throw tooLarge(maxBytes);
    const upload = multipart ? await fileOfForm(bytes, contentType, maxBytes) : { bytes, filename: c.req.query('filename') ?? null };
    c.set('upload', upload);
    await next();
  });
}

async function fileOfForm(body: Uint8Array, contentType: string, maxBytes: number): Promise<Upload> {
  let form: FormData;
  try {
    form = await new Request('https://upload.invalid/', { method: 'POST', body, headers: { 'Content-Type': contentType } }).formData();
  } catch {
    throw invalidField(FILE_FIELD, 'The multipart/form-data body could not be read.');
  }
  const unknown = [...new Set(form.keys())].filter((name) => name !== FILE_FIELD);
  if (unknown.length) throw new ApiError('validation_failed', 'The request is not valid.', unknown.map((path) => ({ path, message: 'Unknown field: send only `file`.' })));
  const files = form.getAll(FILE_FIELD);
  const file = files[0];
  if (files.length !== 1 || typeof file === 'string' || !file) throw invalidField(FILE_FIELD, 'Send one file in the field `file`.');
  if (file.size > maxBytes) throw tooLarge(maxBytes);
  return { bytes: new Uint8Array(await file.arrayBuffer()), filename: file.name || null };
}

/**
 * What an Idempotency-Key compares an upload by (middleware/idempotency.ts), in place of a JSON body: the
 * file's SHA-256 and the name it was sent with. The same file under the same key replays; another is a 422.
 */
export async function uploadFingerprint(c: Context<AppEnv>): Promise<{ file_sha256: string; filename: string | null } | undefined> {
  const upload = c.get('upload');
  return upload && { file_sha256: await sha256Hex(upload.bytes), filename: upload.filename };
}
