// The invoice document (render/document.ts) for one invoice of a workspace: the invoice, its lines,
// the workspace's locale and payment instructions, the client while it is a draft, and its links.
import { eq } from 'drizzle-orm';
import { type clients, workspaces } from '../../db/schema';
import { notFound } from '../../errors';
import type { WorkspaceContext } from '../../lib/context';
import { todayIn } from '../../lib/time';
import { referencedClient } from '../../lib/references';
import { billToOf } from './client-snapshot';
import { invoiceLinks } from './links';
import { invoiceDocument, type InvoiceDocument } from './render/document';
import type { InvoiceWithLines } from './serialize';
import { getInvoiceWithParties } from './service';

type Workspace = typeof workspaces.$inferSelect;
type Client = typeof clients.$inferSelect;

export async function documentFor(ctx: WorkspaceContext, invoice: InvoiceWithLines, origin: string): Promise<InvoiceDocument> {
  const workspace = await ctx.db.query.workspaces.findFirst({ where: eq(workspaces.id, ctx.workspaceId) });
  if (!workspace) throw notFound('Workspace');
  const client = invoice.row.billTo ? undefined : await referencedClient(ctx, invoice.row.clientId);
  return build(ctx, invoice, workspace, client, origin);
}

/** The document of an invoice of the caller's workspace by its id: everything it needs in one D1 round trip. */
export async function documentById(ctx: WorkspaceContext, id: string, origin: string): Promise<InvoiceDocument> {
  const { invoice, client, workspace } = await getInvoiceWithParties(ctx, id);
  return build(ctx, invoice, workspace, invoice.row.billTo ? undefined : client, origin);
}

/** A sent invoice bills the client as it was then (its snapshot); a draft, the client as it is now. */
async function build(ctx: WorkspaceContext, invoice: InvoiceWithLines, workspace: Workspace, client: Client | undefined, origin: string) {
  const draftBillTo = client ? billToOf(client) : undefined;
  return invoiceDocument({
    row: invoice.row,
    lines: invoice.lines,
    workspace: { name: workspace.name, locale: workspace.locale, paymentInstructions: workspace.paymentInstructions },
    draftBillTo,
    today: todayIn(workspace.timeZone),
    links: await invoiceLinks(ctx.env, origin, invoice.row),
  });
}
