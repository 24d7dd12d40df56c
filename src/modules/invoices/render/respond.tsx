/** @jsxImportSource hono/jsx */
// The answers that carry the invoice to people: its page (HTML under a strict CSP, never cached or
// indexed) and its PDF (inline, named by its number), which the renderer worker makes.
import type { Context } from 'hono';
import type { AppEnv } from '../../../env';
import { ApiError } from '../../../errors';
import { inTime } from '../../../lib/in-time';
import { pdfDocument, RENDERER_TIMEOUT_MS } from '../../../renderer/contract';
import type { PrintedDocument } from '../../documents/render/printed';
import { InvoicePage, NotFoundPage, pageCsp } from '../../documents/render/page';

const PAGE_HEADERS = {
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'X-Robots-Tag': 'noindex',
  'X-Content-Type-Options': 'nosniff',
};

/** What another room adds to the page: its part (given the page's nonce), the forms it posts, the status. */
export type PageExtra = { render: (nonce: string) => unknown; formAction?: string; status?: 200 | 400 | 404 | 409 | 413 | 415 | 422 | 502 };

export function pageResponse(c: Context, doc: PrintedDocument, options: { countView: boolean; extra?: PageExtra }) {
  const nonce = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
  const { extra } = options;
  return c.html(<InvoicePage doc={doc} nonce={nonce} countView={options.countView}>{extra?.render(nonce)}</InvoicePage>, extra?.status ?? 200, {
    ...PAGE_HEADERS,
    'Content-Security-Policy': pageCsp(nonce, extra?.formAction),
  });
}

export function notFoundPage(c: Context) {
  return c.html(<NotFoundPage />, 404, { ...PAGE_HEADERS, 'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'" });
}

/**
 * The PDF, made by the renderer worker (src/renderer) through the RENDERER service binding. With `cii` (the
 * invoice's EN 16931 CII), the Factur-X PDF/A-3b that embeds it (§15). A renderer that fails or does not
 * answer in time is a 500 in the error envelope, never a request left hanging.
 */
export async function pdfResponse(c: Context<AppEnv>, doc: PrintedDocument, cii: string | null = null): Promise<Response> {
  const bytes = await renderPdf(c.env.RENDERER, doc, cii).catch((err: unknown) => {
    console.error(JSON.stringify({ level: 'error', request_id: c.get('requestId'), message: `PDF rendering failed: ${err instanceof Error ? err.message : String(err)}` }));
    throw new ApiError('internal_error', 'The PDF could not be made. Try again; if it persists, quote the request id.');
  });
  const filename = doc.number.replace(/[^\w.#-]/g, '_');
  return new Response(bytes, {
    headers: { ...PAGE_HEADERS, 'Content-Type': 'application/pdf', 'Content-Disposition': `inline; filename="${filename}.pdf"` },
  });
}

/** The PDF of a printed document from the renderer worker, or an error once it has not answered in RENDERER_TIMEOUT_MS (the period bundle renders many in a row). */
export function renderPdf(renderer: Env['RENDERER'], doc: PrintedDocument, cii: string | null): Promise<Uint8Array> {
  return inTime(renderer.renderPdf(pdfDocument(doc), cii), RENDERER_TIMEOUT_MS, () => {
    throw new Error(`no answer within ${RENDERER_TIMEOUT_MS} ms`);
  });
}
