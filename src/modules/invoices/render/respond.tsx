/** @jsxImportSource hono/jsx */
// The answers that carry the invoice to people: its page (HTML under a strict CSP, never cached or
// indexed) and its PDF (inline, named by its number). The PDF code is loaded on first use only.
import type { Context } from 'hono';
import type { InvoiceDocument } from './document';
import { InvoicePage, NotFoundPage, pageCsp } from './page';

const PAGE_HEADERS = {
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'X-Robots-Tag': 'noindex',
  'X-Content-Type-Options': 'nosniff',
};

/** What another room adds to the page: its part (given the page's nonce), the forms it posts, the status. */
export type PageExtra = { render: (nonce: string) => unknown; formAction?: string; status?: 200 | 404 | 409 | 422 | 502 };

export function pageResponse(c: Context, doc: InvoiceDocument, options: { countView: boolean; extra?: PageExtra }) {
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

/** With `cii` (the invoice's EN 16931 CII), the PDF is the Factur-X PDF/A-3b that embeds it (§15). */
export async function pdfResponse(doc: InvoiceDocument, cii: string | null = null): Promise<Response> {
  const { renderInvoicePdf } = await import('./pdf');
  const finish = cii === null ? undefined : async (pdf: Parameters<NonNullable<Parameters<typeof renderInvoicePdf>[1]>>[0]) => {
    const { makeFacturX } = await import('../../documents/einvoice/facturx');
    await makeFacturX(pdf, cii);
  };
  const bytes = await renderInvoicePdf(doc, finish);
  const filename = doc.number.replace(/[^\w.#-]/g, '_');
  return new Response(bytes, {
    headers: { ...PAGE_HEADERS, 'Content-Type': 'application/pdf', 'Content-Disposition': `inline; filename="${filename}.pdf"` },
  });
}
