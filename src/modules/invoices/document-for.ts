// The invoice document (render/document.ts) for one invoice of a workspace: the invoice, its lines,
// the workspace's locale and payment instructions, the client while it is a draft, and its links.
import { eq } from 'drizzle-orm';
import { workspaces } from '../../db/schema';
import { notFound } from '../../errors';
import type { WorkspaceContext } from '../../lib/context';
import { todayIn } from '../../lib/time';
import { referencedClient } from '../../lib/references';
import { billToOf } from './client-snapshot';
import { invoiceLinks } from './links';
import { invoiceDocument, type InvoiceDocument } from './render/document';
import type { InvoiceWithLines } from './serialize';

export async function documentFor(ctx: WorkspaceContext, invoice: InvoiceWithLines, origin: string): Promise<InvoiceDocument> {
  const workspace = await ctx.db.query.workspaces.findFirst({ where: eq(workspaces.id, ctx.workspaceId) });
  if (!workspace) throw notFound('Workspace');
  const draftBillTo = invoice.row.billTo ? undefined : billToOf(await referencedClient(ctx, invoice.row.clientId));
  return invoiceDocument({
    row: invoice.row,
    lines: invoice.lines,
    workspace: { name: workspace.name, locale: workspace.locale, paymentInstructions: workspace.paymentInstructions },
    draftBillTo,
    today: todayIn(workspace.timeZone),
    links: await invoiceLinks(ctx.env, origin, invoice.row),
  });
}
