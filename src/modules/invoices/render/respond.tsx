/** @jsxImportSource hono/jsx */
// The answers that carry the invoice to people: its page (HTML under a strict CSP, never cached or
// indexed) and its PDF (inline, named by its number), which the renderer worker makes.
import type { Context } from 'hono';
import type { AppEnv } from '../../../env';
import { ApiError } from '../../../errors';
import { pdfDocument } from '../../../renderer/contract';
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

// Far above a 100-line invoice's few dozen milliseconds of CPU, and above the 15 s a long one took here at the
// slowest, ten at a time on a loaded machine: only a renderer that is stuck reaches it. A Worker's default CPU
// limit is 30 s too.
const RENDER_TIMEOUT_MS = 30_000;

/** The PDF of a printed document from the renderer worker, or an error once it has not answered in RENDER_TIMEOUT_MS (the period bundle renders many in a row). */
export async function renderPdf(renderer: Env['RENDERER'], doc: PrintedDocument, cii: string | null): Promise<Uint8Array> {
  // Set at once: a promise's executor runs before `new Promise` returns.
  let timer!: ReturnType<typeof setTimeout>;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${RENDER_TIMEOUT_MS} ms`)), RENDER_TIMEOUT_MS);
  });
  try {
    return await Promise.race([renderer.renderPdf(pdfDocument(doc), cii), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
