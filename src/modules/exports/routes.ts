// The accountant's hand-off (§22), under /v1: the DATEV Buchungsstapel of a period, and the period bundle.
import { defineRoute, jsonBody, jsonContent } from '../../http/define-route';
import { createRouter } from '../../lib/router';
import { idParams } from '../../lib/schemas';
import { linkOrigin } from '../invoices/links';
import { getExport, requestExport, serializeExport } from './bundle/service';
import { datevExport } from './datev/service';
import * as S from './schemas';

const tags = ['Exports'];

export const exportRoutes = createRouter().openapi(
  defineRoute({
    method: 'get', path: '/exports/datev', operationId: 'exportDatev', tags, access: 'user', role: 'admin',
    summary: 'The period as a DATEV Buchungsstapel',
    description: 'EXTF 700, category 21, version 13; Windows-1252, CRLF. A booking per document and tax rate, payment, refund and void, on the accounts of `accounting` (422 while it lacks the consultant or client number). Within one fiscal and calendar year (422 on `to`). Over 99,997 bookings (DATEV\'s limit a file): a ZIP of EXTF files, one per month (a full month split by days).',
    request: { query: S.DatevQuery },
    responses: {
      200: {
        description: 'EXTF_Buchungsstapel_<from>_<to>.csv, or .zip of EXTF_Buchungsstapel_<from>_<to>_<n>.csv',
        content: { 'text/csv': { schema: { type: 'string', format: 'binary' } }, 'application/zip': { schema: { type: 'string', format: 'binary' } } },
      },
    },
  }),
  async (c) => {
    const { stream, filename, contentType } = await datevExport(c.get('ctx'), c.req.valid('query'));
    return new Response(stream, {
      headers: {
        'Content-Type': contentType,
        'Content-Disposition': `attachment; filename="${filename}"`,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      },
    });
  },
)
  .openapi(
    defineRoute({
      method: 'post', path: '/exports', operationId: 'createExport', tags, access: 'user', role: 'admin',
      summary: 'Ask for a period bundle',
      description: 'A ZIP made by a queue job: the sent invoices\' and credit notes\' PDFs and XML, received originals, and a CSV per kind (UTF-8; amounts as decimals and minor units). At most 366 days and 5,000 documents (422 on `to`).',
      request: { body: jsonBody(S.CreateExportBody) },
      responses: { 202: jsonContent(S.Export, 'Queued.') },
    }),
    async (c) => {
      const row = await requestExport(c.get('ctx'), c.req.valid('json'), linkOrigin(c.env, c.req.url));
      return c.json(await serializeExport(c.env, row, linkOrigin(c.env, c.req.url)), 202);
    },
  )
  .openapi(
    defineRoute({
      method: 'get', path: '/exports/{id}', operationId: 'getExport', tags, access: 'user', role: 'admin',
      summary: 'A period bundle',
      request: { params: idParams('export') },
      responses: { 200: jsonContent(S.Export, 'The export.') },
    }),
    async (c) => {
      const row = await getExport(c.get('ctx'), c.req.valid('param').id);
      return c.json(await serializeExport(c.env, row, linkOrigin(c.env, c.req.url)), 200);
    },
  );
