// Reading a workspace's inbound documents: the list (newest first, filtered by status and source), one
// document, and its original file. Every query is scoped to the workspace: another's document is a 404.
import { and, desc, eq, lt } from 'drizzle-orm';
import { inboundDocuments } from '../../db/schema';
import { notFound } from '../../errors';
import { inWorkspace, type WorkspaceContext } from '../../lib/context';
import type { InboundDocumentRow } from './serialize';
import type { INBOUND_SOURCES, INBOUND_STATUSES } from './schemas';
import { readOriginal } from './storage';

export type InboundDocumentFilter = {
  limit: number;
  beforeId?: string;
  status?: (typeof INBOUND_STATUSES)[number];
  source?: (typeof INBOUND_SOURCES)[number];
};

export async function listInboundDocuments(ctx: WorkspaceContext, filter: InboundDocumentFilter): Promise<InboundDocumentRow[]> {
  return ctx.db
    .select()
    .from(inboundDocuments)
    .where(
      and(
        inWorkspace(ctx, inboundDocuments),
        filter.status ? eq(inboundDocuments.status, filter.status) : undefined,
        filter.source ? eq(inboundDocuments.source, filter.source) : undefined,
        filter.beforeId ? lt(inboundDocuments.id, filter.beforeId) : undefined,
      ),
    )
    .orderBy(desc(inboundDocuments.id))
    .limit(filter.limit + 1);
}

export async function getInboundDocument(ctx: WorkspaceContext, id: string): Promise<InboundDocumentRow> {
  const row = await ctx.db.query.inboundDocuments.findFirst({ where: and(eq(inboundDocuments.id, id), inWorkspace(ctx, inboundDocuments)) });
  if (!row) throw notFound('Inbound document');
  return row;
}

/** The document and its original's bytes, unchanged. */
export async function inboundDocumentFile(ctx: WorkspaceContext, id: string): Promise<{ row: InboundDocumentRow; body: ReadableStream }> {
  const row = await getInboundDocument(ctx, id);
  const body = await readOriginal(ctx.env, row.fileKey);
  // A row always has its file (receive.ts stores it first); one gone from storage is ours to explain, not a 404.
  if (!body) throw new Error(`the original of ${row.id} is missing from storage`);
  return { row, body };
}
