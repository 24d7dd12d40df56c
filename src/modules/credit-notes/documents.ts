// A credit note's documents (§17, §20): one document value (documents/from-credit-note.ts) built once
// per read, printed on the PDF, the hosted page and the email with the invoice's layout under the credit
// note's title, and written as an EN 16931 credit note (381) naming the invoice (BT-25). Parties, locale
// and references come from the invoice's snapshots; its language is its own, set when it was issued (its
// invoice's unless given another).
import { asc, eq, inArray } from 'drizzle-orm';
import { creditNotes, creditNoteLineItems, invoices } from '../../db/schema';
import { ApiError } from '../../errors';
import { systemContext, type WorkspaceContext } from '../../lib/context';
import type { Db } from '../../lib/db';
import { creditNoteValue } from '../documents/from-credit-note';
import { type PrintedDocument, printedDocument } from '../documents/render/printed';
import type { DocumentValue } from '../documents/value';
import { invoiceSourceOf } from '../invoices/document-for';
import { findInWorkspaceDatabases, HOSTED_PAGE_JOB } from '../invoices/hosted-link';
import { readInvoiceWithParties } from '../invoices/service';
import { type CreditNoteWithLines, creditNoteLinks, serializeCreditNote } from './serialize';
export { creditNoteEInvoiceXml, creditNoteFacturXCii, creditNoteReady } from './einvoice';
import { getCreditNote } from './service';

type Found = NonNullable<Awaited<ReturnType<typeof readInvoiceWithParties>>> & { note: CreditNoteWithLines };

async function withInvoice(db: Db, note: CreditNoteWithLines): Promise<Found> {
  const found = await readInvoiceWithParties(db, eq(invoices.id, note.row.invoiceId));
  // The invoice stays while a credit note references it (its deletion needs a draft, which has none).
  if (!found) throw new ApiError('internal_error', 'The credited invoice is missing.');
  return { ...found, note };
}

/** A credit note of the caller's workspace with its invoice, client and workspace. */
export async function creditNoteWithParties(ctx: WorkspaceContext, id: string): Promise<Found> {
  return withInvoice(ctx.db, await getCreditNote(ctx, id));
}

/** The credit note a hosted token opens, in its workspace's context; undefined for an unknown token. */
export async function findCreditNoteByToken(env: Env, token: string, envFor: (name: string) => Env) {
  const hit = await findInWorkspaceDatabases(env, token, envFor, async (db, hash) => {
    const [rows, lines] = await db.batch([
      db.select().from(creditNotes).where(eq(creditNotes.linkHash, hash)),
      db.select().from(creditNoteLineItems).where(inArray(creditNoteLineItems.creditNoteId, db.select({ id: creditNotes.id }).from(creditNotes).where(eq(creditNotes.linkHash, hash)))).orderBy(asc(creditNoteLineItems.position)),
    ]);
    return rows[0] ? withInvoice(db, { row: rows[0], lines }) : undefined;
  });
  return hit && { ...hit.found, ctx: systemContext(hit.dbEnv, hit.found.note.row.workspaceId, HOSTED_PAGE_JOB) };
}

/**
 * The credit note's one document value: its lines and totals, the invoice's parties, references and
 * language. With `origin`, its links too (a page, a PDF or an email needs them; the XML does not).
 */
export async function creditNoteValueOf(ctx: Pick<WorkspaceContext, 'env'>, found: Found, origin?: string): Promise<DocumentValue> {
  const source = await invoiceSourceOf(ctx, found);
  const invoice = { ...source, locale: found.note.row.locale ?? source.locale };
  const links = origin ? await creditNoteLinks(ctx.env, origin, found.note.row) : { hosted_url: null, pdf_url: null };
  return creditNoteValue({ ...serializeCreditNote(found.note), tax_rounding: found.note.row.taxRounding, ...links }, invoice);
}

/** The credit note as people read it: the invoice's layout under its own title. */
export async function creditNoteDocument(ctx: Pick<WorkspaceContext, 'env'>, found: Found, origin: string): Promise<PrintedDocument> {
  return printedDocument(await creditNoteValueOf(ctx, found, origin));
}
