// The invoice as the client sees it, with no key (§10): /i/<token> (the page), /i/<token>/pdf, and
// /i/<token>/view, which the page's script calls the first time it is shown in a browser. An
// unknown or rotated token is a plain 404 page. These are pages for people, not API operations, so
// they are described in the document's introduction rather than as operations.
import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { requestEnvFor } from '../../middleware/d1-session';
import { hostedPageRateLimit } from '../../middleware/rate-limit';
import { printedDocument } from '../documents/render/printed';
import { invoiceValueOf } from './document-for';
import { eInvoiceProblems, eInvoiceXml, facturXCii, xmlResponse } from './einvoice';
import { findByToken, recordFirstView } from './hosted-link';
import { hostedPanel } from './hosted-panel';
import { linkOrigin } from './links';
import { notFoundPage, pageResponse, pdfResponse } from './render/respond';

export const hostedInvoiceRoutes = new Hono<AppEnv>()
  .use('*', hostedPageRateLimit)
  .get('/:token', async (c) => {
    const found = await findByToken(c.env, c.req.param('token'), (name) => requestEnvFor(c, name));
    if (!found) return notFoundPage(c);
    const extra = await hostedPanel(c, found);
    const value = await invoiceValueOf(found.ctx, found, linkOrigin(c.env, c.req.url));
    const doc = printedDocument(value);
    // The XML beside the PDF, in each format the invoice is ready in: checked on the same value.
    const xmlLinks = doc.hostedUrl
      ? (['cii', 'ubl'] as const).filter((format) => eInvoiceProblems(value, format).length === 0).map((format) => ({ format, url: `${doc.hostedUrl}/invoice.xml?format=${format}` }))
      : [];
    return pageResponse(c, { ...doc, xmlLinks }, { countView: true, extra });
  })
  .get('/:token/pdf', async (c) => {
    const found = await findByToken(c.env, c.req.param('token'), (name) => requestEnvFor(c, name));
    if (!found) return notFoundPage(c);
    const value = await invoiceValueOf(found.ctx, found, linkOrigin(c.env, c.req.url));
    return pdfResponse(c, printedDocument(value), facturXCii(value, found.workspace));
  })
  .get('/:token/invoice.xml', async (c) => {
    const found = await findByToken(c.env, c.req.param('token'), (name) => requestEnvFor(c, name));
    if (!found) return notFoundPage(c);
    const format = c.req.query('format') ?? 'cii';
    if (format !== 'cii' && format !== 'ubl') return notFoundPage(c);
    // A hosted invoice is never a draft; an invoice not ready is the API's 422 naming what is missing.
    return xmlResponse(found.invoice.row.number, eInvoiceXml(await invoiceValueOf(found.ctx, found), format), format);
  })
  .post('/:token/view', async (c) => {
    const found = await findByToken(c.env, c.req.param('token'), (name) => requestEnvFor(c, name));
    if (!found) return notFoundPage(c);
    await recordFirstView(found.ctx, found.invoice);
    return c.body(null, 204, { 'Cache-Control': 'no-store' });
  });
