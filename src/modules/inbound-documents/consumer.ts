// The inbound queue's consumer (workspace-inbound): reads each received document once. Delivery is at least once,
// so a document is claimed before it is read (received → processing, guarded), and what the reading settled is
// written under that claim, with inbound_document.processed, in one batch: a message delivered twice reads once,
// and a document past `received` (and not stranded in `processing`) is left alone. A reader that throws (storage,
// a provider) is retried with backoff, its claim given back; after the last retry the document fails with a reason.
import { and, eq, lt, or } from 'drizzle-orm';
import { inboundDocuments } from '../../db/schema';
import { inWorkspace, systemContext, type WorkspaceContext } from '../../lib/context';
import { createDb } from '../../lib/db';
import { changedRows } from '../../lib/guarded-write';
import { nowIso } from '../../lib/time';
import { recordEvent } from '../events/record';
import { duplicateKeys, findOriginal } from './duplicates';
import { InboundMessage } from './message';
import { type DocumentReading, lazyReaders, type Readers, readDocument } from './read-document';
import { type InboundDocumentRow, serializeInboundDocument } from './serialize';
import { originalBytes } from './storage';

/** The actor name of the events this job writes. */
export const INBOUND_JOB = 'inbound';

/**
 * How long a claim holds: a document `processing` for longer was dropped by a worker that died, and may be claimed
 * again (by a redelivered message or the sweep). Longer than any reading takes, model calls included.
 */
export const PROCESSING_LEASE_MS = 15 * 60_000;

/** `max_retries` of the workspace-inbound consumer in wrangler.toml (both environments); change both together. */
export const INBOUND_MAX_RETRIES = 3;
const retryLeft = (attempts: number) => attempts <= INBOUND_MAX_RETRIES;
/** 10 s, 20 s, 40 s between tries of a reading that threw. */
const backoffSeconds = (attempts: number) => 10 * 2 ** Math.max(0, attempts - 1);

const MAX_REASON = 1000;
const GAVE_UP = 'The document could not be read after several attempts; upload it again.';

export async function consumeInbound(batch: MessageBatch<unknown>, env: Env, readers: Readers = lazyReaders): Promise<void> {
  for (const message of batch.messages) {
    const parsed = InboundMessage.safeParse(message.body);
    const row = parsed.success ? await createDb(env.DB).query.inboundDocuments.findFirst({ where: eq(inboundDocuments.id, parsed.data.document_id) }) : undefined;
    if (!row) {
      message.ack();
      continue;
    }
    const heldFor = row.status === 'processing' ? Date.now() - Date.parse(row.updatedAt) : null;
    if (heldFor !== null && heldFor < PROCESSING_LEASE_MS) {
      // Another delivery is reading it now: look again once its claim would have lapsed, in case it died.
      if (retryLeft(message.attempts)) message.retry({ delaySeconds: Math.ceil((PROCESSING_LEASE_MS - heldFor) / 1000) });
      else message.ack();
      continue;
    }
    if (row.status !== 'received' && row.status !== 'processing') {
      message.ack();
      continue;
    }
    // The one read not scoped by workspace: the message comes from our own producer; the row says whose it is.
    const ctx = systemContext(env, row.workspaceId, INBOUND_JOB);
    const claimed = await claim(ctx, row);
    if (!claimed) {
      message.ack();
      continue;
    }
    try {
      const bytes = await originalBytes(env, row.fileKey);
      const reading: DocumentReading = bytes ? await readDocument(env, claimed, bytes, readers) : { status: 'failed', format: null, reason: 'The original file is missing.' };
      await settle(ctx, claimed, reading);
      message.ack();
    } catch (err) {
      console.error(JSON.stringify({ level: 'error', message: 'reading an inbound document failed', document_id: row.id, attempts: message.attempts, reason: String(err) }));
      if (retryLeft(message.attempts)) {
        await release(ctx, claimed);
        message.retry({ delaySeconds: backoffSeconds(message.attempts) });
      } else {
        await settle(ctx, claimed, { status: 'failed', format: null, reason: GAVE_UP });
        message.ack();
      }
    }
  }
}

/** received (or a lapsed processing) → processing; the claimed row, or null when another delivery has it. */
async function claim(ctx: WorkspaceContext, row: InboundDocumentRow): Promise<InboundDocumentRow | null> {
  const claimedAt = nowIso();
  const lapsed = new Date(Date.now() - PROCESSING_LEASE_MS).toISOString();
  const [claimed] = await ctx.db
    .update(inboundDocuments)
    .set({ status: 'processing', updatedAt: claimedAt })
    .where(
      and(
        eq(inboundDocuments.id, row.id),
        inWorkspace(ctx, inboundDocuments),
        or(eq(inboundDocuments.status, 'received'), and(eq(inboundDocuments.status, 'processing'), lt(inboundDocuments.updatedAt, lapsed))),
      ),
    )
    .returning();
  return claimed ?? null;
}

/** The claim's own row, still as this delivery claimed it. */
const underClaim = (ctx: WorkspaceContext, claimed: InboundDocumentRow) =>
  and(eq(inboundDocuments.id, claimed.id), inWorkspace(ctx, inboundDocuments), eq(inboundDocuments.status, 'processing'), eq(inboundDocuments.updatedAt, claimed.updatedAt));

/** Gives the claim back (processing → received), for the retry to take. */
async function release(ctx: WorkspaceContext, claimed: InboundDocumentRow): Promise<void> {
  await ctx.db.update(inboundDocuments).set({ status: 'received', updatedAt: nowIso() }).where(underClaim(ctx, claimed)).catch(() => undefined);
}

/** processing → needs_review | failed, with what was read, duplicate_of and the processed event; under the claim. */
async function settle(ctx: WorkspaceContext, claimed: InboundDocumentRow, reading: DocumentReading): Promise<void> {
  const keys = reading.status === 'needs_review' ? duplicateKeys(reading.extracted) : { supplierKey: null, number: null };
  const duplicateOf = await findOriginal(ctx, claimed, keys);
  const read = reading.status === 'needs_review'
    ? {
      status: reading.status, format: reading.format, profile: reading.profile, extraction: reading.extraction, confidence: reading.confidence,
      extracted: reading.extracted && JSON.stringify(reading.extracted), validation: reading.validation && JSON.stringify(reading.validation), failureReason: null,
    }
    : {
      status: reading.status, format: reading.format, profile: null, extraction: null, confidence: null, extracted: null, validation: null,
      failureReason: [...reading.reason].slice(0, MAX_REASON).join(''),
    };
  const after: InboundDocumentRow = { ...claimed, ...read, supplierKey: keys.supplierKey, number: keys.number, duplicateOf, updatedAt: nowIso() };
  const [updated] = await ctx.db.batch([
    ctx.db
      .update(inboundDocuments)
      .set({ ...read, supplierKey: after.supplierKey, number: after.number, duplicateOf, updatedAt: after.updatedAt })
      .where(underClaim(ctx, claimed)),
    recordEvent(ctx, 'inbound_document.processed', serializeInboundDocument(after), { ifChanged: true }),
  ]);
  if (changedRows(updated) === 0) console.error(JSON.stringify({ level: 'warn', message: 'an inbound document\'s claim lapsed before its reading was stored', document_id: claimed.id }));
}
