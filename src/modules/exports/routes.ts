// The accountant's hand-off (§22), under /v1: the DATEV Buchungsstapel of a period, and the period bundle.
import { defineRoute } from '../../http/define-route';
import { createRouter } from '../../lib/router';
import { datevExport } from './datev/service';
import * as S from './schemas';

const tags = ['Exports'];

export const exportRoutes = createRouter().openapi(
  defineRoute({
    method: 'get', path: '/exports/datev', operationId: 'exportDatev', tags, access: 'user', role: 'admin',
    summary: 'The period as a DATEV Buchungsstapel',
    description: 'EXTF 700, category 21, format version 13: Windows-1252, CRLF. A booking per invoice, credit note and expense and tax rate, per payment and refund, and a reversal per void; accounts from the workspace\'s `accounting` (422 naming `accounting.consultant_number` and `accounting.client_number` while unset). The period lies within one fiscal year and one calendar year (422 on `to`).',
    request: { query: S.DatevQuery },
    responses: { 200: { description: 'EXTF_Buchungsstapel_<from>_<to>.csv', content: { 'text/csv': { schema: { type: 'string', format: 'binary' } } } } },
  }),
  async (c) => {
    const { stream, filename } = await datevExport(c.get('ctx'), c.req.valid('query'));
    return new Response(stream, {
      headers: {
        'Content-Type': 'text/csv; charset=windows-1252',
        'Content-Disposition': `attachment; filename="${filename}"`,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      },
    });
  },
);
