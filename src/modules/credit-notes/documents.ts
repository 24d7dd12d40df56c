// A credit note's documents (§17): the PDF, the hosted page and the email are the invoice's layout
// (invoices/render) with the credit note's title, lines and totals and the invoice it corrects; the
// e-invoice is an EN 16931 credit note (381) naming the invoice (BT-25). Parties, locale and
// references come from the invoice's snapshots; its language is its own, set when it was issued
// (its invoice's unless given another, §20).
import { asc, eq, inArray } from 'drizzle-orm';
import { creditNotes, creditNoteLineItems, invoices } from '../../db/schema';
import { ApiError } from '../../errors';
import { systemContext, type WorkspaceContext } from '../../lib/context';
import type { Db } from '../../lib/db';
import { formatMoney, fromScaledInteger } from '../../lib/money';
import { invoiceLabels } from '../documents/labels/invoice';
import { documentOf } from '../invoices/document-for';
import { findInWorkspaceDatabases, HOSTED_PAGE_JOB } from '../invoices/hosted-link';
import { formatDate, type InvoiceDocument } from '../invoices/render/document';
import { readInvoiceWithParties } from '../invoices/service';
import { type CreditNoteWithLines, creditNoteLinks } from './serialize';
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

/** The credit note as a document for people: the invoice's document with the credit note's content. */
export async function creditNoteDocument(ctx: WorkspaceContext, found: Found, origin: string): Promise<InvoiceDocument> {
  const invoiceDoc = await documentOf(ctx, found, origin);
  const { row, lines } = found.note;
  const locale = row.locale ?? invoiceDoc.locale;
  const labels = invoiceLabels(locale);
  const money = (amount: number) => formatMoney(amount, row.currency, locale);
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 3 });
  const links = await creditNoteLinks(ctx.env, origin, row);
  return {
    ...invoiceDoc,
    number: row.number,
    locale,
    labels,
    banner: null,
    bannerText: null,
    issueDate: formatDate(row.issueDate, locale),
    lines: lines.map((line) => ({
      description: line.description,
      quantity: number.format(fromScaledInteger(line.quantityMilli, 3)),
      unitPrice: money(line.unitAmount),
      taxRate: `${number.format(fromScaledInteger(line.taxRateMilli, 3))} %`,
      tax: row.taxRounding === 'group' ? '—' : money(line.tax),
      amount: money(line.amount),
    })),
    subtotal: money(row.subtotal),
    discount: row.discountTotal ? money(-row.discountTotal) : null,
    tax: money(row.tax),
    total: money(row.total),
    notes: row.memo,
    paymentInstructions: null,
    hostedUrl: links.hosted_url,
    pdfUrl: links.pdf_url,
    credit: { title: labels.creditNote, corrects: labels.corrects(found.invoice.row.number) },
  };
}

