// The invoice document (render/document.ts) for one invoice of a workspace: the invoice, its lines,
// the workspace's locale and payment instructions, the client while it is a draft, and its links.
import type { clients, workspaces } from '../../db/schema';
import type { WorkspaceContext } from '../../lib/context';
import { todayIn } from '../../lib/time';
import { billToOf } from './client-snapshot';
import { invoiceLinks } from './links';
import { invoiceDocument, type InvoiceDocument } from './render/document';
import type { InvoiceWithLines } from './serialize';
import { getInvoiceWithParties } from './service';

type Workspace = typeof workspaces.$inferSelect;
type Client = typeof clients.$inferSelect;

/** The document of an invoice of the caller's workspace by its id: everything it needs in one D1 round trip. */
export async function documentById(ctx: WorkspaceContext, id: string, origin: string): Promise<InvoiceDocument> {
  return documentOf(ctx, await getInvoiceWithParties(ctx, id), origin);
}

/**
 * The document of an invoice already read with its workspace. A sent invoice bills the client as it
 * was then (its snapshot); a draft, the client as it is now, which it then needs.
 */
export async function documentOf(ctx: WorkspaceContext, { invoice, workspace, client }: { invoice: InvoiceWithLines; workspace: Workspace; client?: Client }, origin: string) {
  const draftBillTo = !invoice.row.billTo && client ? billToOf(client) : undefined;
  return invoiceDocument({
    row: invoice.row,
    lines: invoice.lines,
    workspace: { name: workspace.name, locale: workspace.locale, paymentInstructions: workspace.paymentInstructions },
    draftBillTo,
    draftLocale: client?.locale,
    today: todayIn(workspace.timeZone),
    links: await invoiceLinks(ctx.env, origin, invoice.row),
  });
}
