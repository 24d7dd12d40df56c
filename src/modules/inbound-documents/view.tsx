/** @jsxImportSource hono/jsx */
// §21 "Reading": a received e-invoice as a person reads it. Its XML (a CII or UBL file, or the one a Factur-X PDF
// embeds) is read by the renderer worker (documents/from-received.ts, through read-xml-by-renderer.ts), becomes the
// one document value and is printed by the page our own invoices use, in the workspace's language, with the
// verdict of the EN 16931 check beside it: valid, or each rule it breaks, and every warning. A document that is no
// e-invoice (a PDF without XML, a photo) has nothing to render: its file is read instead.
import { and, eq } from 'drizzle-orm';
import { inboundDocuments, workspaces } from '../../db/schema';
import { ApiError, invalidState, notFound } from '../../errors';
import { inWorkspace, type WorkspaceContext } from '../../lib/context';
import { labelsFor } from '../documents/labels/language';
import { formatDate, type PrintedDocument, printedDocument } from '../documents/render/printed';
import { valueOfEInvoice } from '../documents/value';
import type { PageExtra } from '../invoices/render/respond';
import type { ValidationValue } from './schemas';
import { receivedDocument } from './read-xml-by-renderer';
import type { InboundDocumentRow } from './serialize';
import { originalBytes } from './storage';

const STYLE = `
.verdict{margin-top:24px;padding:16px;border:1px solid #dfe2e6;border-radius:10px}
.verdict h2{font-size:1.05rem;margin:0 0 8px}.verdict h3{font-size:.9rem;margin:12px 0 4px}
.verdict .good{color:#17663a;font-weight:600}.verdict .bad{color:#a32116;font-weight:600}
.verdict ul{margin:0;padding-left:20px}.verdict code{font-size:.85rem}
`;

export type ReceivedPage = { doc: PrintedDocument; extra: PageExtra };

/** The document's page, or 409 for one that is no e-invoice (or not read yet). */
export async function receivedPage(ctx: WorkspaceContext, id: string): Promise<ReceivedPage> {
  const [[row], [workspace]] = await ctx.db.batch([
    ctx.db.select().from(inboundDocuments).where(and(eq(inboundDocuments.id, id), inWorkspace(ctx, inboundDocuments))),
    ctx.db.select({ locale: workspaces.locale }).from(workspaces).where(eq(workspaces.id, ctx.workspaceId)),
  ]);
  if (!row) throw notFound('Inbound document');
  const locale = workspace?.locale ?? 'en-US';
  const xml = await eInvoiceXml(ctx, row);
  const read = await receivedDocument(ctx.env, xml).catch((err: unknown) => {
    console.error(JSON.stringify({ level: 'error', message: `Reading a received document failed: ${err instanceof Error ? err.message : String(err)}` }));
    throw new ApiError('internal_error', 'The document could not be read. Try again; if it persists, quote the request id.');
  });
  if ('error' in read) throw invalidState(`Inbound document ${id} cannot be shown: its XML is ${read.error}.`);
  const doc = printedDocument(valueOfEInvoice(read.document, locale));
  if (!read.issueDate) doc.issueDate = '—';
  const validation = row.validation ? (JSON.parse(row.validation) as ValidationValue) : null;
  return { doc, extra: { render: (nonce) => <Verdict nonce={nonce} row={row} validation={validation} locale={locale} /> } };
}

/** The e-invoice's XML: the file itself, or the one its Factur-X PDF embeds. */
async function eInvoiceXml(ctx: WorkspaceContext, row: InboundDocumentRow): Promise<string> {
  const readAsEInvoice = row.format === 'cii' || row.format === 'ubl' || row.format === 'facturx';
  if (!readAsEInvoice || row.status === 'received' || row.status === 'processing' || row.status === 'failed') {
    throw invalidState(
      row.status === 'received' || row.status === 'processing'
        ? `Inbound document ${row.id} is not read yet; view it once it is.`
        : `Inbound document ${row.id} is not an e-invoice${row.format ? ` (${row.format})` : ''}: there is nothing to render; download its file instead.`,
    );
  }
  const bytes = await originalBytes(ctx.env, row.fileKey);
  // A row always has its file (receive.ts stores it first); one gone from storage is ours to explain.
  if (!bytes) throw new Error(`the original of ${row.id} is missing from storage`);
  if (row.format !== 'facturx') return new TextDecoder().decode(bytes);
  const { readInboundPdf } = await import('./read-pdf');
  const pdf = await readInboundPdf(ctx.env, bytes);
  if (!pdf.ok || !pdf.xml) throw invalidState(`Inbound document ${row.id} cannot be shown: its PDF's e-invoice could not be read again.`);
  return pdf.xml.content;
}

function Verdict({ nonce, row, validation, locale }: { nonce: string; row: InboundDocumentRow; validation: ValidationValue | null; locale: string }) {
  const say = labelsFor(locale).received;
  const issues = (title: string, list: ValidationValue['errors']) =>
    list.length > 0 && (
      <>
        <h3>{title}</h3>
        <ul>{list.map((issue) => <li><code>{issue.rule}</code> {issue.message}{issue.path && <> (<code>{issue.path}</code>)</>}</li>)}</ul>
      </>
    );
  return (
    <section class="verdict">
      <style nonce={nonce} dangerouslySetInnerHTML={{ __html: STYLE }} />
      <h2>{say.check}</h2>
      <p class="muted">{say.receivedOn(formatDate(row.receivedAt.slice(0, 10), locale))} · {row.filename}</p>
      {row.profile && <p>{say.specification}: {row.profile}</p>}
      {validation && <p class={validation.valid ? 'good' : 'bad'}>{validation.valid ? say.valid : say.invalid(validation.errors.length)}</p>}
      {validation && issues(say.errors, validation.errors)}
      {validation && issues(say.warnings, validation.warnings)}
    </section>
  );
}
