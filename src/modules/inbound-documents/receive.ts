// The one way a document enters a workspace (§21), whatever brought it: an upload, an email attachment, a
// delivery from another workspace on this service. The type is read from the bytes; the original is stored
// unchanged; the document and its `inbound_document.received` event are one batch, refused past the daily
// limit; then the document is queued to be read. A document whose message is lost stays `received`, and the
// cron's sweep (sweep.ts) queues it again.
import { inboundDocuments } from '../../db/schema';
import { ApiError } from '../../errors';
import type { WorkspaceContext } from '../../lib/context';
import { sha256Hex } from '../../lib/crypto';
import { changedRows, insertIf } from '../../lib/guarded-write';
import { newId } from '../../lib/ids';
import { recordEvent } from '../events/record';
import { dailyLimitReached, underDailyLimit, windowStart } from './daily-limit';
import { inboundMessage } from './message';
import { type InboundDocumentRow, serializeInboundDocument } from './serialize';
import { ACCEPTED_TYPES, sniffDocumentType } from './sniff';
import { deleteOriginal, newFileKey, storeOriginal } from './storage';

/** The largest document accepted, by any route (§21: 10 MB). */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
const MAX_FILENAME = 255;
const MAX_FROM = 320;

export type IncomingDocument = {
  source: InboundDocumentRow['source'];
  bytes: Uint8Array;
  /** As the sender named it; cleaned here (any path dropped, control characters removed), else `document.<ext>`. */
  filename?: string | null;
  /** The email sender, for `source: "email"`. */
  from?: string | null;
  /** Who uploaded it; null for email and network deliveries. */
  userId?: string | null;
};

// C0 and C1 controls, bidirectional overrides and lone surrogates (§1's text rules), dropped from a name.
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The name without any folder a mail client or browser put in front, printable, at most 255 characters. */
export function cleanFilename(name: string | null | undefined, extension: string): string {
  const base = (name ?? '').split(/[\\/]/).pop()!.replace(UNPRINTABLE, '').trim();
  return [...base].slice(0, MAX_FILENAME).join('') || `document.${extension}`;
}

/**
 * Receives one document into the workspace: 413 over 10 MB, 415 for a type that is none of §21's, 429 past
 * the daily limit (an ApiError each; nothing is kept then). Answers the document, `received`. `ctx` acts on the
 * workspace's own database: a request's context, or for email and network deliveries
 * `systemContext(withDatabase(env, database), workspaceId, job)`.
 */
export async function receiveDocument(ctx: WorkspaceContext, input: IncomingDocument): Promise<InboundDocumentRow> {
  if (input.bytes.byteLength > MAX_DOCUMENT_BYTES) throw new ApiError('payload_too_large', 'The document is over 10 MB.');
  const type = sniffDocumentType(input.bytes);
  if (!type) throw new ApiError('unsupported_media_type', `The file is not ${ACCEPTED_TYPES}: its content says otherwise, whatever its name or Content-Type.`);

  const now = Date.now();
  const at = new Date(now).toISOString();
  const row: InboundDocumentRow = {
    id: newId('inboundDocument'),
    workspaceId: ctx.workspaceId,
    userId: input.userId ?? null,
    source: input.source,
    status: 'received',
    receivedAt: at,
    filename: cleanFilename(input.filename, type.extension),
    contentType: type.contentType,
    size: input.bytes.byteLength,
    sha256: await sha256Hex(input.bytes),
    fileKey: newFileKey(ctx.workspaceId),
    format: null, profile: null, validation: null, extracted: null, extraction: null, confidence: null,
    supplierKey: null, number: null, duplicateOf: null, expenseId: null, rejectedReason: null, failureReason: null,
    fromAddress: input.from ? input.from.replace(UNPRINTABLE, '').slice(0, MAX_FROM) : null,
    createdAt: at,
    updatedAt: at,
  };
  // The original first: a document row always has its file. Should the batch be refused, it is removed again.
  await storeOriginal(ctx.env, row.fileKey, input.bytes, { contentType: row.contentType, sha256: row.sha256 });
  const since = windowStart(now);
  let inserted: unknown;
  try {
    [inserted] = await ctx.db.batch([
      insertIf(ctx.db, inboundDocuments, row, underDailyLimit(ctx.workspaceId, since)),
      recordEvent(ctx, 'inbound_document.received', serializeInboundDocument(row), { ifChanged: true }),
    ]);
  } catch (err) {
    await forget(ctx, row);
    throw err;
  }
  if (changedRows(inserted) === 0) {
    await forget(ctx, row);
    throw await dailyLimitReached(ctx, since, now);
  }
  await enqueue(ctx, row.id);
  return row;
}

async function forget(ctx: WorkspaceContext, row: InboundDocumentRow) {
  await deleteOriginal(ctx.env, row.fileKey).catch((err) =>
    console.error(JSON.stringify({ level: 'error', message: 'an unrecorded original could not be removed', document_id: row.id, reason: String(err) })));
}

/** Queues the document to be read; a failed send is left to the sweep (the document is kept either way). */
export async function enqueue(ctx: Pick<WorkspaceContext, 'env'>, documentId: string): Promise<void> {
  try {
    await ctx.env.INBOUND_QUEUE.send(inboundMessage(documentId, ctx.env));
  } catch (err) {
    console.error(JSON.stringify({ level: 'error', message: 'inbound document enqueue failed; the sweep will send it', document_id: documentId, reason: String(err) }));
  }
}
