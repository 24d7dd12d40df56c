// Credit notes (§17), mounted with the invoices under /api/workflow and /v1: issued on an invoice,
// listed under it, read, and delivered as a PDF and an e-invoice.
import type { Context } from 'hono';
import { and, eq } from 'drizzle-orm';
import { creditNotes } from '../../db/schema';
import type { AppEnv } from '../../env';
import { defineRoute, jsonBody, jsonContent } from '../../http/define-route';
import { inWorkspace } from '../../lib/context';
import { decodeCursor, toPage } from '../../lib/pagination';
import { createRouter } from '../../lib/router';
import { idParams, listQuery } from '../../lib/schemas';
import type { ReplayRestore } from '../../middleware/idempotency';
import { xmlResponse } from '../invoices/einvoice';
import { linkOrigin } from '../invoices/links';
import { pdfResponse } from '../invoices/render/respond';
import { EInvoiceQuery } from '../invoices/schemas';
import { getInvoice } from '../invoices/service';
import { printedDocument } from '../documents/render/printed';
import { creditNoteEInvoiceXml, creditNoteFacturXCii, creditNoteValueOf, creditNoteWithParties } from './documents';
import * as S from './schemas';
import { type CreditNoteWithLines, creditNoteLinks, serializeCreditNote, serializeCreditNoteSummary } from './serialize';
import { createCreditNote, getCreditNote, listInvoiceCreditNotes } from './service';

const tags = ['Credit notes'];
const invoiceParams = idParams('invoice');
const params = idParams('creditNote');

async function withLinks(c: Context<AppEnv>, note: CreditNoteWithLines) {
  return serializeCreditNote(note, await creditNoteLinks(c.env, linkOrigin(c.env, c.req.url), note.row));
}

/** A replayed answer gets its links again (their token is never stored). */
const creditNoteReplay: ReplayRestore = {
  fields: ['hosted_url', 'pdf_url'],
  async restore(c, body) {
    if (typeof body.id !== 'string') return body;
    const ctx = c.get('ctx');
    const [row] = await ctx.db.select({ id: creditNotes.id, linkVersion: creditNotes.linkVersion }).from(creditNotes).where(and(eq(creditNotes.id, body.id), inWorkspace(ctx, creditNotes)));
    return row ? { ...body, ...(await creditNoteLinks(c.env, linkOrigin(c.env, c.req.url), row)) } : body;
  },
};

export const creditNoteRoutes = createRouter()
  .openapi(
    defineRoute({
      method: 'post', path: '/invoices/{id}/credit-notes', operationId: 'createCreditNote', replay: creditNoteReplay, tags, access: 'user', role: 'admin', errors: [409, 502],
      summary: 'Credit an invoice',
      description: 'Open or paid invoices only (409 `invalid_state` otherwise). An invoice line is credited with its description, unit, price, discount and tax, for at most the quantity not yet credited; together, credit notes never exceed the invoice\'s total (422). The total first lowers what is due; the rest is refunded at once, as one refund (422 on `refund_payment_id` when no payment covers it; 502 `provider_error`, nothing changed, when an online payment\'s provider refuses). The invoice gains `credited_amount` and the id in `credit_note_ids`, and is `paid` once nothing is due. Writes `credit_note.issued`, `invoice.credited` (with `data.credit_note`) and, when it settles the invoice, `invoice.paid`. The email is kind `credit_note` in …/deliveries. Send an `Idempotency-Key` so a retry cannot credit or refund twice.',
      request: { params: invoiceParams, body: jsonBody(S.CreateCreditNoteBody) },
      responses: { 201: jsonContent(S.CreditNote, 'The credit note.') },
    }),
    async (c) => {
      const origin = linkOrigin(c.env, c.req.url);
      const note = await createCreditNote(c.get('ctx'), c.req.valid('param').id, c.req.valid('json'), origin);
      return c.json(await withLinks(c, note), 201);
    },
  )
  .openapi(
    defineRoute({
      method: 'get', path: '/invoices/{id}/credit-notes', operationId: 'listInvoiceCreditNotes', tags, access: 'user', role: 'viewer',
      summary: 'The credit notes of an invoice',
      description: 'Without their lines.',
      request: { params: invoiceParams, query: listQuery },
      responses: { 200: jsonContent(S.CreditNotePage, 'A page of credit notes.') },
    }),
    async (c) => {
      const ctx = c.get('ctx');
      const { limit, cursor } = c.req.valid('query');
      const invoice = await getInvoice(ctx, c.req.valid('param').id);
      const rows = await listInvoiceCreditNotes(ctx, invoice.row.id, limit, decodeCursor(cursor, 'creditNote'));
      const origin = linkOrigin(c.env, c.req.url);
      const page = toPage(rows, limit, (row) => row);
      const data = await Promise.all(page.data.map(async (row) => serializeCreditNoteSummary(row, await creditNoteLinks(c.env, origin, row))));
      return c.json({ ...page, data }, 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'get', path: '/credit-notes/{id}', operationId: 'getCreditNote', tags, access: 'user', role: 'viewer',
      summary: 'Get a credit note',
      description: 'With its lines, its amounts and the refund it made.',
      request: { params },
      responses: { 200: jsonContent(S.CreditNote, 'The credit note.') },
    }),
    async (c) => c.json(await withLinks(c, await getCreditNote(c.get('ctx'), c.req.valid('param').id)), 200),
  )
  .openapi(
    defineRoute({
      method: 'get', path: '/credit-notes/{id}/pdf', operationId: 'getCreditNotePdf', tags, access: 'user', role: 'viewer',
      summary: 'The credit note as a PDF',
      description: 'As the client gets it from `pdf_url`: a Factur-X PDF/A-3b embedding its CII XML when the workspace\'s `einvoice_pdf` says so.',
      request: { params },
      responses: { 200: { description: 'The PDF.', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } } },
    }),
    async (c) => {
      const ctx = c.get('ctx');
      const found = await creditNoteWithParties(ctx, c.req.valid('param').id);
      const value = await creditNoteValueOf(ctx, found, linkOrigin(c.env, c.req.url));
      return pdfResponse(c, printedDocument(value), creditNoteFacturXCii(value, found.workspace));
    },
  )
  .openapi(
    defineRoute({
      method: 'get', path: '/credit-notes/{id}/e-invoice', operationId: 'getCreditNoteEInvoice', tags, access: 'user', role: 'viewer', errors: [422],
      summary: 'The credit note as an EN 16931 e-invoice (XML)',
      description: `An EN 16931 credit note (type code 381; UBL \`CreditNote\`) naming the invoice it corrects (BT-25), in the \`format\`s of getInvoiceEInvoice. One that cannot be valid is never exported: 422 \`einvoice_incomplete\` naming every field to fix.`,
      request: { params, query: EInvoiceQuery },
      responses: { 200: { description: 'The XML, as `<number>.<format>.xml`.', content: { 'application/xml': { schema: { type: 'string' } } } } },
    }),
    async (c) => {
      const ctx = c.get('ctx');
      const found = await creditNoteWithParties(ctx, c.req.valid('param').id);
      const { format } = c.req.valid('query');
      return xmlResponse(found.note.row.number, creditNoteEInvoiceXml(await creditNoteValueOf(ctx, found), format), format);
    },
  );
