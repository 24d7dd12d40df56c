// The credit note as the client sees it, with no key (§17, rules of §10): /c/<token> (the page) and
// /c/<token>/pdf, beside the XML in each format it is ready in. An unknown token is a 404 page.
import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { requestEnvFor } from '../../middleware/d1-session';
import { hostedPageRateLimit } from '../../middleware/rate-limit';
import { xmlResponse } from '../invoices/einvoice';
import { linkOrigin } from '../invoices/links';
import { notFoundPage, pageResponse, pdfResponse } from '../invoices/render/respond';
import { printedDocument } from '../documents/render/printed';
import { creditNoteEInvoiceXml, creditNoteFacturXCii, creditNoteReady, creditNoteValueOf, findCreditNoteByToken } from './documents';

export const hostedCreditNoteRoutes = new Hono<AppEnv>()
  .use('*', hostedPageRateLimit)
  .get('/:token', async (c) => {
    const found = await findCreditNoteByToken(c.env, c.req.param('token'), (name) => requestEnvFor(c, name));
    if (!found) return notFoundPage(c);
    const value = await creditNoteValueOf(found.ctx, found, linkOrigin(c.env, c.req.url));
    const doc = printedDocument(value);
    const xmlLinks = (['cii', 'ubl'] as const).filter((format) => creditNoteReady(value, format)).map((format) => ({ format, url: `${doc.hostedUrl}/credit-note.xml?format=${format}` }));
    return pageResponse(c, { ...doc, xmlLinks }, { countView: false });
  })
  .get('/:token/pdf', async (c) => {
    const found = await findCreditNoteByToken(c.env, c.req.param('token'), (name) => requestEnvFor(c, name));
    if (!found) return notFoundPage(c);
    const value = await creditNoteValueOf(found.ctx, found, linkOrigin(c.env, c.req.url));
    return pdfResponse(c, printedDocument(value), creditNoteFacturXCii(value, found.workspace));
  })
  .get('/:token/credit-note.xml', async (c) => {
    const found = await findCreditNoteByToken(c.env, c.req.param('token'), (name) => requestEnvFor(c, name));
    if (!found) return notFoundPage(c);
    const format = c.req.query('format') ?? 'cii';
    if (format !== 'cii' && format !== 'ubl') return notFoundPage(c);
    return xmlResponse(found.note.row.number, creditNoteEInvoiceXml(await creditNoteValueOf(found.ctx, found), format), format);
  });
