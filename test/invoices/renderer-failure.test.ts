// Every PDF is made by the renderer worker through the RENDERER service binding: when that worker fails
// or never answers, the client gets the one error envelope, promptly, and nothing about the binding.
import { Hono } from 'hono';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { invoiceLabels } from '../../src/modules/documents/labels/invoice';
import type { PrintedDocument } from '../../src/modules/documents/render/printed';
import { pdfResponse } from '../../src/modules/invoices/render/respond';
import type { AppEnv } from '../../src/env';
import { onError } from '../../src/errors';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const doc = {
  number: 'INV-000001', status: 'open', banner: null, bannerText: null,
  issuer: { name: 'Ada Studio', legal_name: null, email: null, address: { line1: null, line2: null, city: null, region: null, postal_code: null, country: null }, tax_id: null },
  billTo: { name: 'Initech', company: null, email: null, address: { line1: null, line2: null, city: null, region: null, postal_code: null, country: null }, tax_id: null },
  issueDate: '1 Jan 2026', dueDate: '31 Jan 2026', currency: 'EUR', lines: [], subtotal: '€0.00', discount: null, tax: '€0.00', total: '€0.00',
  amountPaid: '€0.00', amountDue: '€0.00', notes: null, paymentInstructions: null, locale: 'en-US', labels: invoiceLabels('en-US'), hostedUrl: null, pdfUrl: null,
} as unknown as PrintedDocument;

/** The PDF route as the API serves it, over a renderer whose `renderPdf` is `render`. */
function pdfOver(render: () => Promise<Uint8Array>) {
  const app = new Hono<AppEnv>();
  app.use('*', async (c, next) => {
    c.set('requestId', 'req_test');
    await next();
  });
  app.onError(onError);
  app.get('/pdf', (c) => pdfResponse(c, doc));
  return app.request('/pdf', {}, { RENDERER: { renderPdf: render } } as unknown as Env);
}

async function expectRenderError(res: Response) {
  expect(res.status).toBe(500);
  const body = await res.json<{ error: { code: string; message: string; request_id: string } }>();
  expect(body.error).toEqual({ code: 'internal_error', message: expect.stringContaining('PDF'), request_id: 'req_test' });
  expect(JSON.stringify(body)).not.toMatch(/RENDERER|renderer|binding|stack/);
}

describe('a PDF whose renderer fails', () => {
  it('is a 500 in the error envelope that names the PDF and nothing internal, and is logged', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    await expectRenderError(await pdfOver(() => Promise.reject(new Error('Worker exceeded CPU time limit.'))));
    expect(logged).toHaveBeenCalledOnce();
    expect(String(logged.mock.calls[0]?.[0])).toContain('req_test');
  });

  it('is the same 500 when the renderer never answers, not a request left hanging', async () => {
    vi.useFakeTimers();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const answer = pdfOver(() => new Promise(() => {}));
    await vi.advanceTimersByTimeAsync(60_000);
    await expectRenderError(await answer);
  });
});
