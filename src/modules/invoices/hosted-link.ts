// The hosted link's life after sending (§10): found by its token's hash, rotated on request (the
// old page and PDF answer 404 at once), and the first view from a real browser recorded once.
import { and, eq, isNull } from 'drizzle-orm';
import { invoices } from '../../db/schema';
import { invalidState } from '../../errors';
import { inWorkspace, systemContext, type ServiceContext, type WorkspaceContext } from '../../lib/context';
import { workspaceDatabases } from '../../lib/databases';
import { createDb, type Db } from '../../lib/db';
import { nowIso } from '../../lib/time';
import { recordEvent } from '../events/record';
import { linkHash, linkToken, TOKEN_PATTERN } from './links';
import type { InvoiceWithLines } from './serialize';
import { getInvoice, invoiceObject, readInvoiceWithParties } from './service';

/** The system actor of what the client does on the hosted page (opening it). */
export const HOSTED_PAGE_JOB = 'hosted_page';

/**
 * What a hosted token opens, read by `read` from its hash, with the env of the database it was
 * found in; undefined for a malformed token or one no database knows. The token names no database,
 * so each database that holds workspaces is asked in turn, DB first, one round trip each. `envFor`
 * gives the env whose DB is the request's session on a database.
 */
export async function findInWorkspaceDatabases<T>(
  env: Env,
  token: string,
  envFor: (name: string) => Env,
  read: (db: Db, hash: string) => Promise<T | undefined>,
): Promise<{ found: T; dbEnv: Env } | undefined> {
  if (!TOKEN_PATTERN.test(token)) return undefined;
  const hash = await linkHash(token);
  for (const name of workspaceDatabases(env)) {
    const dbEnv = envFor(name);
    const found = await read(createDb(dbEnv.DB), hash);
    if (found) return { found, dbEnv };
  }
  return undefined;
}

/** The invoice a token opens, with its lines, client and workspace, in the workspace's context; undefined for an unknown or rotated token. */
export async function findByToken(env: Env, token: string, envFor: (name: string) => Env) {
  const hit = await findInWorkspaceDatabases(env, token, envFor, (db, hash) => readInvoiceWithParties(db, eq(invoices.linkHash, hash)));
  return hit && { ...hit.found, ctx: systemContext(hit.dbEnv, hit.found.invoice.row.workspaceId, HOSTED_PAGE_JOB) };
}

/** A new link for a sent invoice: the old token stops working at once. */
export async function rotateShareLink(ctx: ServiceContext, id: string): Promise<InvoiceWithLines> {
  const before = await getInvoice(ctx, id);
  if (before.row.linkVersion === null) throw invalidState(`Invoice ${before.row.number} is a draft: it gets its link when it is sent.`);
  const version = before.row.linkVersion + 1;
  const set = { linkVersion: version, linkHash: await linkHash(await linkToken(ctx.env, id, version)) };
  const [updated] = await ctx.db
    .update(invoices)
    .set(set)
    .where(and(eq(invoices.id, id), inWorkspace(ctx, invoices), eq(invoices.linkVersion, before.row.linkVersion)))
    .returning({ id: invoices.id });
  if (!updated) return getInvoice(ctx, id); // another rotation won: its link is the current one
  return { ...before, row: { ...before.row, ...set } };
}

/** The first view in a browser: sets viewed_at and writes invoice.viewed, once however often it is reported. */
export async function recordFirstView(ctx: WorkspaceContext, invoice: InvoiceWithLines): Promise<void> {
  if (invoice.row.viewedAt || invoice.row.status === 'draft') return;
  const after = { ...invoice, row: { ...invoice.row, viewedAt: nowIso() } };
  // Guarded on viewed_at being unset: two reports at once write one view and one event.
  await ctx.db.batch([
    ctx.db.update(invoices).set({ viewedAt: after.row.viewedAt }).where(and(eq(invoices.id, invoice.row.id), inWorkspace(ctx, invoices), isNull(invoices.viewedAt))),
    recordEvent(ctx, 'invoice.viewed', invoiceObject(ctx, after), { ifChanged: true }),
  ]);
}
